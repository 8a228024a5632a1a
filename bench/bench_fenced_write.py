"""The server's CPU for the smallest write a table's runtime makes: one transaction under its
lease (``tables.services.events.lease_fenced``) that locks the table's row and bumps its
version (``table_touch``), what every action, deal and clock tick pays besides its own writes.

    DATABASE_URL=postgres://... .venv/bin/python bench/bench_fenced_write.py [--writes 2000]
    BENCH_TREE=/path/to/other/checkout .venv/bin/python bench/bench_fenced_write.py

It writes to the database ``DATABASE_URL`` names (migrating it, and adding one table), in
place on this thread. It measures the tree it is run from (or ``BENCH_TREE``'s), so run it in
two checkouts, taking turns, to compare. Prints the CPU microseconds (``time.process_time``)
per write: the median of ``--rounds`` rounds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(os.environ.get("BENCH_TREE") or Path(__file__).resolve().parents[1])
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writes", type=int, default=2000, help="writes per round")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokersite.settings")
    os.environ.setdefault("POKER_CROUPIER", "0")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from tables.models import Table
    from tables.services import table_save
    from tables.services.events import lease_fenced, outbox, table_lock, table_touch
    from tables.services.leases import PROCESS, lease_take

    call_command("migrate", verbosity=0)
    table = table_save(table=Table(name=f"Bench {uuid.uuid4().hex[:8]}", max_seats=6))

    def bump() -> None:
        table_touch(table_lock(table.pk))

    def round_of(count: int) -> float:
        epoch = lease_take(table.pk, PROCESS, "bench", timezone.now())  # renewed each round
        assert epoch is not None
        events: list[dict[str, object]] = []
        outbox.set(events)  # published by the runtime, as its writes are: not measured here
        start = time.process_time()
        for _ in range(count):
            lease_fenced(table.pk, PROCESS, epoch, bump)
            events.clear()
        return (time.process_time() - start) / count * 1e6

    round_of(args.writes // 10)  # warm up: the connection, the statements compiled
    spent = [round_of(args.writes) for _ in range(args.rounds)]
    print(
        f"{ROOT} ({connection.vendor}): CPU µs per fenced write (lock, version bump, commit), "
        f"median of {args.rounds} rounds of {args.writes}: {statistics.median(spent):.1f} "
        f"(from {min(spent):.1f} to {max(spent):.1f})"
    )


if __name__ == "__main__":
    main()
