"""Replay the same 2,000 random no-limit hands through engine.hand and through pokerkit.

    .venv/bin/python bench/bench_hands.py [--hands 2000] [--seed 2024]

Prints hands per second for each and the ratio (the floor for this engine is 20x pokerkit).
The hands (config, stacks, button, deck order, decisions) are generated first; only the
replays are timed: each engine deals, posts, takes every decision, shows down and pays out.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.hand import Hand  # noqa: E402
from engine.randomhands import random_hand  # noqa: E402
from tests.engine.pokerkit_driver import pokerkit_final_stacks  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    specs = [random_hand(rng) for _ in range(args.hands)]

    start = time.perf_counter()
    for spec in specs:
        Hand.replay(spec.config, spec.stacks, spec.button, spec.deck, spec.actions)
    ours = time.perf_counter() - start

    start = time.perf_counter()
    for spec in specs:
        # ValueError: a hand where the house rules differ; pokerkit stops early
        with contextlib.suppress(ValueError):
            pokerkit_final_stacks(spec)
    theirs = time.perf_counter() - start

    n = len(specs)
    print(f"engine.hand: {n / ours:10.0f} hands/s ({ours:.3f} s for {n} hands)")
    print(f"pokerkit:    {n / theirs:10.0f} hands/s ({theirs:.3f} s for {n} hands)")
    print(f"ratio:       {theirs / ours:10.1f}x")


if __name__ == "__main__":
    main()
