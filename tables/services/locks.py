"""The table row lock every service takes first."""

from __future__ import annotations

from typing import Literal, overload

from tables.db import statements
from tables.models import Table
from tables.services.errors import TableNotOpen


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
    return statements.lock_row(Table, pk, skip_locked=skip_locked)


def require_open(table: Table) -> None:
    if table.status != Table.Status.OPEN:
        raise TableNotOpen(f"{table.name} is {table.get_status_display().lower()}.")
