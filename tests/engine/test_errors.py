"""Every illegal move names its rule twice: in words for people, as a stable ``code`` for
programs (the play API and the socket answer with it)."""

import pytest

from engine.errors import IllegalAction
from engine.hand import HandConfig
from tests.engine.test_hand_rules import hand


def refused(action) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        action()
    return caught.value


def test_each_rule_has_its_code():
    h = hand([100, 100, 100])  # button 0: seat 1 posts 1, seat 2 posts 2, seat 0 to act
    assert refused(lambda: h.check()).code == "check_facing_bet"
    assert refused(lambda: h.bet_or_raise_to(3)).code == "below_min_raise"
    assert refused(lambda: h.bet_or_raise_to(2)).code == "below_min_raise"
    assert refused(lambda: h.bet_or_raise_to(101)).code == "above_stack"
    assert refused(lambda: h.bet_or_raise_to(2.5)).code == "invalid_amount"
    assert refused(lambda: h.fold(seat=2)).code == "not_your_turn"
    h.call()
    h.call()
    assert refused(lambda: h.fold()).code == "fold_when_free"  # the big blind's option
    assert refused(lambda: h.call()).code == "nothing_to_call"


def test_raising_rules_that_block_any_raise_have_codes():
    short = hand([100, 3])  # heads-up: the button (0) posts 1, seat 1 posts 2 of its 3
    short.bet_or_raise_to(10)
    assert refused(lambda: short.bet_or_raise_to(20)).code == "stack_covers_call"
    covered = hand([10, 100, 100])  # the button (0) acts first and goes all-in for 10
    covered.all_in()
    covered.fold()  # the small blind: the big blind alone could raise, and nobody could call
    assert refused(lambda: covered.bet_or_raise_to(10)).code == "nobody_to_raise"


def test_pot_limit_maximum_and_a_finished_hand_have_codes():
    h = hand([100, 100], config=HandConfig(betting="pot-limit"))
    assert refused(lambda: h.bet_or_raise_to(50)).code == "above_max_raise"
    h.fold()
    assert refused(lambda: h.check()).code == "hand_over"


def test_an_error_without_a_named_rule_is_illegal_action():
    assert IllegalAction("something else").code == "illegal_action"


def test_the_fixed_limit_cap_and_a_short_all_in_that_does_not_reopen_have_codes():
    capped = hand([100, 100, 100], config=HandConfig(betting="fixed-limit"))
    for _ in range(3):  # the big blind is the bet: three raises reach the cap
        capped.bet_or_raise_to(capped.legal.min_raise_to)
    assert refused(lambda: capped.bet_or_raise_to(10)).code == "raise_cap_reached"
    short = hand([100, 100, 5])  # the big blind has 5 chips
    short.bet_or_raise_to(4)
    short.call()
    short.all_in()  # to 5: a raise of 1, less than a full raise
    assert refused(lambda: short.bet_or_raise_to(10)).code == "betting_not_reopened"
