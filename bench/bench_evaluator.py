"""Evaluator and equity speed against the Python poker libraries, in one run.

    .venv/bin/python bench/bench_evaluator.py [--hands 200000] [--seed 1] [--five-and-lows]

Every library evaluates the same random 7-card hands (converted to its own card type
before timing). Figures are evaluations per second, best of three runs; ratios are against
this engine's single-call ``evaluate``. Slow libraries time a prefix of the same hands.
Then five-card hands and the lows (eight-or-better for hi-lo, ace-to-five for razz) against
the peers that have the same evaluator (treys, eval7 and phevaluator have no lows: pokerkit is
the peer there); the ratios there are the engine's speed over each peer's. Then exact heads-up
preflop equity (AsAh v KsKd, all 1,712,304 boards) against eval7.
Needs the ``bench`` extra (treys, eval7, phevaluator, pokerkit).
"""

from __future__ import annotations

import argparse
import sys
import time
from itertools import combinations
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.cards import format_cards  # noqa: E402
from engine.equity import equity  # noqa: E402
from engine.evaluate import (  # noqa: E402
    evaluate,
    evaluate_batch,
    evaluate_low,
    evaluate_low8,
    evaluate_omaha_low8,
)

TEXT = [format_cards([c]) for c in range(52)]


def best_of(runs, fn):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def rate(hands, call, runs=3):
    def loop():
        for hand in hands:
            call(hand)

    return len(hands) / best_of(runs, loop)


def interleaved_rates(candidates, rounds=7):
    """Evaluations per second of each ``(hands, call)``, timed one after another in each
    round; the best round of each."""
    best = [float("inf")] * len(candidates)
    for _ in range(rounds):
        for k, (hands, call) in enumerate(candidates):
            start = time.perf_counter()
            for hand in hands:
                call(hand)
            best[k] = min(best[k], time.perf_counter() - start)
    return [len(hands) / t for (hands, _), t in zip(candidates, best, strict=True)]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--five-and-lows",
        action="store_true",
        help="only the five-card and low evaluators (a quick run)",
    )
    args = parser.parse_args(argv)
    if args.five_and_lows:
        five_cards_and_lows(args.hands, np.random.default_rng(args.seed))
        return 0

    import eval7
    import pokerkit
    import treys
    from phevaluator import evaluate_cards

    rng = np.random.default_rng(args.seed)
    array = np.argsort(rng.random((args.hands, 52)), axis=1)[:, :7].astype(np.int8)
    hands = array.tolist()
    results: list[tuple[str, float, str]] = []

    ours = rate(hands, evaluate)
    results.append(("engine evaluate (pure Python, single call)", ours, ""))

    big = np.argsort(rng.random((1_000_000, 52)), axis=1)[:, :7].astype(np.int8)
    evaluate_batch(big[:10])  # build the dense table once, outside the timing
    batch = len(big) / best_of(3, lambda: evaluate_batch(big))
    results.append(("engine evaluate_batch (NumPy, 1M hands)", batch, ""))

    e7cards = [eval7.Card(t) for t in TEXT]
    e7hands = [[e7cards[c] for c in hand] for hand in hands]
    results.append(("eval7 evaluate (compiled)", rate(e7hands, eval7.evaluate), ""))

    results.append(
        ("phevaluator evaluate_cards (compiled)", rate(hands, lambda h: evaluate_cards(*h)), "")
    )

    t_cards = [treys.Card.new(t) for t in TEXT]
    t_eval = treys.Evaluator()
    t_hands = [
        ([t_cards[c] for c in hand[:5]], [t_cards[c] for c in hand[5:]]) for hand in hands[:20_000]
    ]
    results.append(
        (
            "treys Evaluator.evaluate (pure Python)",
            rate(t_hands, lambda h: t_eval.evaluate(h[0], h[1]), runs=1),
            "20,000 hands",
        )
    )

    pk_hands = [
        (
            pokerkit.Card.parse("".join(TEXT[c] for c in hand[:2])),
            pokerkit.Card.parse("".join(TEXT[c] for c in hand[2:])),
        )
        for hand in hands[:5_000]
    ]
    pk_hands = [(list(h), list(b)) for h, b in pk_hands]
    results.append(
        (
            "pokerkit StandardHighHand.from_game",
            rate(pk_hands, lambda h: pokerkit.StandardHighHand.from_game(h[0], h[1]), runs=1),
            "5,000 hands",
        )
    )

    print(f"7-card hand evaluation, {args.hands:,} random hands (seed {args.seed})")
    print(f"{'evaluator':<46} {'hands/s':>14} {'engine single-call is':>24}")
    for name, per_second, note in results:
        ratio = ours / per_second
        print(f"{name:<46} {per_second:>14,.0f} {ratio:>22.2f}x  {note}")
    treys_rate = results[4][1]
    eval7_rate = results[2][1]
    print(
        f"\nfloors: single-call vs treys {ours / treys_rate:.1f}x (>= 10), "
        f"vs eval7 {ours / eval7_rate:.2f}x (>= 0.6); batch {batch / 1e6:.1f}M hands/s (>= 10M)"
    )

    five_cards_and_lows(args.hands, rng)

    # --- exact heads-up preflop equity ---------------------------------------------------
    equity(["AsAh", "KsKd"])  # warm up tables
    ours_time = best_of(3, lambda: equity(["AsAh", "KsKd"]))
    result = equity(["AsAh", "KsKd"])

    hero = [eval7.Card("As"), eval7.Card("Ah")]
    villain = [eval7.Card("Ks"), eval7.Card("Kd")]
    stub = [card for card in e7cards if str(card) not in ("As", "Ah", "Ks", "Kd")]

    def eval7_enumerate():
        ev = eval7.evaluate
        wins = ties = 0
        for board in combinations(stub, 5):
            board = list(board)
            a, b = ev(hero + board), ev(villain + board)
            if a > b:
                wins += 1
            elif a == b:
                ties += 1
        return wins, ties

    start = time.perf_counter()
    e7_wins, e7_ties = eval7_enumerate()
    e7_time = time.perf_counter() - start
    e7_mc_time = best_of(
        1, lambda: eval7.py_hand_vs_range_monte_carlo(hero, eval7.HandRange("KsKd"), [], 1_712_304)
    )

    print("\nexact heads-up preflop equity, AsAh v KsKd, 1,712,304 boards")
    print(
        f"  engine equity (exact, NumPy)                 {ours_time:8.3f} s  "
        f"AsAh {100 * result.equity[0]:.3f}%  wins {result.wins[0]:,} ties {result.ties[0]:,}"
    )
    print(
        f"  eval7.evaluate over every board (loop)       {e7_time:8.3f} s  "
        f"wins {e7_wins:,} ties {e7_ties:,}  -> engine {e7_time / ours_time:.1f}x faster"
    )
    print(
        f"  eval7 py_hand_vs_range_monte_carlo, 1.71M    {e7_mc_time:8.3f} s  "
        f"(compiled, sampled; -> engine exact {e7_mc_time / ours_time:.2f}x)"
    )
    print("  (eval7.py_hand_vs_range_exact does not enumerate preflop boards: it returns 1.0)")
    return 0


def _no_low(evaluator):
    """pokerkit raises when no low qualifies; the engine returns None."""

    def call(hand):
        try:
            return evaluator.from_game(hand[0], hand[1])
        except ValueError:
            return None

    return call


def _report(title, ours_name, ours, peers):
    print(f"\n{title}")
    print(f"{'evaluator':<46} {'hands/s':>14} {'engine is':>24}")
    print(f"{ours_name:<46} {ours:>14,.0f}")
    for name, per_second, note in peers:
        print(f"{name:<46} {per_second:>14,.0f} {ours / per_second:>22.2f}x  {note}")


def five_cards_and_lows(count, rng):
    """Five-card high hands, eight-or-better lows and ace-to-five lows: the engine's single
    calls against each peer's own evaluator for the same thing, on the same random hands."""
    import eval7
    import pokerkit
    import treys
    from phevaluator import evaluate_cards

    def random_hands(size):
        return np.argsort(rng.random((count, 52)), axis=1)[:, :size].astype(np.int8).tolist()

    def pk(hands, hole, limit):
        return [
            (
                list(pokerkit.Card.parse("".join(TEXT[c] for c in hand[:hole]))),
                list(pokerkit.Card.parse("".join(TEXT[c] for c in hand[hole:]))),
            )
            for hand in hands[:limit]
        ]

    fives = random_hands(5)
    t_cards = [treys.Card.new(t) for t in TEXT]
    t_eval = treys.Evaluator()
    t_fives = [[t_cards[c] for c in hand] for hand in fives]
    e7cards = [eval7.Card(t) for t in TEXT]
    pk_fives = pk(fives, 2, 5_000)
    # Timed in turns, best of seven each: on a shared machine a burst of load then hits
    # every evaluator alike instead of one of them.
    ours, treys_five, treys_evaluate, e7, ph = interleaved_rates(
        [
            (fives, evaluate),
            (t_fives, t_eval._five),
            (t_fives, lambda h: t_eval.evaluate(h[:2], h[2:])),
            ([[e7cards[c] for c in h] for h in fives], eval7.evaluate),
            (fives, lambda h: evaluate_cards(*h)),
        ]
    )
    _report(
        f"5-card hand evaluation, {count:,} random hands (timed in turns, best of 7)",
        "engine evaluate (pure Python, single call)",
        ours,
        [
            ("treys Evaluator._five (its 5-card evaluator)", treys_five, ""),
            ("treys Evaluator.evaluate (5 cards)", treys_evaluate, ""),
            ("eval7 evaluate (compiled)", e7, ""),
            ("phevaluator evaluate_cards (compiled)", ph, ""),
            (
                "pokerkit StandardHighHand.from_game",
                rate(pk_fives, lambda h: pokerkit.StandardHighHand.from_game(h[0], h[1]), runs=1),
                "5,000 hands",
            ),
        ],
    )

    sevens = random_hands(7)
    pk_sevens = pk(sevens, 3, 2_000)
    _report(
        "eight-or-better low of 7 cards (stud hi-lo)",
        "engine evaluate_low8",
        rate(sevens, evaluate_low8),
        [
            (
                "pokerkit EightOrBetterLowHand.from_game",
                rate(pk_sevens, _no_low(pokerkit.EightOrBetterLowHand), runs=1),
                "2,000 hands",
            )
        ],
    )
    nines = random_hands(9)
    pk_omaha = pk(nines, 4, 1_000)
    _report(
        "eight-or-better Omaha low, 4 hole cards and 5 board cards (Omaha hi-lo)",
        "engine evaluate_omaha_low8",
        rate(nines, lambda h: evaluate_omaha_low8(h[:4], h[4:])),
        [
            (
                "pokerkit OmahaEightOrBetterLowHand.from_game",
                rate(pk_omaha, _no_low(pokerkit.OmahaEightOrBetterLowHand), runs=1),
                "1,000 hands",
            )
        ],
    )
    evaluate_low(sevens[0])  # the low tables are built on first use, outside the timing
    _report(
        "ace-to-five low of 7 cards (razz)",
        "engine evaluate_low",
        rate(sevens, evaluate_low),
        [
            (
                "pokerkit RegularLowHand.from_game",
                rate(pk_sevens, _no_low(pokerkit.RegularLowHand), runs=1),
                "2,000 hands",
            )
        ],
    )
    _report(
        "ace-to-five low of 5 cards",
        "engine evaluate_low",
        rate(fives, evaluate_low),
        [
            (
                "pokerkit RegularLowHand.from_game",
                rate(pk_fives, _no_low(pokerkit.RegularLowHand), runs=1),
                "5,000 hands",
            )
        ],
    )


if __name__ == "__main__":
    sys.exit(main())
