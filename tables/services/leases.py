"""Who runs a live table: the lease of ``TableLease`` (taken, renewed, checked, given up).

A table's runtime (``tables.live.runtime``) acts on its table only while its process holds the
table's lease. Why a lease row and not a PostgreSQL advisory lock: an advisory lock lives as
long as its database connection, which Django's threads open, reuse and drop on their own,
and which the server may keep for minutes after the process that held it stopped answering
(a half-open TCP connection); a lease expires at a time everyone can read, works the same on
SQLite (the embedded set-up), and is checked inside each action's own transaction
(``tables.services.events.lease_fenced``), its row locked until the commit, so an owner that
lost it cannot commit anything: no two processes ever write one table through its runtime.

Times are the servers' clocks (``timezone.now``): hosts keep them in step (NTP); an owner
stops acting ``LEASE_MARGIN_SECONDS`` before its lease expires by its own clock.
"""

from __future__ import annotations

import os
import socket
from datetime import datetime, timedelta
from functools import lru_cache
from typing import TypeVar

from django.db import IntegrityError, connection, transaction
from django.db.models import F, Q
from django.utils import timezone

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
    until = connection.ops.adapt_datetimefield_value(_until(now))
    with connection.cursor() as cursor:  # one statement, written once per number of tables
        cursor.execute(_renew_sql(connection.vendor, len(table_ids)), [until, owner, *table_ids])
        return {row[0] for row in cursor.fetchall()}


@lru_cache(maxsize=64)
def _renew_sql(vendor: str, count: int) -> str:
    """``leases_renew``'s UPDATE of ``count`` tables, returning those renewed (PostgreSQL and
    SQLite both return the rows an UPDATE changed)."""
    table, column = _lease_names()
    return (
        f"UPDATE {table} SET {column['until']} = %s WHERE {column['owner']} = %s"
        f" AND {column['table']} IN ({', '.join(['%s'] * count)}) RETURNING {column['table']}"
    )


def lease_hold(table_id: int, owner: str, epoch: int, now: datetime | None = None) -> bool:
    """Inside a write's transaction: whether ``owner`` still holds the lease it took at
    ``epoch`` (renewing it, its row locked until the commit). False: another process took the
    table, nothing may be written. ``tables.services.events.lease_fenced`` runs it where the
    work did not check the lease with its lock of the table (``fenced_table_lock``)."""
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


def _lease_names() -> tuple[str, dict[str, str]]:
    """The lease table's name and its columns' by field, quoted for the database."""
    meta, quote = TableLease._meta, connection.ops.quote_name
    return quote(meta.db_table), {
        field.name: quote(field.column or field.name) for field in meta.concrete_fields
    }


@lru_cache(maxsize=4)
def _hold_sql(vendor: str) -> str:
    table, column = _lease_names()
    return (
        f"UPDATE {table} SET {column['until']} = %s WHERE {column['table']} = %s"
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
    return lease_owners([table_id], now).get(table_id)


def lease_owners(table_ids: list[int], now: datetime | None = None) -> dict[int, tuple[str, str]]:
    """``lease_owner`` of each of ``table_ids`` that somebody holds, in one query (every
    loop's clock asks it each second of the tables it follows)."""
    now = now or timezone.now()
    rows = (
        TableLease.objects.filter(table_id__in=table_ids, until__gte=now)
        .exclude(owner="")
        .values_list("table_id", "owner", "channel")
    )
    return {table_id: (owner, channel) for table_id, owner, channel in rows}
