"""The two ends of every change to a table: the row lock every service takes first
(``table_lock``), and the version bump it ends with (``table_touch``), which tells every
socket on the table that it changed once the transaction has committed.

The event carries the table id and its new version, never cards: each consumer reloads the
state and renders it for its own viewer.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any, Literal, TypeVar, overload

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from tables.db import statements
from tables.db.driver import Batch, row_copy, run
from tables.models import Table
from tables.services.errors import TableNotOpen
from tables.services.leases import fenced_table_lock, fenced_table_pending, fenced_table_values

log = logging.getLogger(__name__)
R = TypeVar("R")


@overload
def table_lock(table: Table | int, *, skip_locked: Literal[False] = ...) -> Table: ...
@overload
def table_lock(table: Table | int, *, skip_locked: bool) -> Table | None: ...
def table_lock(table: Table | int, *, skip_locked: bool = False) -> Table | None:
    """Lock the table row (``SELECT ... FOR UPDATE``) and return a fresh copy of it.

    Call inside ``transaction.atomic()``. On SQLite the transaction itself holds the write
    lock (``transaction_mode = IMMEDIATE`` in settings). ``skip_locked``: None at once if
    another transaction holds the row (on PostgreSQL; SQLite's writers queue for the whole
    database instead).
    """
    pk = table.pk if isinstance(table, Table) else table
    if fenced_table_pending(pk):  # a runtime's write: the lease checked in the same statement
        return fenced_table_lock(pk, skip_locked=skip_locked)
    return statements.lock_row(Table, pk, skip_locked=skip_locked)


def table_lock_held(held: Table, columns: tuple[str, ...]) -> Table:
    """``table_lock(held.pk)`` for a table's runtime, which holds the row as it was at its
    version (``held``): the lock reads only the version and ``columns`` (whole numbers, as
    the driver gives them), and where the version is still ``held``'s, the row is a copy of
    ``held`` with those; else, or outside a runtime's write, the whole row is read. Every
    change of a table's row bumps its version (``table_touch``, in the same transaction), so
    the copy is the row as the lock found it, without decoding its sixty columns."""
    pk = held.pk
    if not fenced_table_pending(pk):
        return table_lock(pk)
    values = fenced_table_values(pk, ("version", *columns))
    if values[0] != held.version:
        return statements.lock_row(Table, pk)  # locked already: the whole row, read
    table = row_copy(held)
    for name, value in zip(columns, values[1:], strict=True):
        setattr(table, name, value)
    return table


def require_open(table: Table) -> None:
    if table.status != Table.Status.OPEN:
        raise TableNotOpen(f"{table.name} is {table.get_status_display().lower()}.")


def table_group(table_id: int) -> str:
    """The channel-layer group of a table's sockets."""
    return f"table-{table_id}"


def table_changed_event(table_id: int, version: int) -> dict[str, Any]:
    return {"type": "table.changed", "table_id": table_id, "version": version}


def table_touch(
    table: Table, *fields: str, wait_for_disk: bool = True, ahead: Batch | None = None
) -> None:
    """Bump ``table.version`` (caller holds the table row lock) and publish it on commit.

    ``fields``: other fields of ``table`` the caller changed, written in the same UPDATE.
    ``wait_for_disk`` False: the transaction commits without waiting for the disk (a move of
    a hand still being played: ``statements.update``). ``ahead``: the caller's writes queued
    before this one, sent with it in one trip.
    """
    table.version += 1
    values = {field: getattr(table, field) for field in fields}
    write = statements.update_write(
        Table, {"pk": table.pk}, wait_for_disk=wait_for_disk, version=table.version, **values
    )
    if ahead is None:
        run(write)
    else:
        ahead.add(write)
        ahead.send()
    event = table_changed_event(table.pk, table.version)
    transaction.on_commit(lambda: _publish(event))


def table_event_on_commit(event: dict[str, Any]) -> None:
    """Publish ``event`` (``table_id`` and a ``type`` other than ``table.changed``, e.g. a chat
    line) to the table's group once the transaction commits, without a version change: it
    reaches every socket at the table without re-rendering the table."""
    transaction.on_commit(lambda: _publish(event))


#: Called on the server's event loop with each change this process made, before it goes
#: through the channel layer (the croupier's timers re-arm the table's clock).
local_listeners: list[Callable[[dict[str, Any]], None]] = []
#: A ``local_listeners`` event (never sent through the layer): this process took the lease
#: of the table (``table_id``), whose clock another process ran until then.
TABLE_OWNED = "table.owned"

#: Where a write that a table's runtime made puts its events once it commits: the runtime
#: publishes them from its event loop when the write returns (``publish``), instead of the
#: write's thread waiting on the loop. Unset: published from the thread, at once.
outbox: ContextVar[list[dict[str, Any]] | None] = ContextVar("outbox", default=None)


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


#: A ``table.changed`` member that only this process's listeners get (``publish``'s
#: ``local``): the table as the write of its runtime here left it (a ``Snapshot``), from
#: which the croupier's timers tell the table's next moment without reading it again.
AFTER_WRITE = "after_write"


async def publish(
    event: dict[str, Any],
    group: str = "",
    others: bool = True,
    local: dict[str, Any] | None = None,
) -> None:
    """Publish ``event`` from the event loop: this process's listeners first, then the
    channel layer (every process's runtime of the table, this one's included); not the layer
    when ``others`` is False (a runtime's own change that no other process follows, shown by
    it already).
    ``local``: members that this process's listeners get with the event, never the layer."""
    layer = get_channel_layer()
    group = group or table_group(event.get("table_id", 0))
    if group == table_group(event.get("table_id", 0)):
        heard = event if local is None else {**event, **local}
        for listener in local_listeners:
            try:
                listener(heard)
            except Exception:  # the other processes must still hear of it
                log.exception("local delivery of %s failed", event)
    if layer is not None and others:
        await layer.group_send(group, event)


async def published_after(work: Awaitable[R]) -> R:
    """Await ``work`` (a write on its thread) and then publish, from this event loop, what
    it published on commit: its thread never waits for the loop."""
    events: list[dict[str, Any]] = []
    token = outbox.set(events)
    try:
        return await work
    finally:
        outbox.reset(token)
        for event in events:
            try:
                await publish(event, event.pop("_group", ""))
            except Exception:  # a lost notification must not undo a committed action
                log.exception("could not publish %s", event)


def _publish(event: dict[str, Any], group: str = "") -> None:
    waiting = outbox.get()
    if waiting is not None:  # a runtime's write: it publishes once the write returns
        waiting.append(event if not group else {**event, "_group": group})
        return
    try:
        async_to_sync(publish)(event, group)
    except Exception:  # a lost notification must not undo a committed action
        log.exception("could not publish %s", event)
