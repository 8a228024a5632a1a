"""The cyclic garbage collector's settings for a server process.

CPython's collector stops every thread while it runs, and a collection of the oldest
generation walks every object it tracks. A server holding hundreds of sockets tracks a lot of
them: at 100 tables x 6 sockets (``bench/bench_load.py``, embedded set-up) about 335,000, and
with the interpreter's default thresholds (700, 10, 10) it ran such a full collection every
1.2 seconds or so, each taking 200-290 ms on the 2-core machine, while finding almost nothing
to free. Every action in flight waited for it: that was most of the p99 latency.

So a server process, once its code is loaded (``pokersite.asgi``):

- freezes what start-up created (modules, Django and its apps, compiled templates, the
  engine's tables): it lives as long as the process, so no collection walks it again;
- collects the youngest generation every 10,000 net allocations instead of 700 (most objects of
  an action, such as rows and rendered fragments, are freed by reference counting before
  then, so fewer survive to be promoted) and the oldest only after 100 collections of the
  middle one instead of 10.

Garbage cycles are still collected, only later. The thresholds are the setting
``POKER_GC_THRESHOLDS`` (the environment variable of that name, e.g. ``700,10,10``, overrides
them: ``pokersite.settings``).
"""

from __future__ import annotations

import gc

from django.conf import settings


def tune_server_gc() -> tuple[int, int, int]:
    """Freeze what is loaded so far and set the server's thresholds; returns them."""
    first, second, third = (int(n) for n in settings.POKER_GC_THRESHOLDS)  # whole numbers
    thresholds = (first, second, third)
    gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)
    return thresholds
