"""The croupier: one loop per server process that keeps every table moving.

Every ``INTERVAL`` seconds it finds, in one query, the tables with something that may be due
(``tables.services.clock.tables_due``: a table with nothing due is not even locked) and calls
``tables.services.clock.clock_tick`` for each of them: starting hands when due, enforcing
action clocks (time bank, auto-check or fold, sitting out who timed out), seating bots and
letting them act. It holds no state of
its own — deadlines live in the database — so it survives restarts, and because every step is
a locked, versioned service, two processes running it never act twice.

Started lazily inside the server process (``ensure_started``, called on the first ASGI
connection: see ``autostart``) unless ``POKER_CROUPIER=0``; or standalone with
``manage.py croupier``. Tests call ``Croupier().tick(now)`` directly with an injected time.
"""

from __future__ import annotations

import asyncio
import logging
import os
from datetime import datetime

from django.utils import timezone

log = logging.getLogger(__name__)

INTERVAL = 0.5


class Croupier:
    def __init__(self, interval: float = INTERVAL) -> None:
        self.interval = interval

    def tick(self, now: datetime | None = None) -> list[tuple[int, str]]:
        """One pass over the tables at ``now``: what was done, as (table id, what) pairs."""
        from tables.services.clock import clock_tick, tables_due

        now = now or timezone.now()
        done = []
        for table_id in tables_due(now):  # one query; only these are locked
            try:
                what = clock_tick(table=table_id, now=now)
            except Exception:  # one broken table must not stop the others
                log.exception("croupier: table %s", table_id)
                continue
            if what:
                done.append((table_id, what))
        return done

    def tick_until_idle(self, now: datetime | None = None, limit: int = 100):
        """Tick at ``now`` until nothing more is due (tests and the standalone command)."""
        done = []
        for _ in range(limit):
            step = self.tick(now)
            if not step:
                break
            done.extend(step)
        return done

    async def run(self) -> None:
        from channels.db import database_sync_to_async

        log.info("croupier started (every %ss)", self.interval)
        while True:
            try:
                await database_sync_to_async(self.tick)()
            except Exception:
                log.exception("croupier tick failed")
            await asyncio.sleep(self.interval)


_tasks: dict[int, asyncio.Task] = {}


def enabled() -> bool:
    from django.conf import settings

    value = os.environ.get("POKER_CROUPIER")
    if value is not None:
        return value.strip().lower() not in {"0", "false", "no", "off"}
    return getattr(settings, "POKER_CROUPIER", True)


def ensure_started() -> asyncio.Task | None:
    """Start this process's croupier on the running event loop (once per loop)."""
    if not enabled():
        return None
    loop = asyncio.get_running_loop()
    task = _tasks.get(id(loop))
    if task is None or task.done():
        task = loop.create_task(Croupier().run())
        _tasks[id(loop)] = task
    return task


def autostart(application):
    """Wrap an ASGI application so the croupier starts with the first connection."""

    async def app(scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            ensure_started()
        return await application(scope, receive, send)

    return app
