import random

import pytest

from engine.bots import RandomBot
from engine.errors import PokerError
from engine.table import BlindLevel, BlindSchedule, Table, next_button


def test_button_moves_to_the_next_seated_player_each_hand():
    assert next_button([1, 4, 7], None) == 1
    assert next_button([1, 4, 7], 1) == 4
    assert next_button([1, 4, 7], 7) == 1
    assert next_button([1, 7], 4) == 7  # the player on seat 4 left


def test_sitting_out_players_are_dealt_out_and_the_button_skips_them():
    table = Table(6)
    for seat in (0, 2, 4):
        table.join(seat, f"p{seat}", 100)
    table.sit_out(2)
    hand = table.start_hand(list(range(52)))
    assert hand.players == ("p0", "p4") and table.button == 0


def test_busted_players_leave_and_blinds_rise_on_schedule():
    schedule = BlindSchedule([BlindLevel(1, 2), BlindLevel(5, 10)], hands_per_level=3)
    table = Table(6, schedule=schedule, rng=random.Random(5))
    for seat in range(4):
        table.join(seat, f"p{seat}", 40)
    bots = {seat: RandomBot(random.Random(seat)) for seat in range(4)}
    hands = table.play(bots, 200)
    assert table.total_chips() == 160
    assert hands[3].config.big_blind == 10 and hands[0].config.big_blind == 2
    assert len(table.seats_in_play()) == 1 and len(table.busted) == 3


def test_a_seat_cannot_be_taken_twice():
    table = Table(2)
    table.join(0, "ann", 10)
    with pytest.raises(PokerError, match="taken"):
        table.join(0, "bob", 10)
