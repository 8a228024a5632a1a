"""Tell every socket on a table that it changed, once the transaction has committed.

The event carries the table id and its new version, never cards: each consumer reloads the
state and renders it for its own viewer.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from tables.db import statements
from tables.models import Table

log = logging.getLogger(__name__)


def table_group(table_id: int) -> str:
    """The channel-layer group of a table's sockets."""
    return f"table-{table_id}"


def table_changed_event(table_id: int, version: int) -> dict[str, Any]:
    return {"type": "table.changed", "table_id": table_id, "version": version}


def table_touch(table: Table, *fields: str) -> None:
    """Bump ``table.version`` (caller holds the table row lock) and publish it on commit.

    ``fields``: other fields of ``table`` the caller changed, written in the same UPDATE.
    """
    table.version += 1
    values = {field: getattr(table, field) for field in fields}
    statements.update(Table, {"pk": table.pk}, version=table.version, **values)
    event = table_changed_event(table.pk, table.version)
    transaction.on_commit(lambda: _publish(event))


def table_event_on_commit(event: dict[str, Any]) -> None:
    """Publish ``event`` (``table_id`` and a ``type`` other than ``table.changed``, e.g. a chat
    line) to the table's group once the transaction commits, without a version change: it
    reaches every socket at the table without re-rendering the table."""
    transaction.on_commit(lambda: _publish(event))


#: Called on the server's event loop with each change this process made, before it goes
#: through the channel layer (``tables.live.feed.TableFeed``, registered in ``tables.apps``,
#: tells this process's sockets at once instead of waiting for the change to come back from
#: Redis).
local_listeners: list[Callable[[dict[str, Any]], None]] = []


#: The group that every server process's table sockets registry follows
#: (``tables.live.sessions``): messages about one user's sockets, wherever they are open.
LIVE_SESSIONS_GROUP = "live-sessions"
#: A ``LIVE_SESSIONS_GROUP`` message: the ``user_id``'s notes on players changed.
NOTES_CHANGED = "notes.changed"


def notes_changed_on_commit(user_id: int) -> None:
    """Once the transaction commits, tell ``user_id``'s own table sockets (every process's)
    to read their notes again: their seats show the new labels. Nobody else's hears of it."""
    event = {"type": NOTES_CHANGED, "user_id": user_id}
    transaction.on_commit(lambda: _publish(event, LIVE_SESSIONS_GROUP))


async def _send(layer: Any, group: str, event: dict[str, Any]) -> None:
    if group != table_group(event.get("table_id", 0)):
        await layer.group_send(group, event)  # not a table's change: no feed to tell first
        return
    for listener in local_listeners:
        try:
            listener(event)
        except Exception:  # the other processes must still hear of it
            log.exception("local delivery of %s failed", event)
    await layer.group_send(group, event)


def _publish(event: dict[str, Any], group: str = "") -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    group = group or table_group(event["table_id"])
    loop = _server_loop()
    if loop is not None:
        # A service called from the server's event loop (through sync_to_async): hand the
        # send to that loop and return. Waiting for it would hold the thread of the writes
        # until the busy loop came round; the loop keeps the order of the sends.
        future = asyncio.run_coroutine_threadsafe(_send(layer, group, event), loop)
        future.add_done_callback(lambda done: _log_failure(done, event))
        return
    try:
        async_to_sync(layer.group_send)(group, event)
    except Exception:  # a lost notification must not undo a committed action
        log.exception("could not publish %s", event)


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The running event loop that called this thread through ``sync_to_async``, if any.

    Reads a library internal: ``pokersite.library_overrides`` (ASGIREF_MAIN_EVENT_LOOP)."""
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if loop is None or getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    return loop if loop.is_running() and not loop.is_closed() else None


def _log_failure(done: Future[None], event: dict[str, Any]) -> None:
    if not done.cancelled() and done.exception() is not None:
        log.error("could not publish %s", event, exc_info=done.exception())
