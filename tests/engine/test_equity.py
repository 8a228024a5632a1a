"""engine/equity.py: exact figures checked by brute force, Monte Carlo with its error."""

from itertools import combinations

import pytest

from engine import evaluate, evaluate_omaha
from engine.cards import ALL_CARDS, parse_cards
from engine.equity import equity
from engine.errors import CardError


def brute_force(hands, board=(), dead=(), omaha=False):
    """(wins, ties) per hand by looping over every completion with the single evaluator."""
    used = {c for hand in hands for c in hand} | set(board) | set(dead)
    stub = [c for c in ALL_CARDS if c not in used]
    wins, ties = [0] * len(hands), [0] * len(hands)
    for rest in combinations(stub, 5 - len(board)):
        full = list(board) + list(rest)
        values = [evaluate_omaha(h, full) if omaha else evaluate(list(h) + full) for h in hands]
        best = max(values)
        top = [i for i, v in enumerate(values) if v == best]
        for i in top:
            (wins if len(top) == 1 else ties)[i] += 1
    return tuple(wins), tuple(ties)


def test_aces_against_kings_preflop_exact():
    """AsAh v KsKd: 81.95% / 18.05%. Counts cross-checked by a full enumeration of the
    1,712,304 boards with phevaluator."""
    result = equity(["AsAh", "KsKd"])
    assert result.exact and result.boards == 1712304
    assert result.wins == (1399204, 305177) and result.ties == (7923, 7923)
    assert round(result.equity[0], 4) == 0.8195 and round(result.equity[1], 4) == 0.1805


def test_aces_against_kings_offsuit_preflop_exact():
    result = equity(["AhAs", "KcKd"])  # no shared suit: kings lose some flushes
    assert result.wins == (1388072, 317694) and result.ties == (6538, 6538)


@pytest.mark.parametrize(
    "hands, board, dead",
    [
        (["AhKh", "QsQd", "JcTc"], "2h3h4c", "5h"),
        (["AhKh", "QsQd"], "2h3h4c", ""),
        (["7c7d", "8s9s", "AcKc", "2h2d"], "7s8h2c9c", ""),
        (["AhAd", "AsAc"], "KhQhJh3s2d", ""),  # the board plays: split
    ],
)
def test_exact_matches_brute_force(hands, board, dead):
    hands_ = [parse_cards(h) for h in hands]
    result = equity(hands_, parse_cards(board), parse_cards(dead))
    assert result.exact
    assert (result.wins, result.ties) == brute_force(hands_, parse_cards(board), parse_cards(dead))
    assert sum(result.shares) == pytest.approx(result.boards)


def test_omaha_exact_on_the_flop_matches_brute_force():
    hands = [parse_cards("AhKhQdJd"), parse_cards("7c7s8c9d")]
    board = parse_cards("2h3h4c")
    result = equity(hands, board)
    assert result.exact and result.boards == 820
    assert (result.wins, result.ties) == brute_force(hands, board, omaha=True)


def test_monte_carlo_is_reproducible_and_within_its_error_of_the_exact_answer():
    exact = equity(["AhKh", "QsQd"], board="2h3h4c")
    estimate = equity(["AhKh", "QsQd"], board="2h3h4c", samples=50_000, rng=11)
    again = equity(["AhKh", "QsQd"], board="2h3h4c", samples=50_000, rng=11)
    assert not estimate.exact and estimate.boards == 50_000
    assert estimate == again
    for i in range(2):
        assert 0 < estimate.stderr[i] < 0.01
        assert abs(estimate.equity[i] - exact.equity[i]) < 4 * estimate.stderr[i]


def test_omaha_preflop_falls_back_to_monte_carlo():
    result = equity(["AhKhQdJd", "7c7s8c9d"], samples=None, rng=3)
    assert not result.exact and result.stderr[0] > 0
    assert 0.5 < result.equity[0] < 0.65


@pytest.mark.parametrize(
    "hands, board, dead",
    [
        (["AhKh"], "", ""),
        (["AhKh", "AhQd"], "", ""),
        (["AhKh", "QsQd"], "Qs2c3c", ""),
        (["AhKh", "QsQd"], "", "Kh"),
        (["AhKh", "QsQdJdTd"], "", ""),
        (["AhKh", "QsQd"], "2c3c4c5c6c7c", ""),
    ],
)
def test_bad_input_raises_card_error(hands, board, dead):
    with pytest.raises(CardError):
        equity(hands, board, dead)


def test_result_prints_a_table():
    text = str(equity(["AhKh", "QsQd"], board="2h3h4c5d"))
    assert "AhKh" in text and "exact, 44 boards" in text
