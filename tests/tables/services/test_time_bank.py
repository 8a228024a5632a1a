"""The time bank's refill: every few hands at a cash table, every level in a tournament,
never past the bank's size. Hands are played through the services; no clock is waited on."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from tables.models import Seat
from tables.services import hand_start, seat_take
from tables.services.time_bank import time_bank_refill
from tables.tournaments.services import tournament_create, tournament_start
from tables.tournaments.services.setup import TOURNAMENT_TIME_BANK
from tests.tables.tournaments.helpers import (
    fold_or_check,
    make_player as tournament_player,
    open_tables,
    play_hand,
)

pytestmark = pytest.mark.django_db


def banks(table):
    return sorted(Seat.objects.filter(table=table).values_list("time_bank", flat=True))


def spend(table, seconds):
    """As the clock does when a player's deadline passes: seconds taken from every bank."""
    for seat in Seat.objects.filter(table=table):
        seat.time_bank = max(seat.time_bank - seconds, 0)
        seat.save(update_fields=["time_bank"])


@pytest.fixture
def refilling(players, make_table):
    table = make_table(
        name="Refill",
        time_bank_seconds=30,
        time_bank_refill_seconds=5,
        time_bank_refill_hands=3,
    )
    alice, bob, _ = players
    seat_take(table=table, player=alice, buy_in=200, seat_number=0)
    seat_take(table=table, player=bob, buy_in=200, seat_number=1)
    return table


def test_the_bank_refills_after_every_n_hands_and_not_before(refilling, play):
    spend(refilling, 20)
    for _ in range(2):
        hand_start(table=refilling)
        play.play_out(refilling)
    assert banks(refilling) == [10, 10]  # two hands: not yet
    hand_start(table=refilling)
    play.play_out(refilling)
    assert banks(refilling) == [15, 15]  # the third hand ended: +5
    for _ in range(3):
        hand_start(table=refilling)
        play.play_out(refilling)
    assert banks(refilling) == [20, 20]


def test_the_refill_stops_at_the_banks_size(refilling, play):
    spend(refilling, 3)
    for _ in range(3):
        hand_start(table=refilling)
        play.play_out(refilling)
    assert banks(refilling) == [30, 30]  # 27 + 5, capped at 30


def test_a_bank_above_a_smaller_size_is_left_as_it_is(refilling):
    refilling.time_bank_seconds = 20  # the host made the bank smaller
    assert time_bank_refill(refilling, 5) == 0
    assert banks(refilling) == [30, 30]


def test_no_refill_unless_the_host_sets_one(players, make_table, play):
    table = make_table(name="No refill", time_bank_seconds=30)
    alice, bob, _ = players
    seat_take(table=table, player=alice, buy_in=200)
    seat_take(table=table, player=bob, buy_in=200)
    spend(table, 10)
    for _ in range(10):
        hand_start(table=table)
        play.play_out(table)
    assert banks(table) == [20, 20]


def test_a_refill_needs_its_number_of_hands(make_table):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as refused:
        make_table(name="Bad", time_bank_refill_seconds=5, time_bank_refill_hands=0)
    assert "time_bank_refill_hands" in refused.value.message_dict


def test_a_tournament_refills_the_banks_at_each_new_level():
    organiser = tournament_player("organiser")
    levels = [{"small_blind": 10 * 2**n, "big_blind": 20 * 2**n, "hands": 2} for n in range(4)]
    tournament = tournament_create(
        organiser=organiser,
        name="Banked",
        seats_per_table=3,
        starting_stack=10_000,
        levels=levels,
        bot_entrants=3,
        time_bank_refill_seconds=10,
    )
    tournament_start(tournament=tournament, by=organiser, rng=random.Random(2))
    (table_id,) = open_tables(tournament)
    assert banks(table_id) == [TOURNAMENT_TIME_BANK] * 3
    spend(table_id, 25)
    now = timezone.now() + timedelta(hours=1)
    rng = random.Random(0)
    for _ in range(2):  # level 1's two hands: no refill
        assert play_hand(table_id, now, rng, policy=fold_or_check)
    assert banks(table_id) == [5, 5, 5]
    assert play_hand(table_id, now, rng, policy=fold_or_check)  # level 2 begins: +10
    assert banks(table_id) == [15, 15, 15]
    assert play_hand(table_id, now, rng, policy=fold_or_check)  # still level 2
    assert play_hand(table_id, now, rng, policy=fold_or_check)  # level 3: +10, up to 30
    assert banks(table_id) == [25, 25, 25]


def test_each_seat_shows_its_time_bank(refilling, play, players):
    spend(refilling, 12)
    plates = [panel.plate for panel in play.screen_of(refilling, None).seats.seats if panel.plate]
    assert [plate.time_bank for plate in plates] == [18, 18]
    no_bank = refilling
    no_bank.time_bank_seconds = 0
    no_bank.save(update_fields=["time_bank_seconds"])
    plates = [panel.plate for panel in play.screen_of(no_bank, None).seats.seats if panel.plate]
    assert [plate.time_bank for plate in plates] == [None, None]
