"""Eight-or-better lows, checked against a brute force over every five cards."""

import random
import subprocess
import sys
from itertools import combinations

import pytest

from engine import CardError, parse_cards
from engine.evaluate import evaluate_low, evaluate_low8, evaluate_omaha_low8


def low8_by_brute_force(cards):
    best = None
    for five in combinations(cards, 5):
        ranks = [((c >> 2) + 1) % 13 for c in five]  # ace 0 .. eight 7
        if len(set(ranks)) == 5 and max(ranks) <= 7:
            value = evaluate_low(list(five))
            best = value if best is None or value > best else best
    return best


def test_a_low_needs_five_different_ranks_of_eight_or_lower():
    assert evaluate_low8(parse_cards("As 2d 3c 4h 9s Kd Kc")) is None
    assert evaluate_low8(parse_cards("As 2d 3c 3h 4s 9d 9c")) is None
    assert evaluate_low8(parse_cards("8s 7d 6c 5h 4s")).description == "8-7-6-5-4 low"


def test_straights_and_flushes_do_not_spoil_a_low():
    wheel = evaluate_low8(parse_cards("As 2s 3s 4s 5s"))
    assert wheel.description == "5-4-3-2-A low"
    assert wheel > evaluate_low8(parse_cards("As 2d 3c 4h 6s"))


def test_omaha_low_uses_exactly_two_hole_cards():
    board = parse_cards("2c 3d 4h Kd Qs")
    assert evaluate_omaha_low8(parse_cards("As 5s Kc Ks"), board).description == "5-4-3-2-A low"
    # one low hole card only: no low, though the board has three low cards
    assert evaluate_omaha_low8(parse_cards("As Ks Kc Qh"), board) is None
    # a paired low hole card does not count twice
    assert evaluate_omaha_low8(parse_cards("As Ad Kc Qh"), board) is None


def test_low8_matches_brute_force_on_random_hands():
    rng = random.Random(8)
    for _ in range(3000):
        cards = rng.sample(range(52), rng.choice((5, 6, 7)))
        assert evaluate_low8(cards) == low8_by_brute_force(cards)


def test_omaha_low8_matches_brute_force_on_random_hands():
    rng = random.Random(9)
    for _ in range(1500):
        cards = rng.sample(range(52), 9)
        hole, board = cards[:4], cards[4:]
        expected = None
        for pair in combinations(hole, 2):
            for three in combinations(board, 3):
                value = low8_by_brute_force(list(pair) + list(three))
                if value is not None and (expected is None or value > expected):
                    expected = value
        assert evaluate_omaha_low8(hole, board) == expected


def test_low8_refuses_wrong_counts():
    with pytest.raises(CardError):
        evaluate_low8([0, 1, 2, 3])
    with pytest.raises(CardError):
        evaluate_omaha_low8([0], [4, 5, 6])


def test_the_low_tables_are_made_on_first_use_not_at_import():
    """Importing the engine builds no low table (every process imports it; few rank a low),
    and a fresh process's first low, of either kind, is ranked right."""
    code = (
        "from engine.evaluate import hilo, single\n"
        "from engine import parse_cards as cards\n"
        "assert hilo._LOW8 == () and single._LOW is None, 'built at import'\n"
        "print(hilo.evaluate_omaha_low8(cards('As 2d Kc Kh'), cards('3c 4h 8s Qd Jc')))\n"
        "print(hilo.evaluate_low8(cards('As 2d 3c 8h 7s Kd Qc')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["8-4-3-2-A low", "8-7-3-2-A low"]
