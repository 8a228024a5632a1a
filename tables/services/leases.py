"""Who runs a live table: the lease of ``TableLease`` (taken, renewed, checked, given up).

A table's runtime (``tables.live.runtime``) acts on its table only while its process holds the
table's lease. Why a lease row and not a PostgreSQL advisory lock: an advisory lock lives as
long as its database connection, which Django's threads open, reuse and drop on their own,
and which the server may keep for minutes after the process that held it stopped answering
(a half-open TCP connection); a lease expires at a time everyone can read, works the same on
SQLite (the embedded set-up), and is checked inside each action's own transaction
(``lease_fenced``), its row locked until the commit, so an owner that lost it cannot commit
anything: no two processes ever write one table through its runtime.

Times are the servers' clocks (``timezone.now``): hosts keep them in step (NTP); an owner
stops acting ``LEASE_MARGIN_SECONDS`` before its lease expires by its own clock.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any, TypeVar

from django.db import IntegrityError, connection, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import F, Q, QuerySet
from django.db.transaction import Atomic
from django.utils import timezone

from tables.db import statements
from tables.db.driver import prep_save
from tables.models import Table, TableLease
from tables.services.errors import ServiceError

T = TypeVar("T")

#: This process's name in the leases it holds.
PROCESS = f"{socket.gethostname()}:{os.getpid()}:{os.urandom(3).hex()}"
#: How long a lease lasts unless renewed.
LEASE_SECONDS = 5.0
#: How long before its expiry an owner stops acting unless it renewed it meanwhile.
LEASE_MARGIN_SECONDS = 1.5
MOVING = "The table is moving to another server: nothing was done, try again."


class LeaseLost(ServiceError):
    """The process no longer runs the table: nothing was written."""

    code = "table_moving"


def _until(now: datetime) -> datetime:
    return now + timedelta(seconds=LEASE_SECONDS)


def lease_take(table_id: int, owner: str, channel: str, now: datetime | None = None) -> int | None:
    """Take ``table_id``'s lease for ``owner`` (its runtime there listens on ``channel``) if it
    is free, expired or already ``owner``'s; returns its epoch, None if another process holds
    it (or there is no such table). The epoch is bumped each time the lease changes hands,
    not when its owner takes it again (a late renewal): its actions under way stay valid."""
    now = now or timezone.now()
    free = Q(owner="") | Q(until__isnull=True) | Q(until__lt=now)
    with transaction.atomic():
        taken = (
            TableLease.objects.filter(table_id=table_id)
            .filter(free)
            .exclude(owner=owner)
            .update(owner=owner, channel=channel, until=_until(now), epoch=F("epoch") + 1)
        )
        if not taken:
            taken = TableLease.objects.filter(table_id=table_id, owner=owner).update(
                channel=channel, until=_until(now)
            )
        if not taken:
            if TableLease.objects.filter(table_id=table_id).exists():
                return None
            if not Table.objects.filter(pk=table_id).exists():
                return None
            try:
                with transaction.atomic():
                    TableLease.objects.create(
                        table_id=table_id, owner=owner, channel=channel, until=_until(now), epoch=1
                    )
            except IntegrityError:  # another process created it first
                return None
        epoch: int | None = (
            TableLease.objects.filter(table_id=table_id, owner=owner)
            .values_list("epoch", flat=True)
            .first()
        )
        return epoch


def leases_renew(table_ids: list[int], owner: str, now: datetime | None = None) -> set[int]:
    """Renew ``owner``'s leases of ``table_ids`` that it still holds (one statement); returns
    the tables it holds. A lease that ran out with nobody taking it (the loop stalled past
    its expiry) is still ``owner``'s, at the same epoch: renewed as it is, as ``lease_take``
    would take it again, for nobody else can have written the table meanwhile (taking it
    changes its owner)."""
    if not table_ids:
        return set()
    now = now or timezone.now()
    held = Q(table_id__in=table_ids, owner=owner)
    with transaction.atomic():
        TableLease.objects.filter(held).update(until=_until(now))
        return set(TableLease.objects.filter(held).values_list("table_id", flat=True))


def lease_hold(table_id: int, owner: str, epoch: int, now: datetime | None = None) -> bool:
    """Inside a write's transaction: whether ``owner`` still holds the lease it took at
    ``epoch`` (renewing it, its row locked until the commit). False: another process took the
    table, nothing may be written. ``lease_fenced`` runs it where the work did not check the
    lease with its lock of the table (``fenced_table_lock``)."""
    now = now or timezone.now()
    ops = connection.ops
    with connection.cursor() as cursor:  # one statement, built once
        cursor.execute(
            _hold_sql(connection.vendor),
            [
                ops.adapt_datetimefield_value(_until(now)),
                table_id,
                owner,
                epoch,
                ops.adapt_datetimefield_value(now),
            ],
        )
        return bool(cursor.rowcount)


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
    own."""
    with transaction.atomic():
        fence = _Fence(table_id, owner, epoch, len(transaction.get_connection().savepoint_ids))
        token = _fence.set(fence)
        try:
            result = work()
        finally:
            _fence.reset(token)
        if fence.held is False:  # lost, and the work swallowed the refusal
            raise LeaseLost(MOVING)
        # a work whose error was swallowed commits nothing: Django runs no more queries
        unchecked = fence.held is None and not transaction.get_connection().needs_rollback
        if unchecked and not lease_hold(table_id, owner, epoch):
            raise LeaseLost(MOVING)
        return result


def fenced_table_pending(table_id: int) -> bool:
    """Whether the table's row is locked for the first time inside ``lease_fenced``'s work:
    ``fenced_table_lock`` then locks it with the lease."""
    fence = _fence.get()
    return fence is not None and not fence.looked and fence.table_id == table_id


def fenced_table_lock(table_id: int, *, skip_locked: bool = False) -> Table | None:
    """``statements.lock_row(Table, table_id)`` inside ``lease_fenced``, its lease checked in
    the same statement: the table's row read where the lease's owner and epoch are the
    fence's and it has not expired, both rows locked (PostgreSQL's ``FOR UPDATE`` of a join;
    SQLite's transaction holds the database's write lock). It is not renewed: each loop's
    clock does that every second (``leases_renew``). ``LeaseLost`` when it is not held.

    ``skip_locked``: None at once when another transaction holds the table's row; as a row
    skipped looks like a lease lost, the lease is then looked at on its own."""
    fence, outside_savepoints, now, params = _fence_at_lock(table_id)

    def build(table_id: int, owner: str, epoch: int, _: object) -> QuerySet[Table]:
        return _lease_held_row(table_id, owner, epoch, now, skip_locked)

    found = statements.select_first(Table, f"lease-held-table {skip_locked}", build, *params)
    held = found is not None or (
        skip_locked and lease_hold(table_id, fence.owner, fence.epoch, now)
    )
    if found is None and held:  # skipped: another transaction holds the row
        found = statements.lock_row(Table, table_id, skip_locked=True)
    _locked(fence, outside_savepoints, held)
    return found


def fenced_table_values(table_id: int, columns: tuple[str, ...]) -> tuple[Any, ...]:
    """``fenced_table_lock`` that reads only ``columns`` of the table's row (as the driver
    gives them): for a runtime that holds the rest of the row at the version it reads
    (``tables.services.events.table_lock_held``). ``LeaseLost`` when the lease is not held."""
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
    calls for a time now (``driver.prep_save``): every runtime's write checks the lease."""
    key = (connection.alias, connection.vendor)
    prep = _until_preps.get(key)
    if prep is None:
        prep = _until_preps[key] = prep_save(connection, [TableLease._meta.get_field("until")])
    return prep


@lru_cache(maxsize=4)
def _hold_sql(vendor: str) -> str:
    meta, quote = TableLease._meta, connection.ops.quote_name
    column = {field.name: quote(field.column or field.name) for field in meta.concrete_fields}
    return (
        f"UPDATE {quote(meta.db_table)} SET {column['until']} = %s WHERE {column['table']} = %s"
        f" AND {column['owner']} = %s AND {column['epoch']} = %s AND {column['until']} >= %s"
    )


def lease_release(table_ids: list[int], owner: str) -> None:
    """Give up ``owner``'s leases of ``table_ids`` (its runtimes there ended): another process
    may take them at once."""
    if table_ids:
        TableLease.objects.filter(table_id__in=table_ids, owner=owner).update(owner="", until=None)


def held_elsewhere(table_id: int) -> bool:
    """Whether another process runs ``table_id`` now (its clock is that process's to run)."""
    row = TableLease.objects.filter(table_id=table_id).values_list("owner", "until").first()
    return row is not None and held_by_another(*row, timezone.now())


def held_by_another(owner: str | None, until: datetime | None, now: datetime) -> bool:
    """Whether a lease row read as ``owner`` and ``until`` (None: no row) is another
    process's, live at ``now``: the one rule, for a lease read alone (``held_elsewhere``) or
    with its table (``clock.tables_due_at``)."""
    return bool(owner) and owner != PROCESS and until is not None and until >= now


def lease_owner(table_id: int, now: datetime | None = None) -> tuple[str, str] | None:
    """The process that holds ``table_id``'s lease now and its runtime's channel (None:
    nobody)."""
    now = now or timezone.now()
    held: tuple[str, str] | None = (
        TableLease.objects.filter(table_id=table_id, until__gte=now)
        .exclude(owner="")
        .values_list("owner", "channel")
        .first()
    )
    return held
