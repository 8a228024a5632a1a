"""Satellites (issue 52), through the services: the prizes are seats in a target tournament,
as many as the pool holds its entry fee, the remainder in chips to the next place; the winners
are registered in the target with the fee paid from the satellite's pool, or paid the seat's
value in chips when they cannot be (already registered, the target started or cancelled).
Satellite fees == seats × target fee + the remainder (+ bounties), to the chip."""

from __future__ import annotations

import random

import pytest
from django.db.models import Sum

from tables.models import LedgerEntry, Player
from tables.selectors.chips import chips_conserved, chips_total
from tables.tournaments.deals import deal_refusal
from tables.tournaments.errors import TournamentInvalid
from tables.tournaments.models import Entry, Tournament
from tables.tournaments.selectors import prize_list
from tables.tournaments.services import (
    tournament_create,
    tournament_register,
    tournament_start,
)
from tables.tournaments.services.organise import tournament_cancel

from .helpers import make_player, play

pytestmark = pytest.mark.django_db

FAST = [{"small_blind": 25 * 2**n, "big_blind": 50 * 2**n, "hands": 3} for n in range(12)]


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def target_game(organiser: Player, fee: int = 250, **options) -> Tournament:
    return tournament_create(
        organiser=organiser, name="Main event", format="multi-table", entry_fee=fee, **options
    )


def satellite(people: list[Player], target: Tournament, fee: int = 100, **options):
    tournament = tournament_create(
        organiser=people[0],
        name="Sat",
        seats_per_table=6,
        entry_fee=fee,
        starting_stack=1000,
        levels=FAST,
        satellite_target=target.pk,
        **options,
    )
    for person in people:
        tournament_register(tournament=tournament, player=person)
    tournament_start(tournament=tournament, by=people[0], rng=random.Random(0))
    tournament.refresh_from_db()
    return tournament


def bankroll(player: Player) -> int:
    player.refresh_from_db()
    return player.bankroll


def assert_fees_paid_out(tournament: Tournament) -> None:
    tournament.refresh_from_db()
    sums = tournament.entries.aggregate(
        fees=Sum("fee_paid"), prizes=Sum("prize"), bounties=Sum("bounties_won")
    )
    assert sums["fees"] == sums["prizes"] + (sums["bounties"] or 0)


def test_seats_and_the_remainder_follow_the_pool():
    boss = make_player("boss")
    target = target_game(boss)
    people = [make_player(f"p{n}") for n in range(6)]
    sat = tournament_create(
        organiser=boss, name="Sat", entry_fee=100, satellite_target=target, seats_per_table=6
    )
    assert (sat.seat_value, sat.satellite_target_id) == (250, target.pk)
    for count, person in enumerate(people, start=1):
        tournament_register(tournament=sat, player=person)
        sat.refresh_from_db()
        assert sat.seats == count * 100 // 250
    assert prize_list(sat) == [250, 250, 100]  # two seats, the remainder to third place


def test_the_winners_are_registered_in_the_target_paid_by_the_pool():
    boss = make_player("boss")
    target = target_game(boss)
    people = [make_player(f"p{n}") for n in range(6)]
    sat = satellite(people, target)
    before = {person.pk: bankroll(person) for person in people}
    play(sat)
    sat.refresh_from_db()
    assert sat.status == Tournament.Status.FINISHED
    entries = {e.place: e for e in sat.entries.select_related("player")}
    winners = [entries[1], entries[2]]
    assert [e.seat for e in winners] == [Entry.Seat.REGISTERED] * 2
    assert [e.prize for e in winners] == [250, 250]
    assert (entries[3].seat, entries[3].prize) == ("", 100)  # the remainder in chips
    assert all(entries[place].prize == 0 for place in (4, 5, 6))
    # The seats' fees came from the satellite's pool, not from the winners' bankrolls.
    target.refresh_from_db()
    registered = set(target.entries.values_list("player_id", flat=True))
    assert registered == {winners[0].player_id, winners[1].player_id}
    assert target.prize_pool == 500
    assert set(target.entries.values_list("fee_paid", flat=True)) == {250}
    for winner in winners:
        assert bankroll(winner.player) == before[winner.player_id]
    assert bankroll(entries[3].player) == before[entries[3].player_id] + 100
    # Conservation: satellite fees == seats × target fee + the remainder.
    assert 6 * 100 == 2 * 250 + 100
    assert_fees_paid_out(sat)
    assert chips_conserved(chips_total())


def test_a_winner_already_in_the_target_is_paid_the_seat_in_chips():
    boss = make_player("boss")
    target = target_game(boss)
    people = [make_player(f"p{n}") for n in range(3)]
    for person in people:  # whoever wins is registered there already
        tournament_register(tournament=target, player=person)
    sat = satellite(people, target, fee=100)  # 300: one seat, 50 over
    before = {person.pk: bankroll(person) for person in people}
    play(sat)
    first = sat.entries.get(place=1)
    assert (first.seat, first.prize) == (Entry.Seat.CHIPS, 250)
    assert bankroll(first.player) == before[first.player_id] + 250
    assert LedgerEntry.objects.filter(
        player=first.player, reason__contains="already registered in Main event"
    ).exists()
    target.refresh_from_db()
    assert target.entries.count() == 3 and target.prize_pool == 750  # nothing added
    assert sat.entries.get(place=2).prize == 50
    assert_fees_paid_out(sat)
    assert chips_conserved(chips_total())


@pytest.mark.parametrize("ended", ["started", "cancelled"])
def test_a_target_that_started_or_was_cancelled_pays_the_seat_in_chips(ended):
    boss = make_player("boss")
    target = target_game(boss)
    people = [make_player(f"p{n}") for n in range(3)]
    sat = satellite(people, target)
    if ended == "started":
        for n in range(2):
            tournament_register(tournament=target, player=make_player(f"main{n}"))
        tournament_start(tournament=target, by=boss, rng=random.Random(0))
    else:
        tournament_cancel(tournament=target, by=boss.user)
    before = {person.pk: bankroll(person) for person in people}
    play(sat)
    first = sat.entries.get(place=1)
    assert (first.seat, first.prize) == (Entry.Seat.CHIPS, 250)
    assert bankroll(first.player) == before[first.player_id] + 250
    assert not target.entries.filter(player=first.player).exists()
    assert_fees_paid_out(sat)
    assert chips_conserved(chips_total())


def test_the_satellite_ends_when_everyone_left_has_a_seat():
    boss = make_player("boss")
    target = target_game(boss, fee=100)
    people = [make_player(f"p{n}") for n in range(4)]
    sat = satellite(people, target, fee=50)  # 200: two seats, no remainder
    assert deal_refusal(sat, people[0].pk) == "A satellite's prizes are seats: no deal."
    play(sat)
    entries = list(sat.entries.order_by("place"))
    assert [e.seat for e in entries[:2]] == [Entry.Seat.REGISTERED] * 2
    # Two were left when it ended: each kept the chips they ended with.
    assert all(e.final_chips for e in entries[:2]) and sum(e.final_chips for e in entries[:2])
    assert [e.prize for e in entries] == [100, 100, 0, 0]
    assert set(target.entries.values_list("player_id", flat=True)) == {
        e.player_id for e in entries[:2]
    }


def test_bounties_in_a_satellite_keep_the_money_whole():
    boss = make_player("boss")
    target = target_game(boss, fee=150)
    people = [make_player(f"p{n}") for n in range(4)]
    sat = satellite(people, target, fee=100, bounty_kind="pko", bounty=40)  # pool 240
    play(sat)
    sat.refresh_from_db()
    assert sat.entries.filter(seat=Entry.Seat.REGISTERED).count() == 1
    assert sat.entries.get(place=2).prize == 90  # 240 - 150
    assert_fees_paid_out(sat)
    assert chips_conserved(chips_total())


@pytest.mark.parametrize(
    ("target_options", "satellite_options", "field", "message"),
    [
        ({"fee": 0}, {}, "satellite_target", "freeroll"),
        ({}, {"entry_fee": 0}, "entry_fee", "paid from its entry fees"),
        ({}, {"format": "fixed-hands", "hands": 10}, "satellite_target", "fixed-hands"),
        ({}, {"satellite_target": 999_999}, "satellite_target", "No tournament 999999"),
        ({}, {"satellite_target": "one"}, "satellite_target", "a tournament's id"),
    ],
)
def test_bad_settings_are_refused_and_nothing_is_created(
    target_options, satellite_options, field, message
):
    boss = make_player("boss")
    target = target_game(boss, **target_options)
    settings = {"entry_fee": 100, "satellite_target": target.pk, **satellite_options}
    with pytest.raises(TournamentInvalid) as refused:
        tournament_create(organiser=boss, name="Sat", **settings)
    assert refused.value.field == field and message in str(refused.value)
    assert Tournament.objects.count() == 1


@pytest.mark.parametrize("ended", ["started", "cancelled"])
def test_a_target_that_does_not_take_entries_is_refused(ended):
    boss = make_player("boss")
    target = target_game(boss)
    if ended == "started":
        for n in range(2):
            tournament_register(tournament=target, player=make_player(f"main{n}"))
        tournament_start(tournament=target, by=boss, rng=random.Random(0))
    else:
        tournament_cancel(tournament=target, by=boss.user)
    with pytest.raises(TournamentInvalid, match="does not take entries"):
        tournament_create(organiser=boss, name="Sat", entry_fee=100, satellite_target=target.pk)
    assert Tournament.objects.count() == 1


def test_a_target_that_starts_when_full_starts_once_the_seats_fill_it():
    boss = make_player("boss")
    target = tournament_create(
        organiser=boss,
        name="Main event",
        entry_fee=100,
        seats_per_table=3,
        start="when-full",
    )
    tournament_register(tournament=target, player=boss)
    people = [make_player(f"p{n}") for n in range(4)]
    sat = satellite(people, target, fee=50)  # 200: two seats fill the target's three
    play(sat)
    target.refresh_from_db()
    assert target.entries.count() == 3
    assert target.status == Tournament.Status.RUNNING
