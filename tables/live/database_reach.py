"""Whether this process reaches its database (issue 55: a process cut from the database moves
its players to another process, rather than freeze their tables).

- The runtimes' clock (``TableOwnership.keep_up``, each second) and each socket's first read
  say how the database answered (``answered``, ``failed``, ``doubted``). Once it fails and
  has not answered for as long as an owner may go on acting without renewing its lease
  (``LOST_AFTER_SECONDS``: it has stopped acting by then), the clock lets every table here
  go: ownership given up, every socket closed with ``SERVER_TROUBLE`` (4011), whose clients
  reconnect.
- Meanwhile a table socket's handshake is refused (``refuse_while_cut_off``: HTTP 403, before
  it is accepted), so nginx passes it to another process (``proxy_next_upstream ... http_403``
  in ``deploy/nginx.conf``): that one follows the table and takes its lease once it expires.
  A handshake looks at the database again (``SELECT 1``) at most once per ``PROBE_SECONDS``,
  one look at a time, so a process with no table notices too, and one whose database came
  back takes sockets again.
- ``/readyz`` answers 503 while the database does not answer (``pokersite.ops``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import ClassVar

from django.db import DEFAULT_DB_ALIAS, connections

from tables.db.threads import read_async
from tables.http import Application, Receive, Scope, Send
from tables.services.leases import LEASE_MARGIN_SECONDS, LEASE_SECONDS

log = logging.getLogger("tables.live.runtime")

#: Seconds of failures after which the process lets its tables go: as long as an owner may act
#: without a renewal (a blip shorter than that moves nobody).
LOST_AFTER_SECONDS = LEASE_SECONDS - LEASE_MARGIN_SECONDS
#: Seconds between two looks of the handshakes at the database.
PROBE_SECONDS = 1.0
#: Seconds a handshake waits for a look under way (then the last answer stands).
PROBE_WAIT_SECONDS = 2.0


class DatabaseReach:
    """The process's last word on its database (one per process: every loop shares it)."""

    #: ``time.monotonic()`` of the first failure since the database last answered (None: it
    #: answers), and of its last answer.
    failing_since: ClassVar[float | None] = None
    answered_at: ClassVar[float] = -LOST_AFTER_SECONDS
    probed_at: ClassVar[float] = -PROBE_SECONDS
    probe: ClassVar[asyncio.Task[None] | None] = None

    @classmethod
    def answered(cls) -> None:
        if cls.failing_since is not None:
            log.warning("database reachable again")
        cls.failing_since = None
        cls.answered_at = time.monotonic()

    @classmethod
    def failed(cls) -> None:
        if cls.failing_since is None:
            log.warning("database unreachable")
            cls.failing_since = time.monotonic()

    @classmethod
    def doubted(cls) -> None:
        """A read failed (a socket's first state): failing, and the next handshake looks
        again at once (a failure of one read is not yet a database lost)."""
        cls.failed()
        cls.probed_at = -PROBE_SECONDS

    @classmethod
    def cut_off(cls) -> bool:
        """The database fails, and has not answered for ``LOST_AFTER_SECONDS``: the tables
        here must go."""
        failing = cls.failing_since is not None
        return failing and time.monotonic() - cls.answered_at >= LOST_AFTER_SECONDS

    @classmethod
    async def reachable(cls) -> bool:
        """For a handshake: whether the database answered last (looked at again when the
        last look is ``PROBE_SECONDS`` old)."""
        loop = asyncio.get_running_loop()
        probe = cls.probe
        if probe is not None and probe.get_loop() is not loop:
            probe = cls.probe = None  # a look of another event loop (tests): not this one's
        now = time.monotonic()
        if probe is None or (probe.done() and now - cls.probed_at >= PROBE_SECONDS):
            cls.probed_at = now
            probe = cls.probe = loop.create_task(cls._look())
        if not probe.done():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(probe), PROBE_WAIT_SECONDS)
        return cls.failing_since is None

    @classmethod
    async def _look(cls) -> None:
        try:
            # A slow look (a loaded process) decides nothing until it ends; a database host
            # lost from the network fails it within the connection's own timeouts
            # (``connect_timeout``, ``tcp_user_timeout``: pokersite/settings.py).
            await read_async(database_answers)()
        except Exception:
            cls.failed()
        else:
            cls.answered()


def database_answers() -> None:
    """Raises unless the database answers a ``SELECT 1`` (also ``/readyz``'s look)."""
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute("SELECT 1")


def refuse_while_cut_off(application: Application) -> Application:
    """ASGI middleware: a websocket's handshake is refused (daphne answers HTTP 403) while
    the database does not answer, so that nginx tries another process; anything else goes
    on to ``application``. Goes before ``accept_at_once``, which accepts every handshake."""

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and not await DatabaseReach.reachable():
            message = await receive()
            if message["type"] == "websocket.connect":
                await send({"type": "websocket.close"})
            return None
        return await application(scope, receive, send)

    return app
