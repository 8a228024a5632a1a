"""Straddles, one test per rule: under the gun and re-straddles (each double the previous),
the button straddle, heads-up, a short stack straddling all in; PHH; and pokerkit agreeing."""

import pytest

from engine import phh
from engine.errors import PokerError
from engine.hand import Hand, HandConfig
from engine.randomhands import random_config
from tests.engine.test_hand_differential import run_differential
from tests.engine.test_hand_rules import hand


def straddled(count, **kw):
    return HandConfig(small_blind=1, big_blind=2, straddle=4, straddles=count, **kw)


def test_an_old_config_with_one_straddle_loads_as_one_straddle():
    config = HandConfig.from_dict(
        {
            "game": "holdem",
            "betting": "no-limit",
            "small_blind": 1,
            "big_blind": 2,
            "ante": 0,
            "ante_mode": "per-player",
            "straddle": 4,
        }
    )
    assert config.straddles == 1 and config.straddle_amounts == (4,)
    assert not config.button_straddle
    assert HandConfig.from_dict(config.to_dict()) == config


@pytest.mark.parametrize(
    ("count", "posted", "first"),
    [
        (1, (0, 1, 2, 4, 0, 0, 0), 4),  # seat 3 straddles, seat 4 acts first
        (2, (0, 1, 2, 4, 8, 0, 0), 5),
        (3, (0, 1, 2, 4, 8, 16, 0), 6),
    ],
)
def test_each_straddle_doubles_the_previous_and_the_seat_after_the_last_acts_first(
    count, posted, first
):
    h = hand([200] * 7, config=straddled(count))
    assert h.committed == posted
    assert h.straddle_seats == tuple(range(3, 3 + count))
    assert h.actor == first
    top = max(posted)
    assert h.legal.call == top and h.legal.min_raise_to == 2 * top


def test_the_last_straddle_has_the_option_and_earlier_straddles_must_call_it():
    h = hand([200] * 6, config=straddled(2))  # seats 3 (4) and 4 (8)
    assert h.actor == 5
    for _ in range(4):  # seat 5, the button, the small blind, the big blind call 8
        h.call()
    assert h.actor == 3 and not h.legal.check and h.legal.call == 4
    h.call()
    assert h.actor == 4 and h.legal.check  # the last straddle's option
    h.check()
    assert h.street == "flop"


def test_button_straddle_small_blind_acts_first_and_the_button_last():
    h = hand([200] * 5, button=0, config=HandConfig(straddle=4, button_straddle=True))
    assert h.committed == (4, 1, 2, 0, 0) and h.straddle_seats == (0,)
    order = []
    while h.street == "preflop":
        order.append(h.actor)
        h.call() if h.legal.call else h.check()
    assert order == [1, 2, 3, 4, 0]


def test_no_straddle_heads_up_and_at_most_one_per_seat_after_the_blinds():
    with pytest.raises(PokerError, match="a straddle needs three or more players"):
        hand([100, 100], config=straddled(1))
    with pytest.raises(PokerError, match="a straddle needs three"):
        hand([100, 100], config=HandConfig(straddle=4, button_straddle=True))
    with pytest.raises(PokerError, match="3 straddles need 5 or more players"):
        hand([100] * 4, config=straddled(3))
    with pytest.raises(PokerError, match="the button straddle is the only straddle"):
        straddled(2, button_straddle=True)
    with pytest.raises(PokerError, match="straddles need the first straddle's amount"):
        HandConfig(straddles=2)
    with pytest.raises(PokerError, match="at most 10 straddles"):
        straddled(11)


def test_a_short_stack_straddles_all_in_and_the_next_straddle_doubles_the_full_amount():
    h = hand([200, 200, 200, 3, 200, 200], config=straddled(2))
    assert h.committed == (0, 1, 2, 3, 8, 0)
    assert h.all_in_seats[3]
    assert h.actor == 5 and h.legal.call == 8 and h.legal.min_raise_to == 16


def test_a_short_straddle_alone_is_a_short_raise_the_others_call():
    h = hand([200, 200, 200, 3, 200], config=straddled(1))
    assert h.committed == (0, 1, 2, 3, 0) and h.all_in_seats[3]
    assert h.actor == 4 and h.legal.call == 3
    assert h.legal.min_raise_to == 5  # a full raise over 3: the big blind's 2 more


@pytest.mark.parametrize(
    ("config", "n", "blinds"),
    [
        (straddled(3), 6, [1, 2, 4, 8, 16, 0]),
        (HandConfig(straddle=4, button_straddle=True), 5, [1, 2, 0, 0, 4]),
    ],
)
def test_straddles_are_written_to_and_read_from_phh_blinds_or_straddles(config, n, blinds):
    h = Hand(config, [300] * n, 0, range(52))
    while not h.is_over:
        h.call() if h.legal.call else h.check()
    history = phh.loads(phh.dumps(h))
    assert history.blinds_or_straddles == blinds
    assert history.config() == config
    assert list(history.replay().stacks) == history.finishing_stacks


def test_phh_straddles_that_do_not_double_are_refused():
    text = (
        "variant = 'NT'\nstarting_stacks = [9, 9, 9, 9, 9]\n"
        "blinds_or_straddles = [1, 2, 4, 6, 0]\nmin_bet = 2\nactions = []\n"
    )
    with pytest.raises(PokerError, match="each double the previous"):
        phh.loads(text).config()


def several_straddles(rng, players):
    config = random_config(rng, players, ("no-limit",), ("holdem",), antes=False)
    if players < 3:
        return config
    if rng.random() < 0.3:
        kind = {"button_straddle": True, "straddles": 1}
    else:
        kind = {"straddles": rng.randint(1, min(3, players - 2))}
    return HandConfig(
        small_blind=config.small_blind,
        big_blind=config.big_blind,
        straddle=2 * config.big_blind,
        **kind,
    )


@pytest.mark.slow
def test_straddled_hands_match_pokerkit():
    outcome = run_differential(
        20, 300, ("no-limit",), ("holdem",), make_config=several_straddles, min_players=3
    )
    assert outcome["same"] >= 250, outcome


def test_a_button_straddle_all_in_below_the_big_blind_moves_nobody():
    h = hand([2, 200, 200, 200, 200], button=0, config=HandConfig(straddle=4, button_straddle=True))
    assert h.committed == (2, 1, 2, 0, 0) and h.all_in_seats[0]
    assert h.actor == 3  # under the gun, as without a straddle
