"""Every change to a table, from end to end: a runtime's write runs under its lease
(``lease_fenced``: one transaction, the lease checked with the table's lock), every service
locks the table's row first (``table_lock``) and ends with the version bump (``table_touch``),
which tells every socket on the table that it changed once the transaction has committed
(``publish``); a hand's decisions are appended to its log here (``decision_write``). The
lease's own life (taken, renewed, given up) is ``tables.services.leases``'.

The event carries the table id and its new version, never cards: each consumer reloads the
state and renders it for its own viewer.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, TypeVar, overload

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Q, QuerySet
from django.db.transaction import Atomic
from django.utils import timezone

from tables.db import statements
from tables.db.rows import lock_row, select_first
from tables.db.statements import Batch, Write, prep_save, row_copy
from tables.models import HandAction, Table, TableLease
from tables.selectors.hands import Decision
from tables.services.errors import TableNotOpen
from tables.services.leases import MOVING, LeaseLost, lease_hold

log = logging.getLogger(__name__)
R = TypeVar("R")
T = TypeVar("T")


@dataclass
class _Fence:
    """A runtime's write under way in ``lease_fenced``: the lease it must hold."""

    table_id: int
    owner: str
    epoch: int
    #: How many blocks were open inside the outermost ``atomic`` at the fence (its own among
    #: them where it is nested, as in the tests).
    depth: int
    #: The lease was found held, its row locked until the commit (None: not yet, or only
    #: inside a savepoint, whose rollback would let the lock go; False: lost).
    held: bool | None = None
    #: The table's row was locked with the lease (``fenced_table_lock``) once already.
    looked: bool = False
    #: Its transaction is the outermost (not inside a caller's): its COMMIT may be its own.
    outermost: bool = False
    #: The table's version bump and the writes queued with it (``table_touch``), held back
    #: where the database takes several statements in one trip: sent with the transaction's
    #: COMMIT, or before any other statement the work runs after it.
    tail: Batch | None = None

    def send_tail(self, commit: bool = False) -> None:
        """Send the held-back writes (``commit``: with the transaction's COMMIT)."""
        tail, self.tail = self.tail, None
        if tail is not None:
            tail.send(commit=commit)

    def tail_first(
        self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any
    ) -> Any:
        """An ``execute_wrapper``: the held-back writes go before any other statement."""
        if self.tail is not None:
            self.send_tail()
        return execute(sql, params, many, context)


#: While ``lease_fenced`` runs its work: the lease it runs under.
_fence: ContextVar[_Fence | None] = ContextVar("lease_fence", default=None)


def lease_fenced(table_id: int, owner: str, epoch: int, work: Callable[[], T]) -> T:
    """``work`` (a runtime's write) in one transaction under the lease ``owner`` took at
    ``epoch``: if another process took the table meanwhile, ``LeaseLost`` and nothing is
    written. The lease is checked with the work's first lock of the table's row
    (``fenced_table_lock``: one statement reads and locks both rows until the commit, as
    every service of a runtime locks the table first); where that lock was not taken outside
    a savepoint, the lease is renewed before the commit instead (``lease_hold``). The
    services ``work`` calls open their blocks with ``fenced_atomic``: no savepoints of their
    own. Where the database takes several statements in one trip (PostgreSQL), the table's
    version bump is held back (``table_touch``) and goes with the COMMIT: a write's last
    trip ends its transaction, one round trip fewer than Django's own COMMIT after it."""
    connection = transaction.get_connection()
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        fence = _Fence(table_id, owner, epoch, len(connection.savepoint_ids), outermost=outermost)
        token = _fence.set(fence)
        try:
            with connection.execute_wrapper(fence.tail_first):
                result = work()
        finally:
            _fence.reset(token)
        if fence.held is False:  # lost, and the work swallowed the refusal
            raise LeaseLost(MOVING)
        # a work whose error was swallowed commits nothing: Django runs no more queries
        unchecked = fence.held is None and not connection.needs_rollback
        if unchecked:
            fence.send_tail()
            if not lease_hold(table_id, owner, epoch):
                raise LeaseLost(MOVING)
        if not connection.needs_rollback:
            # the last trip commits: Django's commit then finds no transaction to end
            fence.send_tail(commit=True)
        return result


def fenced_table_pending(table_id: int) -> bool:
    """Whether the table's row is locked for the first time inside ``lease_fenced``'s work:
    ``fenced_table_lock`` then locks it with the lease."""
    fence = _fence.get()
    return fence is not None and not fence.looked and fence.table_id == table_id


def fenced_table_lock(table_id: int, *, skip_locked: bool = False) -> Table | None:
    """``lock_row(Table, table_id)`` inside ``lease_fenced``, its lease checked in
    the same statement: the table's row read where the lease's owner and epoch are the
    fence's and it has not expired, both rows locked (PostgreSQL's ``FOR UPDATE`` of a join;
    SQLite's transaction holds the database's write lock). It is not renewed: each loop's
    clock does that every second (``leases_renew``). ``LeaseLost`` when it is not held.

    ``skip_locked``: None at once when another transaction holds the table's row; as a row
    skipped looks like a lease lost, the lease is then looked at on its own."""
    fence, outside_savepoints, now, params = _fence_at_lock(table_id)

    def build(table_id: int, owner: str, epoch: int, _: object) -> QuerySet[Table]:
        return _lease_held_row(table_id, owner, epoch, now, skip_locked)

    found = select_first(Table, f"lease-held-table {skip_locked}", build, *params)
    held = found is not None or (
        skip_locked and lease_hold(table_id, fence.owner, fence.epoch, now)
    )
    if found is None and held:  # skipped: another transaction holds the row
        found = lock_row(Table, table_id, skip_locked=True)
    _locked(fence, outside_savepoints, held)
    return found


def fenced_table_values(table_id: int, columns: tuple[str, ...]) -> tuple[Any, ...]:
    """``fenced_table_lock`` that reads only ``columns`` of the table's row (as the driver
    gives them): for a runtime that holds the rest of the row at the version it reads
    (``table_lock_held``). ``LeaseLost`` when the lease is not held."""
    fence, outside_savepoints, now, params = _fence_at_lock(table_id)

    def build(table_id: int, owner: str, epoch: int, _: object) -> QuerySet[Table, Any]:
        return _lease_held_row(table_id, owner, epoch, now).values_list(*columns)

    key = f"lease-held-values {columns}"
    rows = statements.select_values(Table, key, build, *params, aware=False)
    _locked(fence, outside_savepoints, bool(rows))
    return rows[0]


def _fence_at_lock(table_id: int) -> tuple[_Fence, bool, datetime, tuple[Any, ...]]:
    """``lease_fenced``'s fence at its work's first lock of ``table_id``'s row (marked as
    looked at), whether no savepoint stands between them, the time now and the lock
    statement's parameters: the table, the lease's owner and epoch, the time as the
    database takes it (the lease must not have expired by then)."""
    fence = _fence.get()
    assert fence is not None and fence.table_id == table_id  # ``fenced_table_pending``
    fence.looked = True
    now = timezone.now()
    held_since = _until_prep(transaction.get_connection())([now])[0]
    params = (table_id, fence.owner, fence.epoch, held_since)
    return fence, _outside_savepoints(fence), now, params


def _lease_held_row(
    table_id: int, owner: str, epoch: int, now: datetime, skip_locked: bool = False
) -> QuerySet[Table]:
    """The table's row where its lease is ``owner``'s at ``epoch`` and unexpired at ``now``,
    locked with it."""
    held = Q(lease__owner=owner), Q(lease__epoch=epoch), Q(lease__until__gte=now)
    query = Table.objects.select_for_update(skip_locked=skip_locked)
    return query.filter(Q(pk=table_id), *held).order_by()


def _locked(fence: _Fence, outside_savepoints: bool, held: bool) -> None:
    """The fence after its lock found the lease ``held`` or not (``LeaseLost``)."""
    if not held:
        fence.held = False
        raise LeaseLost(MOVING)
    if outside_savepoints:
        fence.held = True


def fenced_atomic() -> Atomic:
    """``transaction.atomic()`` for a service of a runtime's write path (``hand_act``,
    ``clock_tick``), without a savepoint where every block opened inside ``lease_fenced``'s
    transaction before it has none either (the clock's tick and the action it makes): an
    error it raises then marks the fence's block to roll back whole, whether the fence lets
    it through or a caller swallows it (as the croupier's tick does, running no more queries:
    Django would refuse them), so a savepoint would undo nothing more, and costs two
    statements (``SAVEPOINT``, ``RELEASE``) on every action. Anywhere else, the usual
    savepoint."""
    fence = _fence.get()
    return transaction.atomic(savepoint=fence is None or not _outside_savepoints(fence))


def _outside_savepoints(fence: _Fence) -> bool:
    """Whether no savepoint stands between ``fence``'s block and now: the blocks open at the
    fence are still open, and none opened since inside its work made a savepoint."""
    blocks = transaction.get_connection().savepoint_ids
    return len(blocks) >= fence.depth and not any(blocks[fence.depth :])


#: (database alias, vendor) -> how the lease's expiry is given to the database.
_until_preps: dict[tuple[str, str], Callable[[Sequence[Any]], list[Any]]] = {}


def _until_prep(connection: BaseDatabaseWrapper) -> Callable[[Sequence[Any]], list[Any]]:
    """``TableLease.until``'s ``get_db_prep_save`` for ``connection``, without the field's
    calls for a time now (``statements.prep_save``): every runtime's write checks the lease."""
    key = (connection.alias, connection.vendor)
    prep = _until_preps.get(key)
    if prep is None:
        prep = _until_preps[key] = prep_save(connection, [TableLease._meta.get_field("until")])
    return prep


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
    return lock_row(Table, pk, skip_locked=skip_locked)


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
        return lock_row(Table, pk)  # locked already: the whole row, read
    table = row_copy(held)
    for name, value in zip(columns, values[1:], strict=True):
        setattr(table, name, value)
    return table


def require_open(table: Table) -> None:
    if table.status != Table.Status.OPEN:
        raise TableNotOpen(f"{table.name} is {table.get_status_display().lower()}.")


def decision_write(decision: Decision, hand_id: int, index: int, seat: int) -> Write:
    """A decision appended to its hand's ``HandAction`` log, ready to send (``run``, or in the
    change's ``Batch``): the row ``HandAction.objects.create`` writes (``created_at`` as
    ``auto_now_add`` sets it), built from its values: an action's write makes no model
    instance, whose ``__init__`` and fields' ``pre_save`` cost more than the INSERT."""
    row = {
        "hand_id": hand_id,
        "index": index,
        "seat": seat,
        "kind": decision.kind,
        "amount": decision.amount,
        "cards": decision.cards,
        "source": decision.source,
        "created_at": timezone.now(),
    }
    return statements.insert_write(row, HandAction)


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
    before this one, sent with it in one trip; in a runtime's write (``lease_fenced``) that
    trip waits for the transaction's COMMIT, or for the next statement the write runs.
    """
    table.version += 1
    values = {field: getattr(table, field) for field in fields}
    write = statements.update_write(
        Table, {"pk": table.pk}, wait_for_disk=wait_for_disk, version=table.version, **values
    )
    writes = ahead if ahead is not None else Batch()
    writes.add(write)  # sent at once where a trip takes one statement (SQLite)
    fence = _fence.get()
    if writes.pending and fence is not None and fence.outermost and fence.table_id == table.pk:
        fence.send_tail()  # an earlier bump's, in its order
        fence.tail = writes  # a runtime's write: the bump goes with its COMMIT
    else:
        writes.send()
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
