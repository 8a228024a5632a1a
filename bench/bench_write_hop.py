"""The server's CPU for one write's trip from the event loop (``tables.db.threads.write_async``:
to the table's write thread, Django's look at its connections where one is due, the write,
and back), for a write of one short transaction, against the same transaction called in place.

    DATABASE_URL=postgres://... .venv/bin/python bench/bench_write_hop.py [--writes 3000]
    BENCH_TREE=/path/to/other/checkout .venv/bin/python bench/bench_write_hop.py

The transaction is ``BEGIN``, one ``SELECT``, ``COMMIT``: what every write's trip pays besides
its own statements. It measures the tree it is run from (or ``BENCH_TREE``'s), so run it in
two checkouts, taking turns, to compare. Prints the CPU microseconds (``time.process_time``:
every thread of the process) per write of each, and their difference: the trip's own cost.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(os.environ.get("BENCH_TREE") or Path(__file__).resolve().parents[1])
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writes", type=int, default=3000, help="writes per round")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokersite.settings")
    import django

    django.setup()
    from django.db import connection, transaction

    from tables.db.threads import write_async

    def write() -> None:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT 1")

    async def hops(count: int) -> None:
        hop = write_async(1, write, "bench")
        for _ in range(count):
            await hop()

    def in_place(count: int) -> None:
        for _ in range(count):
            write()

    async def measure() -> tuple[list[float], list[float]]:
        await hops(args.writes // 10)  # warm up: the threads and their connections
        tripped, direct = [], []
        for _ in range(args.rounds):
            start = time.process_time()
            await hops(args.writes)
            tripped.append((time.process_time() - start) / args.writes * 1e6)
            start = time.process_time()
            await asyncio.to_thread(in_place, args.writes)
            direct.append((time.process_time() - start) / args.writes * 1e6)
        return tripped, direct

    tripped, direct = asyncio.run(measure())
    trip, alone = statistics.median(tripped), statistics.median(direct)
    print(
        f"{ROOT} ({connection.vendor}): CPU µs per write, median of {args.rounds} rounds of "
        f"{args.writes}: through write_async {trip:.1f}, in place {alone:.1f}, "
        f"the trip {trip - alone:.1f}"
    )


if __name__ == "__main__":
    main()
