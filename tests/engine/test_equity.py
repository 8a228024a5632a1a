"""engine/equity.py: exact figures checked by brute force, Monte Carlo with its error."""

from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

from engine import evaluate, evaluate_omaha
from engine.cards import ALL_CARDS, parse_cards
from engine.equity import equity
from engine.errors import CardError
from engine.evaluate.batch import combinations_array, evaluate_batch


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


def every_board(hands, board=(), dead=()):
    """(boards, wins, ties, shares) per hand by evaluating every completed board with
    ``evaluate_batch``, one board at a time as rows; shares summed as exact fractions."""
    used = {c for hand in hands for c in hand} | set(board) | set(dead)
    stub = np.array([c for c in ALL_CARDS if c not in used], dtype=np.int8)
    rest = stub[combinations_array(len(stub), 5 - len(board))]
    boards = np.hstack([np.tile(np.array(board, dtype=np.int8), (len(rest), 1)), rest])
    values = np.vstack(
        [
            evaluate_batch(np.hstack([np.tile(np.int8(hand), (len(boards), 1)), boards]))
            for hand in hands
        ]
    )
    is_best = values == values.max(axis=0)
    winners = is_best.sum(axis=0)
    wins = tuple(int(n) for n in (is_best & (winners == 1)).sum(axis=1))
    ties = tuple(int(n) for n in (is_best & (winners > 1)).sum(axis=1))
    shares = tuple(
        float(sum(Fraction(int((row & (winners == k)).sum()), k) for k in range(1, len(hands) + 1)))
        for row in is_best
    )
    return len(boards), wins, ties, shares


TWO_SUITS = [c for c in ALL_CARDS if c & 3 >= 2]  # suited hands, flush-heavy boards
FIVE_RANKS = [c for c in ALL_CARDS if c >> 2 in (0, 1, 2, 3, 12)]  # shared ranks, wheels


@st.composite
def deal(draw, board_sizes, least_left=52, most_left=52):
    """(hands, board, dead): 2 to 6 two-card hands and the board from one of a few decks
    (all cards, two suits, five ranks), then dead cards from the rest of the full deck until
    ``least_left`` to ``most_left`` cards are left to deal the board from (all of the rest
    when fewer)."""
    players = draw(st.integers(2, 6))
    board_size = draw(st.sampled_from(board_sizes))
    deck = draw(st.sampled_from([ALL_CARDS, TWO_SUITS, FIVE_RANKS]))
    needed = 2 * players + board_size
    if len(deck) < needed:
        deck = ALL_CARDS
    cards = draw(st.permutations(deck))[:needed]
    rest = draw(st.permutations([c for c in ALL_CARDS if c not in cards]))
    left = draw(st.integers(min(least_left, len(rest)), min(most_left, len(rest))))
    hands = [cards[2 * i : 2 * i + 2] for i in range(players)]
    return hands, cards[2 * players :], rest[left:]


def assert_same_as_every_board(hands, board, dead):
    result = equity(hands, board, dead)
    boards, wins, ties, shares = every_board(hands, board, dead)
    assert result.exact and (result.boards, result.wins, result.ties) == (boards, wins, ties)
    if not board or len(hands) == 2:
        assert result.shares == shares  # summed exactly, so rounded once
    else:  # the flop and turn sum their boards' float shares
        assert result.shares == pytest.approx(shares, rel=1e-12)


@settings(max_examples=150, deadline=None)
@given(deal(board_sizes=[0], least_left=5, most_left=28))
def test_preflop_counts_match_every_board_on_short_stubs(dealt):
    """Preflop is counted by rank class (engine.evaluate.boards): dead cards shrink the stub
    so that many deals are cheap, and empty a suit or a rank now and then."""
    assert_same_as_every_board(*dealt)


@settings(max_examples=3, deadline=None)
@given(deal(board_sizes=[0]))
@example(([parse_cards(h) for h in ("AhKh", "QsJs", "Td9d", "8c7c", "6h6s", "5d5c")], [], []))
@example(([parse_cards(h) for h in ("AhKd", "AsKc", "AdKh")], [], []))
@example(([parse_cards(h) for h in ("2h3h", "4h5h")], [], []))
def test_preflop_counts_match_every_board(dealt):
    """The full stub: each suit suited in some hand; hands of the same ranks; one suit only."""
    assert_same_as_every_board(*dealt)


@settings(max_examples=60, deadline=None)
@given(deal(board_sizes=[3, 4], least_left=5))
def test_flop_and_turn_counts_match_every_board(dealt):
    assert_same_as_every_board(*dealt)


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
