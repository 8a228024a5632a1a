import random
from datetime import timedelta

import pytest
from django.utils import timezone

from tables.services.clock import clock_tick
from tables.tournaments.models import Tournament
from tables.tournaments.selectors import prizes_paid, table_counts
from tables.tournaments.services import tournament_create, tournament_start

from .helpers import (
    assert_chips,
    assert_places_each_given_once,
    fold_or_check,
    make_player,
    open_tables,
    play_hand,
)

pytestmark = pytest.mark.django_db

FAST = [{"small_blind": 25 * 2**n, "big_blind": 50 * 2**n, "hands": 2} for n in range(14)]


def run(tournament: Tournament, seed: int = 7) -> dict:
    """Play to the winner, one whole hand at a time (the other tables between hands), checking
    after each hand: the chips, and that no table is more than one player shorter than another."""
    rng = random.Random(seed)
    now = timezone.now() + timedelta(days=1)
    hands = 0
    most_tables = len(open_tables(tournament))
    for _ in range(20_000):
        tournament.refresh_from_db()
        if tournament.status == Tournament.Status.FINISHED:
            return {"hands": hands, "tables": most_tables}
        for table_id in open_tables(tournament):
            if play_hand(table_id, now, rng):
                hands += 1
                assert_chips(tournament)
                counts = table_counts(tournament)
                if counts:
                    assert max(counts.values()) - min(counts.values()) <= 1, counts
        now += timedelta(seconds=30)
    raise AssertionError("no winner")


@pytest.mark.slow
def test_two_hundred_bots_play_to_one_winner_balanced_with_every_place_given_once():
    organiser = make_player("organiser")
    tournament = tournament_create(
        organiser=organiser,
        name="Two hundred",
        format="multi-table",
        seats_per_table=9,
        entry_fee=10,
        starting_stack=1000,
        levels=FAST,
        bot_entrants=200,
    )
    tournament_start(tournament=tournament, by=organiser, rng=random.Random(1))
    assert len(open_tables(tournament)) == 23  # 200 over 9 seats: 23 tables of 8 or 9
    assert set(table_counts(tournament).values()) == {8, 9}
    run(tournament)
    tournament.refresh_from_db()
    assert_places_each_given_once(list(tournament.entries.values_list("place", flat=True)))
    assert prizes_paid(tournament) == tournament.prize_pool == 2000
    assert tournament.tables.filter(broken_at__isnull=True).count() == 0


def test_hand_for_hand_a_table_waits_until_every_table_has_finished_the_round():
    organiser = make_player("organiser")
    tournament = tournament_create(
        organiser=organiser,
        name="Bubble",
        format="multi-table",
        seats_per_table=2,
        payouts="custom",
        payout_percentages=[50, 30, 20],
        bot_entrants=4,
        levels=[{"small_blind": 5, "big_blind": 10, "hands": 100}],
    )
    tournament_start(tournament=tournament, by=organiser, rng=random.Random(3))
    first, second = open_tables(tournament)
    now = timezone.now() + timedelta(hours=1)
    rng = random.Random(0)
    assert play_hand(first, now, rng, policy=fold_or_check)
    tournament.refresh_from_db()
    assert tournament.hand_for_hand  # four left, three paid: the next one out decides a prize
    assert clock_tick(table=first, now=now) == "started"
    assert clock_tick(table=second, now=now) == "started"
    assert play_hand(first, now, rng, policy=fold_or_check)
    later = now + timedelta(minutes=1)
    assert clock_tick(table=first, now=later) is None  # the other table is still playing
    assert play_hand(second, later, rng, policy=fold_or_check)
    assert clock_tick(table=first, now=later) == "started"
