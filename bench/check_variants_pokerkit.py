"""The new games against pokerkit, both ways, on many random hands: every hand ends with the
same stacks or is named after the house rule that explains it (an unexplained difference
stops the run with its seed).

    PYTHONPATH=. .venv/bin/python bench/check_variants_pokerkit.py [--hands 500] [--from 0]

Short-deck hold'em only for now: the draw games (2-7 triple and single draw, badugi,
five-card draw) are not in the hand machine yet.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.engine.pokerkit_short_deck import engine_to_pokerkit, pokerkit_to_engine  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--from", dest="first", type=int, default=0)
    args = parser.parse_args()
    warnings.simplefilter("ignore")  # pokerkit warns about folds it finds needless
    seeds = range(args.first, args.first + args.hands)
    for name, check in (
        ("short deck, pokerkit -> engine", pokerkit_to_engine),
        ("short deck, engine -> pokerkit", engine_to_pokerkit),
    ):
        start = time.perf_counter()
        outcome = Counter(check(seed) for seed in seeds)
        took = time.perf_counter() - start
        print(f"{name}: {dict(outcome.most_common())} ({took:.1f} s)")


if __name__ == "__main__":
    main()
