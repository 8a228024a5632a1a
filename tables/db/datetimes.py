"""The date-times a database without time zones (SQLite) returns naive, made aware as the
ORM makes them: for the reads written once (``tables.db.statements``, ``tables.db.rows``),
which take the driver's values without the ORM's converters."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db.backends.base.base import BaseDatabaseWrapper


def database_zone(connection: BaseDatabaseWrapper) -> ZoneInfo | None:
    """The zone of the naive date-times the database returns (SQLite's, which stores them in
    UTC unless its ``TIME_ZONE`` setting says otherwise); None without ``USE_TZ``."""
    if not settings.USE_TZ:
        return None
    return ZoneInfo(settings.DATABASES[connection.alias].get("TIME_ZONE") or "UTC")


def aware_in(zone: ZoneInfo | None) -> Callable[[Any], Any]:
    """A value as read, made aware in ``zone`` if it is a naive date-time: what the ORM does
    with a column of a date-time field on a database without time zones."""

    def aware(value: Any) -> Any:
        if zone is not None and type(value) is datetime and value.tzinfo is None:
            return value.replace(tzinfo=zone)
        return value

    return aware


def aware_rows(
    rows: list[tuple[Any, ...]], connection: BaseDatabaseWrapper
) -> list[tuple[Any, ...]]:
    """``rows`` with each naive date-time made aware (columns of unknown fields)."""
    zone = database_zone(connection)
    if zone is None:
        return rows
    aware = aware_in(zone)
    return [
        tuple(map(aware, row))
        if any(type(value) is datetime and value.tzinfo is None for value in row)
        else row
        for row in rows
    ]
