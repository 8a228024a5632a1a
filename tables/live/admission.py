"""A connect rush survived: how many sockets of a process join their table at once, and when a
new one is shed.

A socket's handshake is accepted the moment it arrives (``accept_at_once``, outside the session
middleware, whose reads queue on the thread of the writes in a rush), so no client times out
waiting for it however busy the server is (daphne drops a handshake not accepted within 5 s).
Its join (the reads that check it may stay, the table's runtime, its first state) then waits its
turn: at most ``AT_ONCE`` joins run at a time per
event loop, and each ends by yielding to the loop, so the players' actions and the updates of
tables already joined go on between them instead of queuing behind a thousand first states.

A socket that would wait longer than ``WAIT_LIMIT_SECONDS`` for its turn (the sockets waiting
and joining, times the recent mean time of a join, over ``AT_ONCE``) is closed at once with
``SERVER_BUSY`` (4013, ``tables.live.protocol``): every client the project ships reconnects
after a jittered, growing pause (``pokerclient.backoff``), by then the crowd has thinned. A
clear answer now rather than a handshake that times out and is tried again at once. The
estimate can be wrong (in a rush every socket arrives before any join has been timed, and the
joins slow down as the tables already joined play), so a socket that has waited that long
all the same is closed with the same code then, not left waiting until its client gives up.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from tables.http import Application, Receive, Scope, Send

#: Joins (reads, runtime, first state) one process runs at once: enough to overlap their database
#: reads (at 4, 300 sockets took 10 s to join against 4 s unbounded), few beside a thousand.
AT_ONCE = 16
#: The longest a new socket may expect to wait for its turn, and then may wait, before it is
#: shed: long, since an accepted socket never times out and a shed one comes back as one more
#: handshake.
WAIT_LIMIT_SECONDS = 60.0
#: A join's time until one has been measured (a first state on a busy server).
FIRST_GUESS_SECONDS = 0.05
#: Weight of the newest join's time in the running mean.
SMOOTHING = 0.1


class Admission:
    """One event loop's joins: ``turn()`` holds one of the ``at_once`` places while a socket
    joins, or says it is shed: when ``admit()`` finds its turn would come too late, or when it
    has not come in time all the same."""

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

    async def _place(self) -> bool:
        """Take a place: at once when one is free, else within ``WAIT_LIMIT_SECONDS`` or not."""
        if not self.places.locked():
            await self.places.acquire()  # free: taken without waiting
            return True
        try:
            await asyncio.wait_for(self.places.acquire(), WAIT_LIMIT_SECONDS)
        except TimeoutError:
            return False
        return True

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[bool]:
        """Gives True once a place is held for the join, or False when the socket is shed
        (counted in ``shed``): its expected wait is past ``WAIT_LIMIT_SECONDS``, or no place
        came within them."""
        if not self.admit():
            yield False
            return
        self.queued += 1
        try:
            if not await self._place():
                self.shed += 1
                yield False
                return
            started = time.monotonic()
            try:
                yield True
            finally:
                self.places.release()
                took = time.monotonic() - started
                self.mean_seconds += SMOOTHING * (took - self.mean_seconds)
            # Let the actions and updates that came in during this join go first.
            await asyncio.sleep(0)
        finally:
            self.queued -= 1


#: The scope key of the event set once the client of an accepted socket has gone.
CLIENT_GONE = "client_gone"
#: The scope key of the server's own ``send``: an application that knows its socket is
#: accepted sends its frames with it, past the wrapper that drops its accept.
SERVER_SEND = "server_send"


def accept_at_once(application: Application) -> Application:
    """ASGI middleware: accept a websocket's handshake as soon as it arrives, before the
    application behind reads anything (the session, the user); the application's own
    ``websocket.accept`` is then dropped, and its refusals close the socket with their code.
    Goes inside the origin check, so a foreign page is still refused with HTTP 403.

    The client's messages are read as they come (into a queue the application reads in
    turn), so ``scope[CLIENT_GONE]`` is set the moment the client leaves: a socket that left
    while waiting for its turn to join is not joined (``TableConsumer._join``). The server's
    ``send`` is in ``scope[SERVER_SEND]``: ``TableConsumer.accept`` sends with it from then on,
    so its frames skip the check for an accept."""

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            return await application(scope, receive, send)
        first = await receive()
        if first["type"] != "websocket.connect":
            return await application(scope, _replay(first, receive), send)
        await send({"type": "websocket.accept"})
        gone = scope[CLIENT_GONE] = asyncio.Event()
        scope[SERVER_SEND] = send
        messages: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        messages.put_nowait(first)

        async def read_as_they_come() -> None:
            while True:
                message = await receive()
                messages.put_nowait(message)
                if message["type"] == "websocket.disconnect":
                    gone.set()
                    return

        async def send_but_accept(message: dict[str, Any]) -> None:
            if message["type"] != "websocket.accept":
                await send(message)

        reader = asyncio.ensure_future(read_as_they_come())
        try:
            return await application(scope, messages.get, send_but_accept)
        finally:
            reader.cancel()

    return app


def _replay(first: dict[str, Any], receive: Receive) -> Receive:
    """``receive`` that gives ``first`` again before the rest."""
    replayed = False

    async def receive_from_the_start() -> dict[str, Any]:
        nonlocal replayed
        if not replayed:
            replayed = True
            return first
        return await receive()

    return receive_from_the_start


_admissions: dict[int, tuple[asyncio.AbstractEventLoop, Admission]] = {}


def admission() -> Admission:
    """The running event loop's ``Admission`` (each test has a loop of its own)."""
    loop = asyncio.get_running_loop()
    found = _admissions.get(id(loop))
    if found is None or found[0] is not loop:
        found = _admissions[id(loop)] = (loop, Admission())
    return found[1]
