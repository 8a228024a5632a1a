"""How the values a statement read come back from the database's driver: to what the ORM
gives for them (``tables.db.statements``' reads, which run the ORM's SQL without it).

Each field's ``from_db_value`` (the documented hook: a JSON field's text decoded), a naive
date-time made aware in the database's zone, an expression's 0 or 1 a bool (SQLite).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field

#: Turns one value as the database driver returns it into the field's Python value.
Convert = Callable[[Any], Any]


def _zone(connection: BaseDatabaseWrapper) -> ZoneInfo | None:
    """The zone of the naive date-times the database returns (SQLite's, which stores them in
    UTC unless its ``TIME_ZONE`` setting says otherwise); None without ``USE_TZ``."""
    if not settings.USE_TZ:
        return None
    return ZoneInfo(settings.DATABASES[connection.alias].get("TIME_ZONE") or "UTC")


def _aware_in(zone: ZoneInfo | None) -> Convert:
    """A value as read, made aware in ``zone`` if it is a naive date-time: what the ORM does
    with a column of a date-time field on a database without time zones."""

    def aware(value: Any) -> Any:
        if zone is not None and type(value) is datetime and value.tzinfo is None:
            return value.replace(tzinfo=zone)
        return value

    return aware


def _converter(field: Field[Any, Any] | None, connection: BaseDatabaseWrapper) -> Convert | None:
    """How a column of ``field`` (None: a column whose field is not known) comes back from
    the driver to the value the ORM gives: the field's ``from_db_value`` (the documented hook:
    a JSON field's text decoded), a date-time made aware, an expression's 0 or 1 a bool
    (SQLite); None when the driver's value is it already."""
    if field is None:
        return _aware_in(_zone(connection))
    from_db_value = getattr(field, "from_db_value", None)
    if from_db_value is not None:
        return lambda value: from_db_value(value, None, connection)
    if isinstance(field, models.DateTimeField):
        aware = _aware_in(_zone(connection))
        return lambda value: aware(field.to_python(value) if isinstance(value, str) else value)
    if isinstance(field, models.BooleanField):
        return lambda value: value if value is None else bool(value)
    return None


def column_converters(
    fields: Iterable[Field[Any, Any] | None], connection: BaseDatabaseWrapper
) -> list[tuple[int, Convert]]:
    """(column index, conversion) of each column of ``fields`` that needs one."""
    found = ((index, _converter(field, connection)) for index, field in enumerate(fields))
    return [(index, convert) for index, convert in found if convert is not None]


def python_values(row: Sequence[Any], converters: list[tuple[int, Convert]]) -> list[Any]:
    """``row``'s values, those of the columns ``converters`` names converted."""
    values = list(row)
    for index, convert in converters:
        values[index] = convert(values[index])
    return values


def aware_rows(
    rows: list[tuple[Any, ...]], connection: BaseDatabaseWrapper
) -> list[tuple[Any, ...]]:
    """``rows`` with each naive date-time made aware (columns of unknown fields)."""
    zone = _zone(connection)
    if zone is None:
        return rows
    aware = _aware_in(zone)
    return [
        tuple(map(aware, row))
        if any(type(value) is datetime and value.tzinfo is None for value in row)
        else row
        for row in rows
    ]
