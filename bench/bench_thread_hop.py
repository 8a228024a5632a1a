"""The cost of one hand-over from the event loop to a worker thread and back, the step every
database call of the live server takes (``tables.db.threads``), against a turn of the event
loop alone in the same run.

    .venv/bin/python bench/bench_thread_hop.py
    taskset -c 0,1 .venv/bin/python bench/bench_thread_hop.py      # as a pinned server runs

Prints, per call of a function that does nothing, the wall and CPU microseconds of
``loop.run_in_executor`` (a worker thread and back), of asgiref's ``sync_to_async`` with
``thread_sensitive=False``, of the site's own threads (``tables.db.threads.WorkThreads``: what
``read_async`` and a server database's ``write_async`` use) and of a bare
``await asyncio.sleep(0)`` (one turn of the loop, no thread), and the ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Awaitable, Callable

from asgiref.sync import sync_to_async

from tables.db.threads import WorkThreads


def nothing() -> None:
    return None


async def per_call(step: Callable[[], Awaitable[object]], calls: int) -> tuple[float, float]:
    """Wall and CPU microseconds per ``await step()``, after a warm-up."""
    for _ in range(calls // 20):
        await step()
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(calls):
        await step()
    return (
        (time.perf_counter() - wall) / calls * 1e6,
        (time.process_time() - cpu) / calls * 1e6,
    )


async def measure(calls: int) -> dict[str, tuple[float, float]]:
    loop = asyncio.get_running_loop()
    off_thread = sync_to_async(nothing, thread_sensitive=False)
    site = WorkThreads(1, "bench")
    return {
        "a loop turn (asyncio.sleep(0))": await per_call(lambda: asyncio.sleep(0), calls),
        "run_in_executor (a thread and back)": await per_call(
            lambda: loop.run_in_executor(None, nothing), calls
        ),
        "sync_to_async, thread_sensitive=False": await per_call(off_thread, calls),
        "WorkThreads (the site's)": await per_call(lambda: site.run(nothing), calls),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20_000)
    args = parser.parse_args()
    if args.calls < 20:
        parser.error("--calls: at least 20")
    figures = asyncio.run(measure(args.calls))
    turn_cpu = figures["a loop turn (asyncio.sleep(0))"][1]
    for name, (wall, cpu) in figures.items():
        ratio = cpu / turn_cpu if turn_cpu else float("nan")
        print(f"{name:40} {wall:7.1f} µs wall {cpu:7.1f} µs CPU   {ratio:5.1f}× a loop turn")


if __name__ == "__main__":
    main()
