"""Hand-for-hand: players out at different tables in the same round are ranked together (by
chips at the start of the hand; equal chips share those places' prizes), whichever table
finished its hand first."""

import itertools
import random
from datetime import timedelta

import pytest
from django.utils import timezone

from tables.models import Seat
from tables.tournaments import structure
from tables.tournaments.models import Entry
from tables.tournaments.services import tournament_create, tournament_start

from .helpers import assert_chips, fold_or_check, make_player, open_tables, play_hand

pytestmark = pytest.mark.django_db


def all_in(state, rng):
    legal = state.legal
    if legal.max_raise_to is not None:
        return ("raise", legal.max_raise_to)
    return "call" if legal.call else "check"


@pytest.fixture
def fixed_decks(monkeypatch):
    """Decks from a fixed sequence of seeds: the same cards every run (no chop)."""
    counter = itertools.count(1000)
    monkeypatch.setattr("tables.services.hands.new_seed", lambda: f"{next(counter):064x}")


def on_the_bubble(stacks_by_table: list[tuple[int, int]]):
    """Four players on two heads-up tables, three paid, hand-for-hand on, the stacks set."""
    organiser = make_player("organiser")
    tournament = tournament_create(
        organiser=organiser,
        name="Bubble",
        format="multi-table",
        seats_per_table=2,
        entry_fee=100,
        starting_stack=1000,
        payouts="custom",
        payout_percentages=[50, 30, 20],
        bot_entrants=4,
        levels=[{"small_blind": 5, "big_blind": 10, "hands": 100}],
    )
    tournament_start(tournament=tournament, by=organiser, rng=random.Random(3))
    first, second = open_tables(tournament)
    now = timezone.now() + timedelta(hours=1)
    assert play_hand(first, now, random.Random(0), policy=fold_or_check)
    tournament.refresh_from_db()
    assert tournament.hand_for_hand
    # The stacks the test wants (the total stays 4 starting stacks).
    for table_id, stacks in zip((first, second), stacks_by_table, strict=True):
        for seat, stack in zip(Seat.objects.filter(table_id=table_id), stacks, strict=True):
            Seat.objects.filter(pk=seat.pk).update(stack=stack)
    assert_chips(tournament)
    return tournament, first, second, now


def players_out() -> set[int]:
    return set(Entry.objects.filter(out_batch__isnull=False).values_list("player_id", flat=True))


def test_players_out_at_different_tables_in_one_round_rank_by_chips_not_by_which_table_ended_first(
    fixed_decks,
):
    tournament, first, second, now = on_the_bubble([(300, 300), (1700, 1700)])
    rng = random.Random(1)
    # The big stacks' table ends its round hand first: a player out with 1700.
    assert play_hand(second, now, rng, policy=all_in)
    (big_out,) = players_out()
    # Its place waits for the round: the other table's hand may rank above or below it.
    assert Entry.objects.get(player_id=big_out).place is None
    assert play_hand(first, now, rng, policy=all_in)
    (short_out,) = players_out() - {big_out}
    big, short = Entry.objects.get(player_id=big_out), Entry.objects.get(player_id=short_out)
    assert (big.place, short.place) == (3, 4)  # more chips at the start finishes higher
    assert big.prize == structure.prize_table(400, 4, "custom", [50, 30, 20])[2]
    assert short.prize == 0


def test_players_out_at_different_tables_in_one_round_with_equal_chips_share_the_places(
    fixed_decks,
):
    tournament, first, second, now = on_the_bubble([(1000, 1000), (1000, 1000)])
    rng = random.Random(1)
    assert play_hand(first, now, rng, policy=all_in)
    assert play_hand(second, now, rng, policy=all_in)
    out = players_out()
    assert len(out) == 2
    entries = list(Entry.objects.filter(player_id__in=out))
    assert [e.place for e in entries] == [3, 3]
    third = structure.prize_table(400, 4, "custom", [50, 30, 20])[2]
    assert sorted(e.prize for e in entries) == structure.shared_prizes([0, 0, third], 3, 2)
    assert sum(e.prize for e in entries) == third
