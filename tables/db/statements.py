"""The statements every player action runs, each written once instead of on every call,
and sent as the database's driver takes them at least cost.

The ORM builds the SQL of a query anew each time it runs it; for the statements of a player's
action (lock the table row, append to the hand's log, move a stack, bump the table's version)
that cost several times what the database took to run them, on the thread that runs the
table's writes. Here each statement's SQL is written once per database and run again with
new parameters: the writes' from the model's ``_meta`` (table and column names, quoted by
the backend), the reads' by the ORM itself the first time they run (``execute_wrapper``).
Each function behaves as the ORM call it stands for (named in its docstring); the writes,
like it, run inside the caller's transaction. Django's public API only (``Model._meta``, the
field methods a custom field implements, ``execute_wrapper``, ``Model.from_db``).

The driver's side: Django's SQLite cursor rewrites a statement's ``%s`` placeholders
("format" style) with a regular expression over the whole statement on every run; named
ones ("pyformat", ``%(p0)s``, which Django documents for its cursors) it fills in with one
string formatting (``prepared``). The values written go through each field's
``get_db_prep_save``, left out where it hands them back as they are (``prep_save``). The
writes come ready to send (``insert_write``, ``update_write``, ``update_each_write``), and a
``Batch`` sends several of one transaction in one trip on PostgreSQL (Django's psycopg cursor
binds the parameters itself and sends the text as one simple query, run in order; an error
stops the rest and the transaction rolls back as it would have); SQLite's driver runs one
statement a call, so there each is sent when it is added. What is queued is not in the
database until ``send``: nothing may read it before.

Whole rows as model instances (read, created, deleted) are ``tables.db.rows``'; the naive
date-times SQLite returns made aware, ``tables.db.datetimes``'.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple, TypeVar

from django.db import connections, models, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, QuerySet

from tables.db.datetimes import aware_rows

M = TypeVar("M", bound=models.Model)


#: Builds the queryset of a read from its parameters.
Build = Callable[..., QuerySet[Any, Any]]


#: (database alias, vendor, what) -> the statement (its SQL and what reads or writes it, a
#: different tuple per kind of statement); a handful of entries.
compiled: dict[tuple[Any, ...], Any] = {}


def write_connection(model: type[models.Model]) -> BaseDatabaseWrapper:
    """The connection ``model``'s writes go to (the router's)."""
    return connections[router.db_for_write(model)]


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


# --- The writes, compiled once from the models' ``_meta`` -----------------------------------


def insert_write(obj: Any, model: type[models.Model] | None = None) -> Write:
    """``tables.db.rows.insert(obj)`` ready to send (``run``, or with others: ``Batch``);
    ``model``: ``obj`` is its row's values, as ``rows.insert_many`` takes them."""
    given, model = model is not None, model or type(obj)
    connection = write_connection(model)
    sql, fields, prep = insert_compiled(connection, model, False)
    return Write(connection, sql.text, sql.params(insert_values(obj, given, model, fields, prep)))


def insert_values(
    obj: Any,
    given: bool,
    model: type[models.Model],
    fields: list[Field[Any, Any]],
    prep: Callable[[Sequence[Any]], list[Any]],
) -> list[Any]:
    """One row's values for ``insert_compiled``'s INSERT, prepared for the database:
    ``obj`` a ``model`` instance, or (``given``) its row's values by field ``attname``."""
    if (len(obj) != len(fields)) if given else (type(obj) is not model):
        raise ValueError(f"insert: a {type(obj).__name__} among {model.__name__} rows")
    return prep([obj[f.attname] if given else f.pre_save(obj, True) for f in fields])


def insert_compiled(
    connection: BaseDatabaseWrapper, model: type[models.Model], returning: bool, rows: int = 1
) -> tuple[Prepared, list[Field[Any, Any]], Callable[[Sequence[Any]], list[Any]]]:
    """The INSERT of ``rows`` ``model`` rows (its SQL, its fields, their values' preparation)."""
    if returning and rows != 1:
        raise ValueError("insert: a key is read back for one row only")
    key = (connection.alias, connection.vendor, "insert", model, returning, rows)
    entry = compiled.get(key)
    if entry is None:
        quote = connection.ops.quote_name
        # every column but the one the database numbers (a key given, as a hand's, is written)
        fields = [f for f in model._meta.concrete_fields if f is not model._meta.auto_field]
        row = f"({', '.join(['%s'] * len(fields))})"
        sql = prepared(
            connection,
            f"INSERT INTO {quote(model._meta.db_table)} "
            f"({', '.join(quote(column_of(f)) for f in fields)}) "
            f"VALUES {', '.join([row] * rows)}"
            + (f" RETURNING {quote(column_of(model._meta.pk))}" if returning else ""),
        )
        entry = compiled[key] = (sql, fields, prep_save(connection, fields))
    return entry


def update(
    model: type[models.Model], where: dict[str, Any], *, wait_for_disk: bool = True, **values: Any
) -> int:
    """``model.objects.filter(**where).update(**values)``: ``update_write`` sent."""
    return run(update_write(model, where, wait_for_disk=wait_for_disk, **values))


def update_write(
    model: type[models.Model], where: dict[str, Any], *, wait_for_disk: bool = True, **values: Any
) -> Write:
    """``model.objects.filter(**where).update(**values)`` for equality filters on fields of
    ``model`` itself (``table_id=3``; None: ``IS NULL``; a list, not empty: ``pk__in``, compiled
    per length), ready to send (``run`` returns the number of rows changed).

    ``wait_for_disk`` False: the caller's transaction then commits without waiting for its log
    record to reach the disk: PostgreSQL's ``synchronous_commit = off``, for this transaction
    only, set in the same trip to the database as the UPDATE (a ``SET LOCAL`` after it in one
    query text: Django's psycopg cursor binds parameters itself and sends the text in one
    simple query, whose first result gives the rows changed). Its own statement cost each
    move a round trip more to the server.

    For the moves of a hand still being played (``hands._after_change``), the bulk of all
    writes: a crash of the database server itself (not of a server process) can then undo
    its last fraction of a second of them, whole transactions only, so the hand resumes a
    move or two earlier with every chip where it was. A hand's end and every movement of a
    bankroll keep waiting for the disk. Waiting on every move held the table's write thread
    and put the flushes' hiccups into every action's latency (docs/benchmarks.md, "The live
    server under load"). SQLite in WAL mode with ``synchronous=NORMAL`` commits all this way.
    """
    connection = write_connection(model)
    nulls = tuple(name for name, value in where.items() if value is None)
    equal = {name: value for name, value in where.items() if value is not None}
    sizes = tuple(len(value) if type(value) is list else 0 for value in equal.values())
    no_wait = not wait_for_disk and connection.vendor == "postgresql"
    key = (
        connection.alias, connection.vendor, "update", model, tuple(values), tuple(where), nulls,
        no_wait, sizes,
    )  # fmt: skip
    entry = compiled.get(key)
    if entry is None:
        quote = connection.ops.quote_name
        set_fields = [_own_field(model, name) for name in values]
        fields = [(_own_field(model, name), size) for name, size in zip(equal, sizes, strict=True)]
        where_fields = [field for field, size in fields for _ in range(size or 1)]
        conditions = [
            f"{quote(column_of(f))} " + (f"IN ({', '.join(['%s'] * size)})" if size else "= %s")
            for f, size in fields
        ] + [f"{quote(column_of(_own_field(model, name)))} IS NULL" for name in nulls]
        text = (
            f"UPDATE {quote(model._meta.db_table)} SET "
            f"{', '.join(f'{quote(column_of(f))} = %s' for f in set_fields)} WHERE "
            f"{' AND '.join(conditions)}"
        ) + ("; SET LOCAL synchronous_commit TO OFF" if no_wait else "")
        prep = prep_save(connection, [*set_fields, *where_fields])
        entry = compiled[key] = (prepared(connection, text), prep)
    sql, prep = entry
    wheres = [v for one in equal.values() for v in (one if type(one) is list else [one])]
    return Write(connection, sql.text, sql.params(prep([*values.values(), *wheres])))


def update_each(
    model: type[models.Model], where: dict[str, Any], key: str, column: str, values: dict[Any, Any]
) -> int:
    """``update_each_write`` sent (none when there is nothing to write)."""
    write = update_each_write(model, where, key, column, values)
    return run(write) if write is not None else 0


def update_each_write(
    model: type[models.Model], where: dict[str, Any], key: str, column: str, values: dict[Any, Any]
) -> Write | None:
    """``model.objects.filter(**where, **{key: k}).update(**{column: v})`` for each ``k: v``
    of ``values``, in one statement (a ``CASE`` on ``key``, as ``bulk_update`` writes it),
    compiled once per number of rows, ready to send; None when ``values`` is empty."""
    if not values:
        return None
    connection = write_connection(model)
    meta = model._meta
    cache_key = (
        connection.alias, connection.vendor, "update each", model, tuple(where), key, column,
        len(values),
    )  # fmt: skip
    entry = compiled.get(cache_key)
    if entry is None:
        quote = connection.ops.quote_name
        key_field, set_field = _own_field(model, key), _own_field(model, column)
        where_fields = [_own_field(model, name) for name in where]
        case = f"CASE {quote(column_of(key_field))}{' WHEN %s THEN %s' * len(values)} END"
        if connection.vendor == "postgresql":  # its CASE of parameters is text: as bulk_update
            case = f"CAST({case} AS {set_field.db_type(connection)})"
        text = (
            f"UPDATE {quote(meta.db_table)} SET {quote(column_of(set_field))} = {case} WHERE "
            f"{' AND '.join(f'{quote(column_of(f))} = %s' for f in where_fields)} AND "
            f"{quote(column_of(key_field))} IN ({', '.join(['%s'] * len(values))})"
        )
        # the parameters in order: each key and its value, the conditions, the keys again
        order = [key_field, set_field] * len(values) + where_fields + [key_field] * len(values)
        entry = compiled[cache_key] = (prepared(connection, text), prep_save(connection, order))
    sql, prep = entry
    pairs = [item for pair in values.items() for item in pair]
    params = prep([*pairs, *where.values(), *values])
    return Write(connection, sql.text, sql.params(params))


def column_of(field: Field[Any, Any]) -> str:
    if field.column is None:  # only a field with no column of its own (a relation's far side)
        raise ValueError(f"{field.name} has no column")
    return field.column


def _own_field(model: type[models.Model], name: str) -> Field[Any, Any]:
    """A concrete column of ``model`` itself (``pk``: its primary key)."""
    field = model._meta.pk if name == "pk" else model._meta.get_field(name)
    if not isinstance(field, Field):
        raise ValueError(f"{model.__name__}.{name} is not a column of its own")
    return field


# --- The reads of values, written by the ORM the first time ---------------------------------


#: Turns one value as the database driver returns it into the field's Python value.
Convert = Callable[[Any], Any]


def query_of(
    model: type[models.Model], key: str, queryset: QuerySet[Any, Any]
) -> QuerySet[Any, Any]:
    if queryset.model is not model:
        raise ValueError(f"{key}: a query of {queryset.model.__name__}, not {model.__name__}")
    return queryset


class Ran(NamedTuple):
    """A statement the ORM wrote and ran, with what it returned as the driver returned it."""

    sql: str
    params: tuple[Any, ...]
    rows: list[tuple[Any, ...]]
    columns: list[str]


def run_once(queryset: QuerySet[Any, Any], connection: BaseDatabaseWrapper) -> Ran | None:
    """Run ``queryset`` through the ORM and take the statement it ran (its SQL and parameters
    as Django hands them to the database's cursor) and its rows, unconverted, as the later
    runs of the statement get them (an execute wrapper reads them off the cursor: the ORM
    finds none left). None when it ran none (a query Django knows to be empty). Refuses a
    query of more than one statement, or of another database than ``connection``."""
    if queryset.db != connection.alias:
        raise ValueError(f"a query of the database {queryset.db!r}, not {connection.alias!r}")
    seen: list[Ran] = []

    def take(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        result = execute(sql, params, many, context)
        cursor = context["cursor"]
        columns = [column[0] for column in cursor.description or ()]
        seen.append(Ran(sql, tuple(params or ()), cursor.fetchall(), columns))
        return result

    with connection.execute_wrapper(take):
        list(queryset)
    if len(seen) > 1:
        raise ValueError(f"a query of {len(seen)} statements, not one")
    return seen[0] if seen else None


def select_values(
    model: type[models.Model], key: str, build: Build, *params: Any, aware: bool = True
) -> list[tuple[Any, ...]]:
    """``list(build(*params))`` for a ``values_list()`` query of ``model`` (a read): the rows
    as tuples, date-times aware (not ``aware``: as the driver gives them, for a caller that
    converts them, ``tables.db.rows.from_row``). ``build`` returns the queryset for the given
    parameters, which must be the query's only SQL parameters, in order; ``key`` names its
    shape (one statement per key). The other values are the driver's: a JSON column is its
    text, and on SQLite an expression's truth is 0 or 1."""
    connection = connections[router.db_for_read(model)]
    cache_key = (connection.alias, connection.vendor, "select", key)
    sql = compiled.get(cache_key)
    if sql is None:
        ran = run_once(query_of(model, key, build(*params)), connection)
        if ran is None:
            return []
        if ran.params != params:
            raise ValueError(f"{key}: the query's parameters are not exactly {params!r}")
        compiled[cache_key] = prepared(connection, ran.sql)
        return aware_rows(ran.rows, connection) if aware else ran.rows
    with connection.cursor() as cursor:
        cursor.execute(sql.text, sql.params(params))
        rows = cursor.fetchall()
    return aware_rows(rows, connection) if aware else rows


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
