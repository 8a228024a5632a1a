"""The few statements every player action runs, and the reads of every table snapshot,
each written once instead of on every call.

The ORM builds the SQL of a query anew each time it runs it; for the statements of a player's
action (lock the table row, append to the hand's log, move a stack, bump the table's version)
that cost several times what the database took to run them, on the one thread that runs every
table's writes. Here each statement's SQL is written once per database and run again with new
parameters: the writes' from the model's ``_meta`` (table and column names, quoted by the
backend), the reads' by the ORM itself the first time they run (``execute_wrapper``), in the
placeholder style the driver takes at least cost (``tables.db.driver``). The values go
through the fields both ways: ``get_db_prep_save`` in (but where it hands them back as they
are: ``driver.prep_save``), ``from_db_value`` and the database's time zone out
(``driver.column_converters``).

Each function behaves as the ORM call it stands for (named in its docstring); the writes,
like it, must run inside the caller's transaction. Django's public API only (``Model._meta``,
the field methods a custom field implements, ``execute_wrapper``, ``Model.from_db``).
The writes also come ready to send (``insert_write``, ``update_write``,
``update_each_write``): ``tables.db.driver.Batch`` sends several in one trip.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, NamedTuple, TypeVar, overload

from django.db import connections, models, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, QuerySet

from tables.db.driver import (
    Convert,
    Prepared,
    Write,
    aware_rows,
    column_converters,
    prep_save,
    prepared,
    python_values,
    run,
)

M = TypeVar("M", bound=models.Model)
#: Builds the queryset of a read from its parameters.
Build = Callable[..., QuerySet[Any, Any]]

#: (database alias, vendor, what) -> the statement (its SQL and what reads or writes it, a
#: different tuple per kind of statement); a handful of entries.
_compiled: dict[tuple[Any, ...], Any] = {}


def _connection(model: type[models.Model]) -> BaseDatabaseWrapper:
    return connections[router.db_for_write(model)]


@overload
def lock_row(model: type[M], pk: object, *, skip_locked: Literal[False] = ...) -> M: ...
@overload
def lock_row(model: type[M], pk: object, *, skip_locked: bool) -> M | None: ...
def lock_row(model: type[M], pk: object, *, skip_locked: bool = False) -> M | None:
    """``model.objects.select_for_update().get(pk=pk)`` (on SQLite the transaction itself
    holds the write lock: ``transaction_mode = IMMEDIATE``).

    ``skip_locked``: None at once, instead of waiting, when another transaction holds the
    row (PostgreSQL's ``SKIP LOCKED``; SQLite has no row locks to skip).
    """
    connection = _connection(model)
    pk = model._meta.pk.get_db_prep_value(pk, connection)
    # The ORM writes it inside the caller's transaction: select_for_update refuses autocommit.
    found = _select_instance(
        model,
        connection,
        f"lock {model._meta.label} {skip_locked}",
        lambda pk: model._default_manager.select_for_update(skip_locked=skip_locked).filter(pk=pk),
        (pk,),
        {},
    )
    if found is None:
        if skip_locked and model._default_manager.filter(pk=pk).exists():
            return None  # held by another transaction
        # every concrete model has its DoesNotExist (the stubs give it to subclasses only)
        missing: type[Exception] = model.DoesNotExist  # type: ignore[attr-defined]
        raise missing(f"{model.__name__} matching query does not exist.")
    return found


def insert(obj: models.Model, *, numbered: bool = False) -> None:
    """``obj.save(force_insert=True)`` for a row nobody needs the primary key of (an
    append-only log entry; or one whose key is its own, given: a hand's secret):
    ``auto_now_add`` fields are filled in as the ORM does. ``numbered``: the key the
    database numbers it with is set on ``obj`` (``Model.objects.create``: a new hand)."""
    insert_many([obj], numbered)


def insert_many(
    objs: Sequence[Any], numbered: bool = False, model: type[models.Model] | None = None
) -> None:
    """``Model.objects.bulk_create(objs)`` for rows of one model nobody needs the primary
    keys of, in one multi-row INSERT (one statement: ``executemany`` sends one a row).
    ``model``: ``objs`` are its rows' values, no instance made (a finished hand's summary
    rows): each every column's by its field's ``attname``, bar the key the database numbers
    (no ``auto_now_add`` filled in; not ``numbered``)."""
    if not objs:
        return
    given, model = model is not None, model or type(objs[0])
    connection = _connection(model)
    returning = numbered and connection.features.can_return_columns_from_insert
    sql, fields, prep = _insert_compiled(connection, model, returning, len(objs))
    values = [v for obj in objs for v in _insert_values(obj, given, model, fields, prep)]
    with connection.cursor() as cursor:
        cursor.execute(sql.text, sql.params(values))
        if numbered:  # one row (``insert``), its key read back as the ORM does
            table, column = model._meta.db_table, _column(model._meta.pk)
            found = cursor.fetchone() if returning else None
            objs[0].pk = found[0] if found else connection.ops.last_insert_id(cursor, table, column)
            objs[0]._state.adding, objs[0]._state.db = False, connection.alias


def insert_write(obj: Any, model: type[models.Model] | None = None) -> Write:
    """``insert(obj)`` ready to send (``run``, or with others: ``tables.db.driver.Batch``);
    ``model``: ``obj`` is its row's values, as ``insert_many`` takes them."""
    given, model = model is not None, model or type(obj)
    connection = _connection(model)
    sql, fields, prep = _insert_compiled(connection, model, False)
    return Write(connection, sql.text, sql.params(_insert_values(obj, given, model, fields, prep)))


def _insert_values(
    obj: Any,
    given: bool,
    model: type[models.Model],
    fields: list[Field[Any, Any]],
    prep: Callable[[Sequence[Any]], list[Any]],
) -> list[Any]:
    """One row's values for ``_insert_compiled``'s INSERT, prepared for the database:
    ``obj`` a ``model`` instance, or (``given``) its row's values by field ``attname``."""
    if (len(obj) != len(fields)) if given else (type(obj) is not model):
        raise ValueError(f"insert: a {type(obj).__name__} among {model.__name__} rows")
    return prep([obj[f.attname] if given else f.pre_save(obj, True) for f in fields])


def _insert_compiled(
    connection: BaseDatabaseWrapper, model: type[models.Model], returning: bool, rows: int = 1
) -> tuple[Prepared, list[Field[Any, Any]], Callable[[Sequence[Any]], list[Any]]]:
    """The INSERT of ``rows`` ``model`` rows (its SQL, its fields, their values' preparation)."""
    if returning and rows != 1:
        raise ValueError("insert: a key is read back for one row only")
    key = (connection.alias, connection.vendor, "insert", model, returning, rows)
    entry = _compiled.get(key)
    if entry is None:
        quote = connection.ops.quote_name
        # every column but the one the database numbers (a key given, as a hand's, is written)
        fields = [f for f in model._meta.concrete_fields if f is not model._meta.auto_field]
        row = f"({', '.join(['%s'] * len(fields))})"
        sql = prepared(
            connection,
            f"INSERT INTO {quote(model._meta.db_table)} "
            f"({', '.join(quote(_column(f)) for f in fields)}) "
            f"VALUES {', '.join([row] * rows)}"
            + (f" RETURNING {quote(_column(model._meta.pk))}" if returning else ""),
        )
        entry = _compiled[key] = (sql, fields, prep_save(connection, fields))
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
    connection = _connection(model)
    nulls = tuple(name for name, value in where.items() if value is None)
    equal = {name: value for name, value in where.items() if value is not None}
    sizes = tuple(len(value) if type(value) is list else 0 for value in equal.values())
    no_wait = not wait_for_disk and connection.vendor == "postgresql"
    key = (
        connection.alias, connection.vendor, "update", model, tuple(values), tuple(where), nulls,
        no_wait, sizes,
    )  # fmt: skip
    entry = _compiled.get(key)
    if entry is None:
        quote = connection.ops.quote_name
        set_fields = [_own_field(model, name) for name in values]
        fields = [(_own_field(model, name), size) for name, size in zip(equal, sizes, strict=True)]
        where_fields = [field for field, size in fields for _ in range(size or 1)]
        conditions = [
            f"{quote(_column(f))} " + (f"IN ({', '.join(['%s'] * size)})" if size else "= %s")
            for f, size in fields
        ] + [f"{quote(_column(_own_field(model, name)))} IS NULL" for name in nulls]
        text = (
            f"UPDATE {quote(model._meta.db_table)} SET "
            f"{', '.join(f'{quote(_column(f))} = %s' for f in set_fields)} WHERE "
            f"{' AND '.join(conditions)}"
        ) + ("; SET LOCAL synchronous_commit TO OFF" if no_wait else "")
        prep = prep_save(connection, [*set_fields, *where_fields])
        entry = _compiled[key] = (prepared(connection, text), prep)
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
    connection = _connection(model)
    meta = model._meta
    cache_key = (
        connection.alias, connection.vendor, "update each", model, tuple(where), key, column,
        len(values),
    )  # fmt: skip
    entry = _compiled.get(cache_key)
    if entry is None:
        quote = connection.ops.quote_name
        key_field, set_field = _own_field(model, key), _own_field(model, column)
        where_fields = [_own_field(model, name) for name in where]
        case = f"CASE {quote(_column(key_field))}{' WHEN %s THEN %s' * len(values)} END"
        if connection.vendor == "postgresql":  # its CASE of parameters is text: as bulk_update
            case = f"CAST({case} AS {set_field.db_type(connection)})"
        text = (
            f"UPDATE {quote(meta.db_table)} SET {quote(_column(set_field))} = {case} WHERE "
            f"{' AND '.join(f'{quote(_column(f))} = %s' for f in where_fields)} AND "
            f"{quote(_column(key_field))} IN ({', '.join(['%s'] * len(values))})"
        )
        # the parameters in order: each key and its value, the conditions, the keys again
        order = [key_field, set_field] * len(values) + where_fields + [key_field] * len(values)
        entry = _compiled[cache_key] = (prepared(connection, text), prep_save(connection, order))
    sql, prep = entry
    pairs = [item for pair in values.items() for item in pair]
    params = prep([*pairs, *where.values(), *values])
    return Write(connection, sql.text, sql.params(params))


def delete(model: type[models.Model], pks: Sequence[Any]) -> int:
    """``model.objects.filter(pk__in=pks).delete()`` for a model whose rows nothing refers to
    and whose deletion no signal hears of (the ORM's fast delete: one statement, nothing
    collected; refused for any other model), compiled once per number of rows; returns the
    number of rows deleted."""
    if not pks:
        return 0
    meta = model._meta
    collected = meta.related_objects or meta.many_to_many or meta.private_fields or meta.parents
    if collected or _heard(model):
        raise ValueError(f"{model.__name__}: its deletion is the ORM's to collect")
    connection = _connection(model)
    key = (connection.alias, connection.vendor, "delete", model, len(pks))
    sql = _compiled.get(key)
    if sql is None:
        quote = connection.ops.quote_name
        sql = _compiled[key] = prepared(
            connection,
            f"DELETE FROM {quote(meta.db_table)} WHERE {quote(_column(meta.pk))} "
            f"IN ({', '.join(['%s'] * len(pks))})",
        )
    params = [meta.pk.get_db_prep_save(pk, connection) for pk in pks]
    with connection.cursor() as cursor:
        cursor.execute(sql.text, sql.params(params))
        return int(cursor.rowcount)


def _heard(model: type[models.Model]) -> bool:
    return any(
        signal.has_listeners(model)
        for signal in (models.signals.pre_delete, models.signals.post_delete)
    )


def _column(field: Field[Any, Any]) -> str:
    if field.column is None:  # only a field with no column of its own (a relation's far side)
        raise ValueError(f"{field.name} has no column")
    return field.column


def _own_field(model: type[models.Model], name: str) -> Field[Any, Any]:
    """A concrete column of ``model`` itself (``pk``: its primary key)."""
    field = model._meta.pk if name == "pk" else model._meta.get_field(name)
    if not isinstance(field, Field):
        raise ValueError(f"{model.__name__}.{name} is not a column of its own")
    return field


# --- The reads: written by the ORM the first time, then run again with new parameters -------


def _query_of(
    model: type[models.Model], key: str, queryset: QuerySet[Any, Any]
) -> QuerySet[Any, Any]:
    if queryset.model is not model:
        raise ValueError(f"{key}: a query of {queryset.model.__name__}, not {model.__name__}")
    return queryset


class _Ran(NamedTuple):
    """A statement the ORM wrote and ran, with what it returned as the driver returned it."""

    sql: str
    params: tuple[Any, ...]
    rows: list[tuple[Any, ...]]
    columns: list[str]


def _run_once(queryset: QuerySet[Any, Any], connection: BaseDatabaseWrapper) -> _Ran | None:
    """Run ``queryset`` through the ORM and take the statement it ran (its SQL and parameters
    as Django hands them to the database's cursor) and its rows, unconverted, as the later
    runs of the statement get them (an execute wrapper reads them off the cursor: the ORM
    finds none left). None when it ran none (a query Django knows to be empty). Refuses a
    query of more than one statement, or of another database than ``connection``."""
    if queryset.db != connection.alias:
        raise ValueError(f"a query of the database {queryset.db!r}, not {connection.alias!r}")
    seen: list[_Ran] = []

    def take(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        result = execute(sql, params, many, context)
        cursor = context["cursor"]
        columns = [column[0] for column in cursor.description or ()]
        seen.append(_Ran(sql, tuple(params or ()), cursor.fetchall(), columns))
        return result

    with connection.execute_wrapper(take):
        list(queryset)
    if len(seen) > 1:
        raise ValueError(f"a query of {len(seen)} statements, not one")
    return seen[0] if seen else None


def _select_instance(
    model: type[M],
    connection: BaseDatabaseWrapper,
    key: str,
    build: Build,
    params: tuple[Any, ...],
    annotations: Mapping[str, Field[Any, Any]],
) -> M | None:
    """The first ``model`` of ``build(*params)``, a query of whole rows (and annotations,
    ``annotations`` naming the fields of those whose values need converting), or None."""
    cache_key = (connection.alias, connection.vendor, "instance", key)
    entry = _compiled.get(cache_key)
    if entry is None:
        ran = _run_once(_query_of(model, key, build(*params)), connection)
        if ran is None:
            return None
        if ran.params != params:
            raise ValueError(f"{key}: the query's parameters are not exactly {params!r}")
        entry = _compiled[cache_key] = (
            prepared(connection, ran.sql),
            _instance_shape(model, connection, key, ran.columns, annotations),
        )
        row = ran.rows[0] if ran.rows else None
    else:
        with connection.cursor() as cursor:
            cursor.execute(entry[0].text, entry[0].params(params))
            row = cursor.fetchone()
    if row is None:
        return None
    names, extra, converters = entry[1]
    values = python_values(row, converters)
    obj = model.from_db(connection.alias, names, values[: len(names)])
    for name, value in zip(extra, values[len(names) :], strict=True):
        setattr(obj, name, value)
    return obj


def _instance_shape(
    model: type[models.Model],
    connection: BaseDatabaseWrapper,
    key: str,
    columns: list[str],
    annotations: Mapping[str, Field[Any, Any]],
) -> tuple[list[str], list[str], list[tuple[int, Convert]]]:
    """(the fields' attribute names, the annotations' names, the conversions) of a statement
    whose result columns are ``columns``: every concrete field's, in order, then annotations."""
    fields = model._meta.concrete_fields
    if columns[: len(fields)] != [_column(field) for field in fields]:
        raise ValueError(f"{key}: not a query of whole {model.__name__} rows")
    extra = columns[len(fields) :]
    columns_of = [*fields, *(annotations.get(name) for name in extra)]
    return [field.attname for field in fields], extra, column_converters(columns_of, connection)


def select_values(
    model: type[models.Model], key: str, build: Build, *params: Any, aware: bool = True
) -> list[tuple[Any, ...]]:
    """``list(build(*params))`` for a ``values_list()`` query of ``model`` (a read): the rows
    as tuples, date-times aware (not ``aware``: as the driver gives them, for a caller that
    converts them, ``from_row``). ``build`` returns the queryset for the given parameters,
    which must be the query's only SQL parameters, in order; ``key`` names its shape (one
    statement per key). The other values are the driver's: a JSON column is its text, and
    on SQLite an expression's truth is 0 or 1."""
    connection = connections[router.db_for_read(model)]
    cache_key = (connection.alias, connection.vendor, "select", key)
    sql = _compiled.get(cache_key)
    if sql is None:
        ran = _run_once(_query_of(model, key, build(*params)), connection)
        if ran is None:
            return []
        if ran.params != params:
            raise ValueError(f"{key}: the query's parameters are not exactly {params!r}")
        _compiled[cache_key] = prepared(connection, ran.sql)
        return aware_rows(ran.rows, connection) if aware else ran.rows
    with connection.cursor() as cursor:
        cursor.execute(sql.text, sql.params(params))
        rows = cursor.fetchall()
    return aware_rows(rows, connection) if aware else rows


def select_first(
    model: type[M],
    key: str,
    build: Build,
    *params: Any,
    annotations: Mapping[str, Field[Any, Any]] | None = None,
) -> M | None:
    """``build(*params).first()`` for a query of whole model rows (no ``only``/``defer``/
    ``select_related``; ``build`` includes its ordering and limit), or None. Its annotations
    are set on the instance, as the ORM does; ``annotations`` names the field of each whose
    value the field converts (a JSON annotation: its field's ``from_db_value``)."""
    connection = connections[router.db_for_read(model)]
    return _select_instance(model, connection, key, build, params, annotations or {})


#: The most ids callers give one ``select_values_by_ids`` statement: it is compiled once per
#: count of ids, so a caller with more splits them (or has the ORM write its query).
IDS_AT_ONCE = 32

#: Stand-ins for the ids a ``select_values_by_ids`` query is written with: no constant of a
#: query (a status, a flag, a count) is one of them, so where they land in its parameters is
#: where each call's ids go.
_PROBE_ID = -7_346_120_000


def select_values_by_ids(
    model: type[models.Model], key: str, build: Callable[..., QuerySet[Any, Any]], *ids: int
) -> list[tuple[Any, ...]]:
    """``list(build(*ids))`` for a ``values_list()`` query of ``model`` whose SQL parameters
    are its constants (statuses, flags) and the given whole-number ids, in any order: written
    by the ORM once per database and ``key`` with stand-in ids (a query that finds nothing),
    then run with each call's. Its values as ``select_values`` returns them."""
    connection = connections[router.db_for_read(model)]
    cache_key = (connection.alias, connection.vendor, "select-ids", key)
    entry = _compiled.get(cache_key)
    if entry is None:
        probes = [_PROBE_ID - index for index in range(len(ids))]
        ran = _run_once(_query_of(model, key, build(*probes)), connection)
        if ran is None:
            raise ValueError(f"{key}: the query ran no statement")
        compiled = ran.params
        slots = [
            probes.index(value) if isinstance(value, int) and value in probes else None
            for value in compiled
        ]
        if sorted(slot for slot in slots if slot is not None) != list(range(len(ids))):
            raise ValueError(f"{key}: each id must be one SQL parameter of the query")
        entry = _compiled[cache_key] = (prepared(connection, ran.sql), compiled, tuple(slots))
    sql, constants, id_slots = entry
    params = [
        constant if slot is None else ids[slot]
        for constant, slot in zip(constants, id_slots, strict=True)
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql.text, sql.params(params))
        return aware_rows(cursor.fetchall(), connection)
