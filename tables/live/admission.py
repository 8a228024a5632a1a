"""A connect rush survived: how many sockets of a process join their table at once, and when a
new one is shed.

A socket's handshake is accepted at once (``TableConsumer.connect``), so no client times out
waiting for it however busy the server is. Its join (the reads that check it may stay, the
table's feed, its first state) then waits its turn: at most ``AT_ONCE`` joins run at a time per
event loop, and each ends by yielding to the loop, so the players' actions and the updates of
tables already joined go on between them instead of queuing behind a thousand first states.

A socket that would wait longer than ``WAIT_LIMIT_SECONDS`` for its turn (the sockets waiting
and joining, times the recent mean time of a join, over ``AT_ONCE``) is closed at once with
``SERVER_BUSY`` (4013, ``tables.live.protocol``): every client the project ships reconnects
after a jittered, growing pause (``pokerclient.backoff``), by then the crowd has thinned. A
clear answer now rather than a handshake that times out and is tried again at once.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

#: Joins (reads, feed, first state) one process runs at once.
AT_ONCE = 4
#: The longest a new socket may expect to wait for its turn before it is shed.
WAIT_LIMIT_SECONDS = 20.0
#: A join's time until one has been measured (a first state on a busy server).
FIRST_GUESS_SECONDS = 0.05
#: Weight of the newest join's time in the running mean.
SMOOTHING = 0.1


class Admission:
    """One event loop's joins: ``admit()`` says whether a new socket may wait its turn,
    ``turn()`` holds one of the ``at_once`` places while a socket joins."""

    def __init__(self, at_once: int | None = None) -> None:
        self.at_once = at_once or AT_ONCE
        self.places = asyncio.Semaphore(self.at_once)
        self.queued = 0  # sockets waiting for a place or joining
        self.mean_seconds = FIRST_GUESS_SECONDS
        self.shed = 0  # sockets refused since the process started (for operators)

    def expected_wait(self) -> float:
        """Seconds a socket arriving now may expect to wait for its turn (Little's law)."""
        return self.queued * self.mean_seconds / self.at_once

    def admit(self) -> bool:
        if self.expected_wait() > WAIT_LIMIT_SECONDS:
            self.shed += 1
            return False
        return True

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        self.queued += 1
        try:
            async with self.places:
                started = time.monotonic()
                try:
                    yield
                finally:
                    took = time.monotonic() - started
                    self.mean_seconds += SMOOTHING * (took - self.mean_seconds)
                # Let the actions and updates that came in during this join go first.
                await asyncio.sleep(0)
        finally:
            self.queued -= 1


_admissions: dict[int, tuple[asyncio.AbstractEventLoop, Admission]] = {}


def admission() -> Admission:
    """The running event loop's ``Admission`` (each test has a loop of its own)."""
    loop = asyncio.get_running_loop()
    found = _admissions.get(id(loop))
    if found is None or found[0] is not loop:
        found = _admissions[id(loop)] = (loop, Admission())
    return found[1]
