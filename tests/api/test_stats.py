"""Each statistic against hands built by hand, with the expected figures written down.

Three players, button seat 0 (first to act preflop), small blind seat 1, big blind seat 2,
blinds 1/2, stacks 200 unless said otherwise.
"""

from __future__ import annotations

import pytest

from tables.stats.figures import SeatFigures, Totals, seat_figures
from tests.api.helpers import engine_hand


def limp_and_blind_check():
    """Seat 0 limps, the small blind completes, the big blind checks; seat 0 bets the flop,
    seat 1 folds, seat 2 calls; checked down; seat 0's aces beat seat 2's kings."""
    return engine_hand(
        ["AsAh", "7c2d", "KsKh"],
        "9c5d3h8sJd",
        [
            "call",
            "call",
            "check",  # preflop: limp, complete, BB checks
            "check",
            "check",
            "raise 4",
            "fold",
            "call",  # flop
            "check",
            "check",
            "check",
            "check",
        ],  # turn, river
    )


def three_bet_and_uncalled_bet():
    """Seat 0 raises to 6, seat 1 calls, seat 2 re-raises to 20, seat 0 calls, seat 1 folds;
    on the flop seat 2 bets 30 and seat 0 folds: the 30 is uncalled and goes back."""
    return engine_hand(
        ["AsAh", "7c2d", "KsKh"],
        "9c5d3h8sJd",
        ["raise 6", "call", "raise 20", "call", "fold", "raise 30", "fold"],
    )


def short_all_in_split_pot():
    """Seat 2 has 10 chips. Seat 0 raises to 8, seat 1 folds, seat 2 moves all-in for 10 (a
    short raise), seat 0 calls. Broadway on the board: the pot of 21 is split, the odd chip to
    seat 2 (the first winner left of the button)."""
    return engine_hand(
        ["2c3d", "7c2d", "4h5s"],
        "TcJdQhKsAc",
        ["raise 8", "fold", "all_in", "call"],
        stacks=[200, 200, 10],
    )


def test_limp_and_blind_check_figures():
    s0, s1, s2 = seat_figures(limp_and_blind_check())
    assert s0 == SeatFigures(
        seat=0,
        big_blind=2,
        contributed=6,
        collected=14,
        net=8,
        vpip=True,
        pfr=False,
        three_bet_chance=False,
        three_bet=False,
        saw_flop=True,
        showdown=True,
        won_at_showdown=True,
        postflop_aggressive=1,
        postflop_calls=0,
    )
    # completing the small blind is a voluntary call; checking the big blind is not
    assert s1.vpip and not s1.pfr and s1.saw_flop and not s1.showdown and s1.net == -2
    assert not s2.vpip and not s2.pfr and s2.saw_flop
    assert s2.showdown and not s2.won_at_showdown and s2.postflop_calls == 1 and s2.net == -6


def test_three_bet_spot_and_uncalled_bet():
    s0, s1, s2 = seat_figures(three_bet_and_uncalled_bet())
    # seat 1 faced exactly one raise and called: in the spot, no 3-bet
    assert (s1.three_bet_chance, s1.three_bet, s1.vpip, s1.pfr) == (True, False, True, False)
    # seat 2 faced exactly one raise and re-raised: a 3-bet (and a PFR)
    assert (s2.three_bet_chance, s2.three_bet, s2.vpip, s2.pfr) == (True, True, True, True)
    # seat 0 opened: facing the 3-bet (two raises) is not a 3-bet spot
    assert (s0.three_bet_chance, s0.pfr) == (False, True)
    # the uncalled 30 is neither contributed nor collected
    assert (s2.contributed, s2.collected, s2.net) == (20, 46, 26)
    assert (s0.net, s1.net) == (-20, -6)
    assert s2.postflop_aggressive == 1 and s0.postflop_calls == 0
    assert not any(f.showdown for f in (s0, s1, s2))
    assert (s0.saw_flop, s1.saw_flop, s2.saw_flop) == (True, False, True)


def test_short_all_in_and_split_pot():
    s0, s1, s2 = seat_figures(short_all_in_split_pot())
    # a short all-in raise is a raise: VPIP, PFR and (facing one raise) a 3-bet
    assert (s2.vpip, s2.pfr, s2.three_bet_chance, s2.three_bet) == (True, True, True, True)
    assert (s1.three_bet_chance, s1.three_bet, s1.vpip) == (True, False, False)
    assert (s0.three_bet_chance, s0.vpip, s0.pfr) == (False, True, True)
    # split pot: both won chips at showdown; 21 split 10/11, the odd chip to seat 2
    assert (s0.collected, s0.net, s0.showdown, s0.won_at_showdown) == (10, 0, True, True)
    assert (s2.collected, s2.net, s2.showdown, s2.won_at_showdown) == (11, 1, True, True)
    assert s1.net == -1


def test_totals_over_three_hands_for_seat_zero():
    hands = [limp_and_blind_check(), three_bet_and_uncalled_bet(), short_all_in_split_pot()]
    stats = Totals.of(seat_figures(h)[0] for h in hands).stats()
    assert stats["hands"] == 3
    assert stats["vpip"] == 100.0
    assert stats["pfr"] == pytest.approx(66.67)
    assert stats["three_bet"] is None  # never in the spot
    assert stats["aggression_factor"] is None  # one postflop bet, no postflop call
    assert stats["wtsd"] == pytest.approx(66.67)  # saw 3 flops, 2 showdowns
    assert stats["wsd"] == 100.0
    assert stats["net_won"] == 8 - 20 + 0
    assert stats["bb_per_100"] == pytest.approx(100 * (4 - 10 + 0) / 3, abs=0.01)
    assert stats["biggest_pot_won"] == 14


def test_totals_for_seat_two_with_a_three_bet_and_aggression():
    hands = [limp_and_blind_check(), three_bet_and_uncalled_bet(), short_all_in_split_pot()]
    stats = Totals.of(seat_figures(h)[2] for h in hands).stats()
    assert stats["vpip"] == pytest.approx(66.67)  # not for the big-blind check
    assert stats["three_bet"] == 100.0  # 2 spots, 2 re-raises
    assert stats["aggression_factor"] == 1.0  # 1 postflop bet, 1 postflop call
    assert stats["wtsd"] == pytest.approx(66.67)
    assert stats["wsd"] == 50.0
    assert stats["net_won"] == -6 + 26 + 1
    assert stats["biggest_pot_won"] == 46


def test_unfinished_hand_has_no_figures():
    running = engine_hand(["AsAh", "7c2d", "KsKh"], "9c5d3h8sJd", ["call"])
    with pytest.raises(ValueError, match="finished"):
        seat_figures(running)


def test_empty_totals_have_no_ratios():
    stats = Totals().stats()
    assert stats["hands"] == 0
    assert all(stats[k] is None for k in ("vpip", "pfr", "three_bet", "wtsd", "wsd", "bb_per_100"))
