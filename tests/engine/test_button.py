import pytest

from engine.button import next_button
from engine.errors import PokerError


def test_button_moves_to_the_next_seated_player_each_hand():
    assert next_button([1, 4, 7], None) == 1
    assert next_button([1, 4, 7], 1) == 4
    assert next_button([1, 4, 7], 7) == 1
    assert next_button([1, 7], 4) == 7  # the player on seat 4 left
    assert next_button([7, 1, 4], 4) == 7  # in any order


def test_no_seat_in_play_has_no_button():
    with pytest.raises(PokerError, match="no seat in play"):
        next_button([], 3)
