"""Bomb pots, one test per rule: everyone antes the agreed amount, no blinds, and the flop
comes with no preflop betting; PHH writes it as antes with no blinds."""

import pytest

from engine import phh
from engine.errors import PokerError
from engine.hand import Hand, HandConfig
from engine.types import EventKind
from tests.engine.test_hand_rules import hand

BOMB = HandConfig(small_blind=1, big_blind=2, bomb_pot=5)


def test_everyone_antes_the_bomb_and_the_flop_comes_with_no_preflop_betting():
    h = hand([100] * 4, button=0, config=BOMB)
    assert h.committed == (5, 5, 5, 5)
    assert h.street == "flop" and len(h.board) == 3
    kinds = {e.kind for e in h.events}
    assert EventKind.SMALL_BLIND not in kinds and EventKind.BIG_BLIND not in kinds
    assert not h.actions  # nobody was asked anything before the flop
    assert h.pots[0].amount == 20


def test_bomb_pot_betting_starts_left_of_the_button_with_a_big_blind_minimum():
    h = hand([100] * 4, button=2, config=BOMB)
    assert h.actor == 3
    assert h.legal.check and h.legal.min_raise_to == 2


def test_bomb_pot_heads_up_the_non_button_acts_first():
    h = hand([100, 100], button=0, config=BOMB)
    assert h.street == "flop" and h.actor == 1


def test_a_short_stack_antes_all_it_has_and_is_all_in():
    h = hand([3, 100, 100], config=BOMB)
    assert h.committed == (3, 5, 5) and h.all_in_seats == (True, False, False)
    while not h.is_over:
        h.check()
    assert sum(h.stacks) == 203
    assert h.result.awards[0].amount == 9  # the main pot: 3 from each


def test_everyone_all_in_on_the_bomb_runs_the_board_out():
    h = hand([5, 5, 5], config=BOMB)
    assert h.is_over and len(h.board) == 5 and sum(h.stacks) == 15


def test_bomb_pot_rules_refuse_straddles_and_stud():
    with pytest.raises(PokerError, match="a bomb pot has no preflop betting"):
        HandConfig(bomb_pot=5, straddle=4)
    with pytest.raises(PokerError, match="stud has no bomb pots"):
        HandConfig(
            game="stud",
            betting="fixed-limit",
            small_blind=0,
            big_blind=0,
            bring_in=1,
            small_bet=2,
            bomb_pot=5,
        )
    with pytest.raises(PokerError, match="bomb_pot must be a whole number"):
        HandConfig(bomb_pot=-1)


def test_a_bomb_pot_is_written_to_phh_as_antes_without_blinds_and_read_back():
    h = Hand(BOMB, [100, 80, 60], 0, range(52))
    h.bet_or_raise_to(10)
    while not h.is_over:
        h.call() if h.legal.call else h.check()
    history = phh.loads(phh.dumps(h))
    assert history.antes == [5, 5, 5] and history.blinds_or_straddles == [0, 0, 0]
    config = history.config()
    assert config.bomb_pot == 5 and config.big_blind == 2
    assert list(history.replay().stacks) == history.finishing_stacks
