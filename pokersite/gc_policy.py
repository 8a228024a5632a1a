"""The cyclic garbage collector's settings for a server process.

CPython's collector stops every thread while it runs, and a collection walks every object of
the generations it collects. A server's objects come in three lifetimes:

- what start-up creates (modules, Django and its apps, compiled templates, the engine's
  tables), which lives as long as the process;
- what each socket holds while it is open;
- what each version of each table makes (its snapshot, every viewer's screen and state):
  alive until the table's next version, a second or two later.

The interpreter's thresholds (700, 10, 10) ran a full collection every second or so, walking
everything. Spaced-out thresholds alone (fewer, later collections) did not help for long:
the youngest generation's count is new objects *less objects freed*, and every old version
freed takes its objects off that count, so under load it was collected only every few
seconds, holding by then every table's current version, and each of those collections
stopped the server for tens of milliseconds: the actions in flight then were the p99.

So a server process, once its code is loaded (``pokersite.asgi``):

- freezes what start-up created: no collection walks it again;
- collects the youngest generation every ``POKER_GC_YOUNG_SECONDS`` (a thread of its own
  that sleeps between collections): each then holds what was made in that short while and
  is still alive, a small part of the tables' versions, so each pause is short. What it
  promotes dies with its version, in the middle generation;
- collects the middle generation only after ``POKER_GC_THRESHOLDS``' second number of young
  collections (100: every 10 s or so), and the oldest after its third number of middle ones
  (CPython also waits until a quarter of the oldest generation is new). The first number
  still collects the youngest generation early when a burst (a rush of sockets) allocates
  that many objects.

Garbage cycles are still collected, only later: not much later, as a cycle can hold a
resource (a database connection dropped with the thread that opened it waits for the middle
generation's collection; spaced out to every 100 s, the test run's ran out of PostgreSQL
connections). The settings and the environment variables
of the same names: ``pokersite.settings``; ``bench/bench_load.py`` measured them
(docs/benchmarks.md).
"""

from __future__ import annotations

import gc
import threading
import time

from django.conf import settings

#: The name of the thread that collects the youngest generation.
YOUNG_COLLECTOR = "gc-young-generation"


def tune_server_gc() -> tuple[int, int, int]:
    """Freeze what is loaded so far, set the server's thresholds and start collecting the
    youngest generation on a timer (unless ``POKER_GC_YOUNG_SECONDS`` is 0); returns the
    thresholds."""
    first, second, third = (int(n) for n in settings.POKER_GC_THRESHOLDS)  # whole numbers
    thresholds = (first, second, third)
    gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)
    every = float(settings.POKER_GC_YOUNG_SECONDS)
    running = any(thread.name == YOUNG_COLLECTOR for thread in threading.enumerate())
    if every > 0 and not running:
        threading.Thread(
            target=_collect_young, args=(every,), name=YOUNG_COLLECTOR, daemon=True
        ).start()
    return thresholds


def _collect_young(every: float) -> None:
    while True:
        time.sleep(every)
        gc.collect(0)
