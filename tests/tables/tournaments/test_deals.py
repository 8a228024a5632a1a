"""A deal at the final table, through the services: proposed by one player, agreed by each
(or refused by one), the clock standing still meanwhile; the unpaid prizes split by ICM or
chip chop in whole chips; prizes paid == the prize pool to the chip, a deal included, and
the site's chips conserved."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from engine import icm
from tables.models import LedgerEntry, Seat, Table
from tables.services.clock import clock_tick
from tables.tournaments.errors import DealRefused
from tables.tournaments.level import table_banner
from tables.tournaments.models import Deal, Entry, Tournament
from tables.tournaments.selectors import prizes_paid, tournament_clock
from tables.tournaments.services import tournament_create, tournament_register, tournament_start
from tables.tournaments.services.deals import (
    ANSWER_SECONDS,
    deal_answer,
    deal_propose,
    deals_lapse,
)
from tables.tournaments.services.places import entries_out, places_decide

from .helpers import STEP, fold_or_check, make_player, open_tables, play, play_hand

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

LEVELS = [{"small_blind": 25 * 2**n, "big_blind": 50 * 2**n, "hands": 3} for n in range(14)]


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def deal_tournament(**options):
    """A sit & go of four at 100 each paying 50/30/20% (200/120/80), started at one table;
    the fourth is out at once (their chips to the first), fourth and paid nothing: three
    left, every place in the money still to be given."""
    people = [make_player(f"p{n}") for n in range(4)]
    settings = {
        "name": "Deal",
        "seats_per_table": 6,
        "entry_fee": 100,
        "starting_stack": 1500,
        "levels": LEVELS,
        "payouts": Tournament.Payouts.CUSTOM,
        "payout_percentages": [50, 30, 20],
        **options,
    }
    tournament = tournament_create(organiser=people[0], **settings)
    for person in people:
        tournament_register(tournament=tournament, player=person)
    tournament_start(tournament=tournament, by=people[0], rng=random.Random(0))
    Seat.objects.filter(player=people[3]).delete()
    Seat.objects.filter(player=people[0]).update(stack=3000)
    tournament.refresh_from_db()
    entries_out(tournament, {people[3].pk: 1500})
    places_decide(tournament)
    assert Entry.objects.get(player=people[3]).place == (None if "rebuy_levels" in options else 4)
    return tournament, people[:3]


def set_stacks(people, stacks) -> None:
    for person, stack in zip(people, stacks, strict=True):
        Seat.objects.filter(player=person).update(stack=stack)


def test_an_icm_deal_agreed_by_everyone_ends_it_and_pays_each_share(assert_chips_conserved):
    tournament, people = deal_tournament()
    set_stacks(people, [3000, 1800, 1200])  # 5 : 3 : 2 of the 6,000 chips
    banks = [p.bankroll for p in people]
    now = timezone.now() + timedelta(hours=1)
    deal = deal_propose(tournament=tournament, player=people[1], method="icm", now=now)
    # The offer shows each share before anyone else agrees: ICM of the prizes 200/120/80.
    assert [row["share"] for row in deal.offer] == [154, 131, 115]
    assert [row["share"] for row in deal.offer] == icm.deal([3000, 1800, 1200], [200, 120, 80])
    assert deal.agreed == [people[1].pk]  # the proposer agrees by proposing
    tournament.refresh_from_db()
    assert tournament.paused_at == now
    (table_id,) = open_tables(tournament)
    assert clock_tick(table=table_id, now=now + STEP) != "started"  # no hand while deciding
    deal_answer(tournament=tournament, player=people[0], accept=True, now=now)
    assert Deal.objects.get(pk=deal.pk).status == Deal.Status.PENDING
    deal_answer(tournament=tournament, player=people[2], accept=True, now=now + STEP)

    deal.refresh_from_db()
    tournament.refresh_from_db()
    assert deal.status == Deal.Status.MADE
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.paused_at is None and tournament.paused_for == STEP
    entries = {e.player_id: e for e in Entry.objects.filter(tournament=tournament)}
    got = [(entries[p.pk].place, entries[p.pk].prize, entries[p.pk].deal_share) for p in people]
    assert got == [(1, 154, 154), (2, 131, 131), (3, 115, 115)]
    assert Entry.objects.get(player__user__username="p3").prize == 0
    assert prizes_paid(tournament) == tournament.prize_pool == 400
    for person, bank, share in zip(people, banks, [154, 131, 115], strict=True):
        person.refresh_from_db()
        assert person.bankroll == bank + share
        (line,) = LedgerEntry.objects.filter(player=person, kind=LedgerEntry.Kind.TOURNAMENT_PRIZE)
        assert (line.amount, line.reason) == (share, "Deal (ICM) in Deal")
    assert_chips_conserved()


def test_one_refusal_ends_the_deal_pays_nothing_and_the_clock_runs_again(
    assert_chips_conserved,
):
    tournament, people = deal_tournament()
    (table,) = Table.objects.filter(tournament_table__tournament=tournament)
    assert table_banner(table)["deal_deciding"] is False
    now = timezone.now() + timedelta(hours=1)
    deal = deal_propose(tournament=tournament, player=people[0], method="chip_chop", now=now)
    # the table's screens and play state (the terminal client) say the clock waits for it
    assert table_banner(table)["deal_deciding"] is True
    stacks = [row["chips"] for row in deal.offer]
    assert [row["share"] for row in deal.offer] == icm.deal(stacks, [200, 120, 80], "chip_chop")
    deal_answer(tournament=tournament, player=people[2], accept=False, now=now + STEP)
    deal.refresh_from_db()
    tournament.refresh_from_db()
    assert (deal.status, deal.refused_by_id) == (Deal.Status.REFUSED, people[2].pk)
    assert tournament.paused_at is None and tournament.paused_for == STEP
    assert table_banner(table)["deal_deciding"] is False
    assert prizes_paid(tournament) == 0
    assert not LedgerEntry.objects.filter(kind=LedgerEntry.Kind.TOURNAMENT_PRIZE).exists()
    (table_id,) = open_tables(tournament)
    assert clock_tick(table=table_id, now=now + 2 * STEP) == "started"
    # Refused, the answers are over: nobody answers it again.
    with pytest.raises(DealRefused, match="No deal is being decided"):
        deal_answer(tournament=tournament, player=people[1], accept=True)
    assert_chips_conserved()


def test_bad_proposals_and_answers_are_refused_and_change_nothing():
    tournament, people = deal_tournament()
    outsider = make_player("outsider")
    with pytest.raises(DealRefused, match="still in"):
        deal_propose(tournament=tournament, player=outsider)
    with pytest.raises(DealRefused, match="icm or chip_chop"):
        deal_propose(tournament=tournament, player=people[0], method="even")
    with pytest.raises(DealRefused, match="whole number"):
        deal_propose(tournament=tournament, player=people[0], keep=-5)
    with pytest.raises(DealRefused, match="at least the second prize"):
        deal_propose(tournament=tournament, player=people[0], keep=81)  # 200 - 81 < 120
    with pytest.raises(DealRefused, match="No deal is being decided"):
        deal_answer(tournament=tournament, player=people[1], accept=True)
    assert not Deal.objects.exists()
    tournament.refresh_from_db()
    assert tournament.paused_at is None

    deal_propose(tournament=tournament, player=people[0], keep=60)
    with pytest.raises(DealRefused, match="being decided already"):
        deal_propose(tournament=tournament, player=people[1])
    with pytest.raises(DealRefused, match="already"):
        deal_answer(tournament=tournament, player=people[0], accept=True)
    with pytest.raises(DealRefused, match="Only the players in the deal"):
        deal_answer(tournament=tournament, player=outsider, accept=False)
    with pytest.raises(DealRefused, match="true or false"):
        deal_answer(tournament=tournament, player=people[1], accept="yes")  # type: ignore[arg-type]
    assert Deal.objects.get().status == Deal.Status.PENDING
    assert prizes_paid(tournament) == 0


def test_no_deal_while_rebuys_are_open():
    tournament, people = deal_tournament(rebuy_levels=2)  # the fourth could rebuy
    with pytest.raises(DealRefused, match="come back"):
        deal_propose(tournament=tournament, player=people[0])
    assert not Deal.objects.exists()


def test_a_chip_chop_keeping_an_amount_pays_the_shares_and_the_winner_plays_for_the_rest(
    assert_chips_conserved,
):
    tournament, people = deal_tournament()
    set_stacks(people, [3000, 1800, 1200])
    deal = deal_propose(tournament=tournament, player=people[2], method="chip_chop", keep=40)
    # 360 split: 80 to each, the 120 left by chips 5 : 3 : 2; 40 kept for the winner.
    assert [row["share"] for row in deal.offer] == [140, 116, 104]
    for person in people[:2]:
        deal_answer(tournament=tournament, player=person, accept=True)
    deal.refresh_from_db()
    tournament.refresh_from_db()
    assert deal.status == Deal.Status.MADE
    assert tournament.status == Tournament.Status.RUNNING  # play goes on for the 40
    assert prizes_paid(tournament) == 360

    play(tournament)
    entries = {e.player_id: e for e in Entry.objects.filter(tournament=tournament)}
    shares = {row["player_id"]: row["share"] for row in deal.offer}
    for person in people[:3]:
        entry = entries[person.pk]
        assert entry.prize == shares[person.pk] + (40 if entry.place == 1 else 0)
    assert sorted(e.place or 0 for e in entries.values()) == [1, 2, 3, 4]
    assert prizes_paid(tournament) == tournament.prize_pool == 400
    winner = next(e for e in entries.values() if e.place == 1)
    lines = LedgerEntry.objects.filter(player_id=winner.player_id, kind="tourney_prize")
    assert sorted(lines.values_list("amount", flat=True)) == sorted([shares[winner.player_id], 40])
    assert_chips_conserved()


def test_a_deal_proposed_during_a_hand_is_offered_from_the_stacks_when_it_ends(
    assert_chips_conserved,
):
    tournament, people = deal_tournament()
    (table_id,) = open_tables(tournament)
    now = timezone.now() + timedelta(hours=1)
    assert clock_tick(table=table_id, now=now) == "started"
    deal = deal_propose(tournament=tournament, player=people[0], now=now)
    assert deal.offer == [] and deal.agreed == []
    with pytest.raises(DealRefused, match="when the hand being played ends"):
        deal_answer(tournament=tournament, player=people[1], accept=True)
    play_hand(table_id, now, random.Random(1), policy=fold_or_check)  # plays the hand out
    deal.refresh_from_db()
    stacks = dict(Seat.objects.values_list("player_id", "stack"))
    assert {row["player_id"]: row["chips"] for row in deal.offer} == stacks
    assert sum(row["share"] for row in deal.offer) == 400
    assert clock_tick(table=table_id, now=now + STEP) != "started"
    for person in people:  # the proposer too: they have seen the shares only now
        deal_answer(tournament=tournament, player=person, accept=True)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert prizes_paid(tournament) == tournament.prize_pool == 400
    assert_chips_conserved()


def test_an_offer_left_unanswered_lapses_and_the_clock_runs_again():
    tournament, people = deal_tournament()
    now = timezone.now() + timedelta(hours=1)
    deal = deal_propose(tournament=tournament, player=people[0], now=now)
    deals_lapse(now + timedelta(seconds=ANSWER_SECONDS - 1))
    deal.refresh_from_db()
    assert deal.status == Deal.Status.PENDING
    # The offer's time is the database's (``offered_at``): lapse well after it.
    later = deal.offered_at + timedelta(seconds=ANSWER_SECONDS + 1)
    deals_lapse(later)
    deal.refresh_from_db()
    tournament.refresh_from_db()
    assert deal.status == Deal.Status.LAPSED
    assert tournament.paused_at is None
    assert prizes_paid(tournament) == 0


def test_the_levels_clock_stands_still_while_a_deal_is_decided():
    minutes = [{"small_blind": 25 * 2**n, "big_blind": 50 * 2**n, "minutes": 10} for n in range(5)]
    tournament, people = deal_tournament(levels=minutes)
    started = tournament.started_at
    deal_propose(tournament=tournament, player=people[0], now=started + timedelta(minutes=5))
    tournament.refresh_from_db()
    assert tournament_clock(tournament, started + timedelta(minutes=25)).level == 0
    deal_answer(
        tournament=tournament,
        player=people[1],
        accept=False,
        now=started + timedelta(minutes=25),
    )
    tournament.refresh_from_db()
    assert tournament.paused_for == timedelta(minutes=20)
    assert tournament_clock(tournament, started + timedelta(minutes=29)).level == 0
    assert tournament_clock(tournament, started + timedelta(minutes=31)).level == 1


def test_a_fixed_hands_game_refuses_a_deal():
    person = make_player("host")
    tournament = tournament_create(
        organiser=person, name="Fifty hands", format="fixed-hands", hands=50, seats_per_table=4
    )
    tournament_register(tournament=tournament, player=person)
    tournament_start(tournament=tournament, by=person)
    with pytest.raises(DealRefused, match="fixed-hands"):
        deal_propose(tournament=tournament, player=person)
    assert not Deal.objects.exists()
