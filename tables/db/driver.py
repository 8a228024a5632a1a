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

Rows made into model instances without the ORM's detours: a copy of a row (``row_copy``),
and a row from the values of a joined read (``from_row``), as the ORM would make them.

Writes of one transaction sent together (``Batch``): one trip instead of one each. An
action writes its log entry, the stacks it moved and the table's new version, all known
before the last of them is sent, and none read back before the commit. On PostgreSQL each
statement is a round trip that the table's write thread waits out, holding the row lock.
Django's psycopg cursor binds the parameters itself (unless ``server_side_binding``) and
sends the text in one simple query, which may hold several statements, run in order; so a
``Batch`` joins its writes' texts and parameters and sends them as one. An error in one
stops the rest, and the transaction rolls back as it would have. Elsewhere (SQLite's
driver runs one statement per call) each write is sent when it is added. What is queued is
not in the database until ``send``: nothing may read it before.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple, TypeVar
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import connections, models
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
    (of a field of ``_PLAIN``, of exactly its type, as the database's operations keep it; a
    None the field keeps), and for an aware UTC date-time (``timezone.now``'s) where it is
    given as it is or as its text (``_utc_moment``)."""
    steps: list[tuple[models.Field[Any, Any], type | None, bool, Convert | None]] = []
    for field in fields:
        # a foreign key's value is its target's (a whole number's: a text key's "" is NULL)
        target = field.target_field if type(field) is models.ForeignKey else field
        kind = _PLAIN.get(type(target))
        if target is not field and kind is not int:
            kind = None
        sample = _SAMPLES[kind] if kind is not None else None
        plain = kind is not None and field.get_db_prep_save(sample, connection) is sample
        keeps_none = field.get_db_prep_save(None, connection) is None
        steps.append((field, kind if plain else None, keeps_none, _utc_moment(field, connection)))

    def prep(values: Sequence[Any]) -> list[Any]:
        return [
            value
            if type(value) is kind or (value is None and keeps_none)
            else moment(value)
            if moment is not None and type(value) is datetime and value.tzinfo is UTC
            else field.get_db_prep_save(value, connection)
            for (field, kind, keeps_none, moment), value in zip(steps, values, strict=True)
        ]

    return prep


def _same(value: Any) -> Any:
    return value


def _utc_text(value: datetime) -> str:
    return str(value.replace(tzinfo=None))


def _utc_moment(field: models.Field[Any, Any], connection: BaseDatabaseWrapper) -> Convert | None:
    """What ``field``'s ``get_db_prep_save`` gives ``connection`` for an aware UTC date-time,
    where it is the value as it is (PostgreSQL's) or its text in UTC (SQLite's, whose dates
    are UTC's unless its ``TIME_ZONE`` says otherwise): the field's own steps (its checks, the
    conversion to the database's zone) change nothing then. None: another field, or another
    outcome."""
    if type(field) is not models.DateTimeField:
        return None
    samples = [datetime(2026, 12, 1, 3, 4, 5, 678_901, UTC), datetime(2026, 12, 1, 3, 4, 5, 0, UTC)]
    given = [field.get_db_prep_save(sample, connection) for sample in samples]
    if all(out is sample for out, sample in zip(given, samples, strict=True)):
        return _same
    if given == [_utc_text(sample) for sample in samples]:
        return _utc_text
    return None


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


M = TypeVar("M", bound=models.Model)

#: (database alias, vendor, "from row", model) -> its fields' names and conversions.
_shapes: dict[tuple[Any, ...], Any] = {}


def row_copy(row: M) -> M:
    """``copy.copy(row)``: the model instance's values in a new one, with a state of its own
    (its cache of related rows a copy too, as ``Model.__getstate__`` makes it), without the
    pickling protocol's detour (``Model.__reduce__``: a version stamp added and checked, each
    value looked at for a ``memoryview``), which cost a table's row as much as its read."""
    new = object.__new__(type(row))
    new.__dict__.update(row.__dict__)
    state = object.__new__(type(row._state))
    state.__dict__.update(
        (name, dict(value) if type(value) is dict else value)
        for name, value in row._state.__dict__.items()
    )
    new._state = state
    return new


def from_row(model: type[M], alias: str, values: Sequence[Any]) -> M:
    """``model`` from the values of its concrete fields' columns, in ``_meta`` order, as the
    database returned them (a joined row's part, read by ``select_values``), each converted
    by its field as the ORM would."""
    connection = connections[alias]
    key = (alias, connection.vendor, "from row", model)
    entry = _shapes.get(key)
    if entry is None:
        fields = model._meta.concrete_fields
        entry = _shapes[key] = (
            [f.attname for f in fields],
            column_converters(fields, connection),
        )
    names, converters = entry
    return model.from_db(alias, names, python_values(values, converters))


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

    def send(self, commit: bool = False) -> None:
        """Send what is queued, in one statement text, in the order it was added; ``commit``:
        the transaction's COMMIT at its end (the caller's transaction ends with this trip)."""
        if not self._texts:
            return
        assert self._connection is not None  # set with the first write queued
        text, params = "; ".join(self._texts), self._params
        if commit:
            text += "; COMMIT"
        self._texts, self._params = [], []
        with self._connection.cursor() as cursor:
            cursor.execute(text, params)

    @property
    def pending(self) -> int:
        """How many writes are queued, not yet sent."""
        return len(self._texts)
