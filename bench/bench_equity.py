"""Exact Hold'em equity, CPU time per call: preflop with 2, 3, 4 and 6 hands, and the flop.

    .venv/bin/python bench/bench_equity.py [--rounds 7] [--against OLD_EQUITY_PY]

Times ``engine.equity.equity`` in CPU time (``time.process_time``: the machine may be
shared). With ``--against``, a copy of an older ``engine/equity.py`` (for instance
``git show <commit>:engine/equity.py > /tmp/old_equity.py``) is loaded as its own module
and timed in turns with the current one in every round, and both must give the same wins
and ties. Figures: the best and the median round, in milliseconds.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.equity import equity  # noqa: E402

CASES = [
    ("preflop, 2 hands", ["AsAh", "KsKd"], ""),
    ("preflop, 2 hands suited", ["AhKh", "QsQd"], ""),
    ("preflop, 3 hands", ["AsAh", "KsKd", "QhJh"], ""),
    ("preflop, 4 hands", ["AsAh", "KsKd", "QhJh", "Tc9c"], ""),
    ("preflop, 6 hands", ["AsAh", "KsKd", "QhJh", "Tc9c", "8d7d", "6s6h"], ""),
    ("flop, 2 hands", ["AhKh", "QsQd"], "2h3h4c"),
]


def load_equity(path: str) -> Callable[..., Any]:
    spec = importlib.util.spec_from_file_location("old_equity", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    call: Callable[..., Any] = module.equity
    return call


def cpu_ms(call: Callable[[], object]) -> float:
    start = time.process_time()
    call()
    return 1000 * (time.process_time() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--against", help="an older engine/equity.py to time in turns")
    args = parser.parse_args(argv)
    versions: dict[str, Callable[..., Any]] = {"current": equity}
    if args.against:
        versions = {"old": load_equity(args.against), "current": equity}
    print(f"exact equity, CPU ms per call: best / median of {args.rounds} rounds")
    print(f"{'case':<26}" + "".join(f"{name:>20}" for name in versions) + "  speed-up")
    for name, hands, board in CASES:
        results = {version: call(hands, board) for version, call in versions.items()}
        counts = {(r.wins, r.ties, r.boards) for r in results.values()}
        if len(counts) != 1:
            raise SystemExit(f"{name}: the versions disagree: {results}")
        times: dict[str, list[float]] = {version: [] for version in versions}
        for _ in range(args.rounds):
            for version, call in versions.items():
                times[version].append(cpu_ms(partial(call, hands, board)))
        line = f"{name:<26}"
        for version in versions:
            line += f"{min(times[version]):>11.2f} / {statistics.median(times[version]):>6.2f}"
        if "old" in versions:
            speed_up = statistics.median(times["old"]) / statistics.median(times["current"])
            line += f"  {speed_up:6.1f}x"
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
