"""The draw and short-deck evaluators' speed against pokerkit's, on the same random hands.

    .venv/bin/python bench/bench_variant_evaluators.py [--hands 20000] [--seed 1]

Deuce-to-seven (five cards, pokerkit's ``StandardLowHand``), badugi (four cards,
``BadugiHand.from_game``) and short-deck hold'em (seven cards of the 36, best five,
``ShortDeckHoldemHand.from_game``). Cards are converted to pokerkit's before timing. Figures
are evaluations per second, best of three runs; the ratio is the engine's speed over
pokerkit's. Needs pokerkit (the dev extra).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pokerkit import BadugiHand, Card, ShortDeckHoldemHand, StandardLowHand  # noqa: E402

from engine.cards import format_cards  # noqa: E402
from engine.evaluate.lowball import evaluate_badugi, evaluate_deuce_seven  # noqa: E402
from engine.evaluate.shortdeck import evaluate_short_deck  # noqa: E402


def rate(fn: Callable[[Sequence[object]], object], hands: Sequence[Sequence[object]]) -> float:
    """Evaluations per second, best of three runs."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for hand in hands:
            fn(hand)
        best = min(best, time.perf_counter() - start)
    return len(hands) / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    short_deck = [c for c in range(52) if c >> 2 >= 4]
    cases = [
        ("deuce-to-seven (5 cards)", range(52), 5, evaluate_deuce_seven, StandardLowHand),
        ("badugi (4 cards)", range(52), 4, evaluate_badugi, BadugiHand.from_game),
        ("short deck (7 cards)", short_deck, 7, evaluate_short_deck, ShortDeckHoldemHand.from_game),
    ]
    print(f"{'evaluator':<26}{'engine/s':>12}{'pokerkit/s':>12}{'ratio':>8}")
    for name, deck, size, ours, theirs in cases:
        hands = [rng.sample(list(deck), size) for _ in range(args.hands)]
        theirs_hands = [tuple(Card.parse(format_cards(h))) for h in hands[: args.hands // 10]]
        mine = rate(ours, hands)
        peer = rate(theirs, theirs_hands)
        print(f"{name:<26}{mine:>12,.0f}{peer:>12,.0f}{mine / peer:>7.0f}x")


if __name__ == "__main__":
    main()
