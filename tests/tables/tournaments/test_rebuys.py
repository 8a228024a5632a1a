"""Rebuys and re-entry (freezeout by default): each through the ledger, the prize pool grows by
each fee, and the tournament's chips == starting stacks + rebuys + re-entries; the site's
play chips (bankrolls + cash tables + unpaid prize pools) stay equal to the grants."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from tables.models import LedgerEntry, Seat
from tables.services.clock import clock_tick
from tables.tournaments.errors import AlreadyRegistered, RebuyRefused, RegistrationClosed
from tables.tournaments.models import Entry, Tournament
from tables.tournaments.selectors import chips_issued, prizes_paid, tournament_chips
from tables.tournaments.services import tournament_create, tournament_register, tournament_start
from tables.tournaments.services.places import entries_out
from tables.tournaments.services.rebuys import tournament_rebuy

from .helpers import assert_chips, make_player, open_tables, play_hand

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

LEVELS = [{"small_blind": 25 * 2**n, "big_blind": 50 * 2**n, "hands": 3} for n in range(14)]


def rebuy_tournament(entrants: int = 3, **options):
    people = [make_player(f"p{n}") for n in range(entrants)]
    settings = {
        "name": "Rebuys",
        "seats_per_table": 6,
        "entry_fee": 100,
        "starting_stack": 1000,
        "levels": LEVELS,
        **options,
    }
    tournament = tournament_create(organiser=people[0], **settings)
    for person in people:
        tournament_register(tournament=tournament, player=person)
    tournament_start(tournament=tournament, by=people[0], rng=random.Random(0))
    tournament.refresh_from_db()
    return tournament, people


def test_a_freezeout_refuses_rebuys_and_changes_nothing():
    tournament, people = rebuy_tournament()
    bankroll = people[1].bankroll
    with pytest.raises(RebuyRefused, match="freezeout"):
        tournament_rebuy(tournament=tournament, player=people[1])
    people[1].refresh_from_db()
    tournament.refresh_from_db()
    assert people[1].bankroll == bankroll
    assert tournament.prize_pool == 300
    assert tournament_chips(tournament) == 3000


def test_a_rebuy_at_or_below_the_starting_stack_adds_a_stack_and_the_fee_to_the_pool(
    assert_chips_conserved,
):
    tournament, people = rebuy_tournament(rebuy_levels=2, max_rebuys=1)
    bankroll = people[1].bankroll
    tournament_rebuy(tournament=tournament, player=people[1])
    people[1].refresh_from_db()
    tournament.refresh_from_db()
    assert people[1].bankroll == bankroll - 100
    assert tournament.prize_pool == 400
    assert Seat.objects.get(player=people[1]).stack == 2000
    entry = Entry.objects.get(player=people[1])
    assert (entry.rebuys, entry.fee_paid) == (1, 200)
    assert LedgerEntry.objects.filter(player=people[1], reason__startswith="Rebuy").count() == 1
    assert tournament_chips(tournament) == chips_issued(tournament) == 4000
    assert_chips_conserved()
    # Above the starting stack now, and the one rebuy is used: both refused, nothing changes.
    with pytest.raises(RebuyRefused):
        tournament_rebuy(tournament=tournament, player=people[1])
    Seat.objects.filter(player=people[2]).update(stack=1001)
    Seat.objects.filter(player=people[0]).update(stack=999)
    with pytest.raises(RebuyRefused, match="at or below"):
        tournament_rebuy(tournament=tournament, player=people[2])
    tournament.refresh_from_db()
    assert tournament.prize_pool == 400


def test_rebuys_are_refused_during_the_players_hand_and_after_the_rebuy_levels():
    tournament, people = rebuy_tournament(rebuy_levels=1, max_rebuys=5)
    (table_id,) = open_tables(tournament)
    now = timezone.now() + timedelta(hours=1)
    assert clock_tick(table=table_id, now=now) == "started"
    with pytest.raises(RebuyRefused, match="between your hands"):
        tournament_rebuy(tournament=tournament, player=people[0])
    rng = random.Random(4)
    while tournament.rebuys_open:  # level 1 lasts 3 hands; the 4th hand closes rebuys
        play_hand(table_id, now, rng)
        now += timedelta(seconds=30)
        tournament.refresh_from_db()
        if tournament.status == Tournament.Status.FINISHED:
            break
    with pytest.raises(RebuyRefused, match="over"):
        tournament_rebuy(tournament=tournament, player=people[0])


def test_a_busted_player_rebuys_is_seated_again_and_the_places_wait_for_the_rebuys_to_end(
    assert_chips_conserved,
):
    # Eight players, two paid: rebuys last three levels, or until three players are left.
    tournament, people = rebuy_tournament(
        entrants=8, seats_per_table=9, rebuy_levels=3, max_rebuys=3
    )
    (table_id,) = open_tables(tournament)
    now = timezone.now() + timedelta(hours=1)
    rng = random.Random(11)
    rebought = 0
    for _ in range(400):
        tournament.refresh_from_db()
        if tournament.status == Tournament.Status.FINISHED:
            break
        play_hand(table_id, now, rng)
        now += timedelta(seconds=30)
        assert_chips(tournament)
        assert_chips_conserved()
        tournament.refresh_from_db()
        if tournament.places_open:  # a player out may still come back: no place given yet
            assert not tournament.entries.filter(place__isnull=False).exists()
        for entry in tournament.entries.filter(out_batch__isnull=False, place__isnull=True):
            if tournament.rebuys_open and entry.rebuys < tournament.max_rebuys:
                assert entry.out_order is not None
                tournament_rebuy(tournament=tournament, player=entry.player)
                rebought += 1
                entry.refresh_from_db()
                assert entry.out_order is None and entry.place is None
                assert Seat.objects.filter(player=entry.player, stack=1000).exists()
                assert_chips(tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert rebought >= 1
    total_rebuys = sum(tournament.entries.values_list("rebuys", flat=True))
    assert total_rebuys == rebought
    assert tournament.prize_pool == 100 * (8 + rebought)
    assert prizes_paid(tournament) == tournament.prize_pool
    # Eight places from 1; players out in one hand with equal chips (a rebuy's starting
    # stack, often) share the better place, so each place is where its group begins.
    places = sorted(tournament.entries.values_list("place", flat=True))
    assert len(places) == 8 and places[0] == 1
    assert all(place == places.index(place) + 1 for place in places), places
    assert_chips_conserved()


def test_re_entry_during_late_registration_brings_the_player_back_with_a_new_stack(
    assert_chips_conserved,
):
    tournament, people = rebuy_tournament(
        format="multi-table", late_registration_levels=2, max_reentries=1
    )
    (table_id,) = open_tables(tournament)
    victim = people[2]
    # Busted: out in a hand (the player's seat freed, as a hand's end does).
    stack = Seat.objects.get(player=victim).stack
    others = Seat.objects.filter(table_id=table_id).exclude(player=victim)
    first = others.first()
    Seat.objects.filter(pk=first.pk).update(stack=first.stack + stack)
    Seat.objects.filter(player=victim).delete()
    entries_out(tournament, {victim.pk: stack})
    assert_chips(tournament)
    with pytest.raises(AlreadyRegistered):
        tournament_register(tournament=tournament, player=people[0])  # still in
    tournament_register(tournament=tournament, player=victim)
    entry = Entry.objects.get(player=victim)
    assert (entry.reentries, entry.fee_paid, entry.out_order) == (1, 200, None)
    assert Seat.objects.get(player=victim).stack == 1000
    tournament.refresh_from_db()
    assert tournament.prize_pool == 400
    assert tournament.entries.count() == 3  # the same entry, not a new player
    assert tournament_chips(tournament) == chips_issued(tournament) == 4000
    assert_chips_conserved()
    # No second re-entry: out again, the register is refused.
    Seat.objects.filter(player=victim).delete()
    Seat.objects.filter(pk=first.pk).update(stack=Seat.objects.get(pk=first.pk).stack + 1000)
    entries_out(tournament, {victim.pk: 1000})
    with pytest.raises(AlreadyRegistered):
        tournament_register(tournament=tournament, player=victim)


def test_re_entry_is_refused_once_late_registration_has_closed():
    tournament, people = rebuy_tournament(
        format="multi-table", late_registration_levels=1, max_reentries=2
    )
    Tournament.objects.filter(pk=tournament.pk).update(registration_open=False)
    with pytest.raises(RegistrationClosed):
        tournament_register(tournament=tournament, player=people[1])
