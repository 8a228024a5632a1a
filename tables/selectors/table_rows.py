"""The rows a table's snapshot reads only when it reads the table whole
(``tables.selectors.snapshot``), each in one compiled query: its recent finished hands, and
its version alone (to see that nothing committed while the rest was read); and every
table's version at once, for each event loop's clock (``tables.live.ownership``)."""

from __future__ import annotations

from typing import Any, NamedTuple

from django.db.models import QuerySet

from tables.db import statements
from tables.db.rows import IDS_AT_ONCE, select_values_by_ids
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


def table_versions(table_ids: list[int]) -> dict[int, int]:
    """Each table's version now. Every loop's clock asks it each second, of all its tables:
    compiled statements (one per count of tables up to ``IDS_AT_ONCE``), not a query
    the ORM writes again at each pass."""
    versions: dict[int, int] = {}
    at_once = IDS_AT_ONCE
    for start in range(0, len(table_ids), at_once):
        ids = table_ids[start : start + at_once]
        key = f"table-versions-{len(ids)}"
        versions.update(select_values_by_ids(Table, key, _versions_of, *ids))
    return versions


def _versions_of(*table_ids: int) -> QuerySet[Table, tuple[int, int]]:
    return Table.objects.filter(pk__in=table_ids).values_list("pk", "version")
