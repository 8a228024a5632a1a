"""How often a server process's threads take turns with the interpreter lock.

A server process runs its event loop on one thread and its database work on others
(``tables.db.threads``). The database threads hold the interpreter lock only for short
stretches: every statement hands it back while SQLite or PostgreSQL works, and must take it
again after. The event loop, busy making and sending frames, gives it up only when it waits
for the network, or when another thread has asked for it for a whole *switch interval*
(CPython's default: 5 ms). So each statement of a write could wait up to 5 ms for the lock,
a write of a dozen statements much longer, and on SQLite every table's writes queue behind
that one thread: in the load benchmark most of an action's p99 was that queue.

A server process lets a waiting thread in after ``POKER_SWITCH_INTERVAL_MS`` (default 1 ms):
a write's statements wait less, the event loop is interrupted a little more often.
``bench/bench_load.py`` measured it (docs/benchmarks.md).
"""

from __future__ import annotations

import sys

from django.conf import settings


def tune_server_switching() -> float:
    """Set the server's switch interval; returns it in seconds."""
    sys.setswitchinterval(settings.POKER_SWITCH_INTERVAL_MS / 1000)
    return sys.getswitchinterval()
