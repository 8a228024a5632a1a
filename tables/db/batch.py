"""Writes of one transaction sent to the database together: one trip instead of one each.

An action writes its log entry, the stacks it moved and the table's new version, all known
before the last of them is sent, and none read back before the commit. On PostgreSQL each
statement is a round trip that the table's write thread waits out, holding the row lock.
Django's psycopg cursor binds the parameters itself (unless ``server_side_binding``) and
sends the text in one simple query, which may hold several statements, run in order; so a
``Batch`` joins its writes' texts and parameters and sends them as one. An error in one
stops the rest, and the transaction rolls back as it would have. Elsewhere (SQLite's
driver runs one statement per call) each write is sent when it is added.

What is queued is not in the database until ``send``: nothing may read it before.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from django.db.backends.base.base import BaseDatabaseWrapper


class Write(NamedTuple):
    """A write ready to send: the connection it goes to, its text and its parameters as the
    driver takes them."""

    connection: BaseDatabaseWrapper
    text: str
    params: Sequence[Any] | dict[str, Any]


def run(write: Write) -> int:
    """Send ``write`` on its own; returns the number of rows it changed."""
    with write.connection.cursor() as cursor:
        cursor.execute(write.text, write.params)
        return int(cursor.rowcount)


def joins_writes(connection: BaseDatabaseWrapper) -> bool:
    """Whether ``connection`` takes several statements in one query text: PostgreSQL with
    the parameters bound by Django's cursor (its default)."""
    return connection.vendor == "postgresql" and not connection.settings_dict.get(
        "OPTIONS", {}
    ).get("server_side_binding")


class Batch:
    """Writes queued in order and sent in one trip (``send``), on a database that takes
    them so (``joins_writes``); elsewhere each is sent when it is added. All of one
    database. The rows they change are not counted: for writes whose caller does not look."""

    __slots__ = ("_connection", "_joins", "_texts", "_params")

    def __init__(self) -> None:
        self._connection: BaseDatabaseWrapper | None = None
        self._joins = False
        self._texts: list[str] = []
        self._params: list[Any] = []

    def add(self, write: Write | None) -> None:
        """Queue ``write`` (None: nothing to write), or send it now where writes are not
        joined."""
        if write is None:
            return
        if write.connection is not self._connection:
            if self._connection is not None:
                raise ValueError("a batch's writes go to one database connection")
            self._connection, self._joins = write.connection, joins_writes(write.connection)
        if not self._joins or isinstance(write.params, dict):  # named: SQLite's
            run(write)
            return
        self._texts.append(write.text)
        self._params.extend(write.params)

    def send(self) -> None:
        """Send what is queued, in one statement text, in the order it was added."""
        if not self._texts:
            return
        assert self._connection is not None  # set with the first write queued
        text, params = "; ".join(self._texts), self._params
        self._texts, self._params = [], []
        with self._connection.cursor() as cursor:
            cursor.execute(text, params)

    @property
    def pending(self) -> int:
        """How many writes are queued, not yet sent."""
        return len(self._texts)
