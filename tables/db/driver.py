"""Statements run again and again (``tables.db.statements``) as the database's driver takes
them at least cost, and the values they write and read as the ORM would give them.

Django's SQLite cursor rewrites a statement's ``%s`` placeholders ("format" style) to
SQLite's with a regular expression over the whole statement, on every run: for a whole table
row's SELECT (every action's lock) a good part of what the read costs. Named ones
("pyformat", ``%(p0)s``, which Django documents for its cursors) it fills in with one string
formatting instead. Other databases' statements stay as Django writes them.

The values written: a field's ``get_db_prep_save`` costs a few calls per value, while most
of those written (whole numbers, truths, text) reach the driver as they were given
(``prep_save``: for the inserts, ``statements.insert_many``). The values read
(``column_converters``, ``python_values``, ``aware_rows``): each field's ``from_db_value``
(the documented hook: a JSON field's text decoded), a naive date-time made aware in the
database's zone, an expression's 0 or 1 a bool (SQLite).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any, NamedTuple
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field

#: Django's own fields, of exactly these classes, whose ``get_db_prep_save`` hands a value of
#: exactly this type back as it is unless the database's operations adapt it (PostgreSQL's
#: whole numbers are given a size: checked per database, ``prep_save``).
_PLAIN: dict[type[models.Field[Any, Any]], type] = {
    **dict.fromkeys((models.AutoField, models.BigAutoField, models.SmallAutoField), int),
    **dict.fromkeys((models.IntegerField, models.SmallIntegerField, models.BigIntegerField), int),
    models.PositiveIntegerField: int,
    models.PositiveSmallIntegerField: int,
    models.PositiveBigIntegerField: int,
    models.BooleanField: bool,
    models.FloatField: float,
    models.CharField: str,
    models.TextField: str,
}
_SAMPLES: dict[type, Any] = {int: 7_346_120_001, bool: True, float: 0.5, str: "plain"}

#: A "format" placeholder as Django writes them (``%%s`` is a literal ``%s``).
_FORMAT_PLACEHOLDER = re.compile(r"(?<!%)%s")


class Prepared(NamedTuple):
    """A statement to run again and again: its text, and the names of its placeholders in
    the order of its parameters (None: Django's ``%s`` ones)."""

    text: str
    names: tuple[str, ...] | None

    def params(self, values: Sequence[Any]) -> Sequence[Any] | dict[str, Any]:
        """The statement's parameters ``values`` (in order) as its text takes them."""
        if self.names is None:
            return values
        return dict(zip(self.names, values, strict=True))


def prepared(connection: BaseDatabaseWrapper, sql: str) -> Prepared:
    """``sql`` (Django's "format" style) to be run again and again on ``connection``: on
    SQLite with named placeholders, elsewhere as it is."""
    if connection.vendor != "sqlite":
        return Prepared(sql, None)
    count = itertools.count()
    text = _FORMAT_PLACEHOLDER.sub(lambda _: f"%(p{next(count)})s", sql)
    return Prepared(text, tuple(f"p{n}" for n in range(next(count))))


def prep_save(
    connection: BaseDatabaseWrapper, fields: Sequence[models.Field[Any, Any]]
) -> Callable[[Sequence[Any]], list[Any]]:
    """What turns the values of ``fields`` (in order) into what ``connection`` is given for
    them: each field's ``get_db_prep_save``, left out for a value that it hands back as it is
    (of a field of ``_PLAIN``, of exactly its type, as the database's operations keep it)."""
    kinds: list[type | None] = []
    for field in fields:
        # a foreign key's value is its target's (a whole number's: a text key's "" is NULL)
        target = field.target_field if type(field) is models.ForeignKey else field
        kind = _PLAIN.get(type(target))
        if target is not field and kind is not int:
            kind = None
        sample = _SAMPLES[kind] if kind is not None else None
        plain = kind is not None and field.get_db_prep_save(sample, connection) is sample
        kinds.append(kind if plain else None)
    steps = list(zip(fields, kinds, strict=True))

    def prep(values: Sequence[Any]) -> list[Any]:
        return [
            value if type(value) is kind else field.get_db_prep_save(value, connection)
            for (field, kind), value in zip(steps, values, strict=True)
        ]

    return prep


# --- the values read ------------------------------------------------------------------------

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
