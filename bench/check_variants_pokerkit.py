"""The new games against pokerkit, both ways, on many random hands: every hand ends with the
same stacks or is named after the house rule that explains it (an unexplained difference
stops the run with its seed).

    PYTHONPATH=. .venv/bin/python bench/check_variants_pokerkit.py [--hands 500] [--from 0]

Short-deck hold'em (``tests.engine.pokerkit_short_deck``) and the draw games: 2-7 triple and
single draw, badugi, five-card draw no limit and pot limit (``tests.engine.pokerkit_draw``).
Pass ``--games draw`` or ``--games short-deck`` for one family.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from collections import Counter
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.engine import pokerkit_draw, pokerkit_short_deck  # noqa: E402


def checks(games: str) -> list[tuple[str, Callable[[int], str]]]:
    found: list[tuple[str, Callable[[int], str]]] = []
    if games in ("all", "short-deck"):
        found += [
            ("short deck, pokerkit -> engine", pokerkit_short_deck.pokerkit_to_engine),
            ("short deck, engine -> pokerkit", pokerkit_short_deck.engine_to_pokerkit),
        ]
    if games in ("all", "draw"):
        for game in pokerkit_draw.GAMES:
            there, back = pokerkit_draw.pokerkit_to_engine, pokerkit_draw.engine_to_pokerkit
            found += [
                (f"{game}, pokerkit -> engine", partial(there, game)),
                (f"{game}, engine -> pokerkit", partial(back, game)),
            ]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--from", dest="first", type=int, default=0)
    parser.add_argument("--games", choices=("all", "draw", "short-deck"), default="all")
    args = parser.parse_args()
    warnings.simplefilter("ignore")  # pokerkit warns about folds it finds needless
    seeds = range(args.first, args.first + args.hands)
    for name, check in checks(args.games):
        start = time.perf_counter()
        outcome = Counter(check(seed) for seed in seeds)
        took = time.perf_counter() - start
        print(f"{name}: {dict(outcome.most_common())} ({took:.1f} s)")


if __name__ == "__main__":
    main()
