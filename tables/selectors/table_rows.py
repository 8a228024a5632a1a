"""The rows a table's snapshot reads only when it reads the table whole
(``tables.selectors.snapshot``), each in one compiled query: its recent finished hands, and
its version alone (to see that nothing committed while the rest was read)."""

from __future__ import annotations

from typing import Any, NamedTuple

from django.db.models import QuerySet

from tables.db import statements
from tables.models import Hand, Table

#: How many finished hands the table page links to.
RECENT_HANDS = 8


class RecentHand(NamedTuple):
    """A finished hand the table page links to."""

    number: int
    pot: int


def recent_hands(table_id: int) -> tuple[RecentHand, ...]:
    """The table's last ``RECENT_HANDS`` finished hands, newest first."""
    return tuple(
        map(
            RecentHand._make,
            statements.select_values(
                Hand, "recent-hands", _recent_query, table_id, Hand.Status.FINISHED
            ),
        )
    )


def _recent_query(table_id: int, finished: str) -> QuerySet[Hand, tuple[int, int]]:
    return (
        Hand.objects.filter(table_id=table_id)
        .filter(status=finished)
        .order_by("-number")
        .values_list("number", "pot")[:RECENT_HANDS]
    )


def table_version(table_id: int) -> int | None:
    """The table's version now (None: no such table): one compiled query."""
    row = statements.select_values(Table, "snapshot-version", _version_query, table_id)
    return row[0][0] if row else None


def _version_query(table_id: int) -> QuerySet[Table, tuple[Any, ...]]:
    return Table.objects.filter(pk=table_id).order_by().values_list("version")[:1]
