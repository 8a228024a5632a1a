"""The few statements every player action runs, and the reads of every table snapshot,
compiled once instead of on every call.

The ORM builds the SQL of a query anew each time it runs it; for the statements of a player's
action (lock the table row, append to the hand's log, move a stack, bump the table's version)
that compiling cost several times what the database took to run them, and every action of
every table goes through the one thread that runs the writes. Here Django still writes the
SQL (its own compiler, for whichever database is in use, once per statement shape) and
converts the values both ways (the fields' ``get_db_prep_save`` and the backend's
converters); only the recompiling is skipped.

Each function behaves as the ORM call it stands for (named in its docstring); the writes,
like it, must run inside the caller's transaction. Relies on Django's compiler internals:
``pokersite.library_overrides`` (DJANGO_SQL_COMPILER).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal, TypeVar, overload

from django.db import connections, models, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, QuerySet

M = TypeVar("M", bound=models.Model)
#: Builds the queryset of a compiled read from its parameters.
Build = Callable[..., QuerySet[Any, Any]]
#: A compiler's converters: column index -> (functions, expression).
Converters = dict[int, tuple[list[Any], Any]]

#: (database alias, vendor, what) -> compiled statement (its SQL and what reads or writes it,
#: a different tuple per kind of statement); a handful of entries.
_compiled: dict[tuple[Any, ...], Any] = {}


def _connection(model: type[models.Model]) -> BaseDatabaseWrapper:
    return connections[router.db_for_write(model)]


def commit_without_waiting_for_the_disk(model: type[models.Model]) -> None:
    """Let the caller's transaction commit without waiting for its log record to reach the
    disk: PostgreSQL's ``synchronous_commit = off``, for this transaction only.

    For the moves of a hand still being played (``hands._after_change``), the bulk of all
    writes: a crash of the database server itself (not of a server process) can then undo
    its last fraction of a second of them, whole transactions only, so the hand resumes a
    move or two earlier with every chip where it was. A hand's end and every movement of a
    bankroll keep waiting for the disk. Waiting on every move held the table's write thread
    and put the flushes' hiccups into every action's latency (p99 at 100 tables 135 and
    162 ms without, against a median of about 200 ms with; docs/benchmarks.md, "The live
    server under load"). SQLite in WAL mode with ``synchronous=NORMAL`` (the embedded set-up)
    commits every transaction this way.
    """
    connection = _connection(model)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit TO OFF")


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
    key = (connection.alias, connection.vendor, "lock", model, skip_locked)
    entry = _compiled.get(key)
    if entry is None:
        # Compiled inside the caller's transaction: select_for_update refuses autocommit.
        queryset = model._default_manager.select_for_update(skip_locked=skip_locked).filter(pk=pk)
        compiler = queryset.query.get_compiler(connection=connection)
        sql, _ = compiler.as_sql()
        columns = [column for column, _, _ in compiler.select]
        converters = compiler.get_converters(columns)
        names = [field.attname for field in model._meta.concrete_fields]
        if len(names) != len(columns):  # deferred or annotated columns: not this helper's case
            raise ValueError(f"cannot compile a row lock for {model.__name__}")
        entry = _compiled[key] = (sql, converters, names)
    sql, converters, names = entry
    with connection.cursor() as cursor:
        cursor.execute(sql, [model._meta.pk.get_db_prep_value(pk, connection)])
        row = cursor.fetchone()
    if row is None:
        if skip_locked and model._default_manager.filter(pk=pk).exists():
            return None  # held by another transaction
        # every concrete model has its DoesNotExist (the stubs give it to subclasses only)
        missing: type[Exception] = model.DoesNotExist  # type: ignore[attr-defined]
        raise missing(f"{model.__name__} matching query does not exist.")
    (row,) = _converted([row], converters, connection)
    return model.from_db(connection.alias, names, row)


def insert(obj: models.Model) -> None:
    """``obj.save(force_insert=True)`` for a row nobody needs the primary key of (an
    append-only log entry): ``auto_now_add`` fields are filled in as the ORM does."""
    insert_many([obj])


def insert_many(objs: Sequence[models.Model]) -> None:
    """``Model.objects.bulk_create(objs)`` for rows of one model nobody needs the primary
    keys of (a finished hand's summary rows), in one ``executemany``."""
    if not objs:
        return
    model = type(objs[0])
    connection = _connection(model)
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    key = (connection.alias, connection.vendor, "insert", model)
    sql = _compiled.get(key)
    if sql is None:
        quote = connection.ops.quote_name
        sql = _compiled[key] = (
            f"INSERT INTO {quote(model._meta.db_table)} "
            f"({', '.join(quote(_column(f)) for f in fields)}) "
            f"VALUES ({', '.join(['%s'] * len(fields))})"
        )
    rows = []
    for obj in objs:
        if type(obj) is not model:
            raise ValueError(f"insert_many: a {type(obj).__name__} among {model.__name__} rows")
        rows.append([f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields])
    with connection.cursor() as cursor:
        if len(rows) == 1:
            cursor.execute(sql, rows[0])
        else:
            cursor.executemany(sql, rows)


def update(model: type[models.Model], where: dict[str, Any], **values: Any) -> int:
    """``model.objects.filter(**where).update(**values)`` for equality filters on fields of
    ``model`` itself (``table_id=3``); returns the number of rows changed."""
    connection = _connection(model)
    meta = model._meta
    key = (connection.alias, connection.vendor, "update", model, tuple(values), tuple(where))
    entry = _compiled.get(key)
    if entry is None:
        quote = connection.ops.quote_name
        set_fields = [_own_field(model, name) for name in values]
        where_fields = [_own_field(model, name) for name in where]
        sql = (
            f"UPDATE {quote(meta.db_table)} SET "
            f"{', '.join(f'{quote(_column(f))} = %s' for f in set_fields)} WHERE "
            f"{' AND '.join(f'{quote(_column(f))} = %s' for f in where_fields)}"
        )
        entry = _compiled[key] = (sql, set_fields, where_fields)
    sql, set_fields, where_fields = entry
    params = [
        f.get_db_prep_save(v, connection) for f, v in zip(set_fields, values.values(), strict=True)
    ]
    params += [
        f.get_db_prep_save(v, connection) for f, v in zip(where_fields, where.values(), strict=True)
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return int(cursor.rowcount)


def update_each(
    model: type[models.Model], where: dict[str, Any], key: str, column: str, values: dict[Any, Any]
) -> int:
    """``model.objects.filter(**where, **{key: k}).update(**{column: v})`` for each ``k: v``
    of ``values``, in one statement (a ``CASE`` on ``key``, as ``bulk_update`` writes it),
    compiled once per number of rows; returns the number of rows changed."""
    if not values:
        return 0
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
        if connection.features.requires_casted_case_in_updates:  # PostgreSQL, as bulk_update
            case = f"CAST({case} AS {set_field.cast_db_type(connection)})"
        sql = (
            f"UPDATE {quote(meta.db_table)} SET {quote(_column(set_field))} = {case} WHERE "
            f"{' AND '.join(f'{quote(_column(f))} = %s' for f in where_fields)} AND "
            f"{quote(_column(key_field))} IN ({', '.join(['%s'] * len(values))})"
        )
        entry = _compiled[cache_key] = (sql, key_field, set_field, where_fields)
    sql, key_field, set_field, where_fields = entry
    keys = [key_field.get_db_prep_save(k, connection) for k in values]
    params: list[Any] = []
    for k, v in zip(keys, values.values(), strict=True):
        params += [k, set_field.get_db_prep_save(v, connection)]
    params += [
        f.get_db_prep_save(v, connection) for f, v in zip(where_fields, where.values(), strict=True)
    ]
    params += keys
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return int(cursor.rowcount)


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


def _compiled_select(
    model: type[models.Model], key: str, build: Build, params: tuple[Any, ...]
) -> tuple[BaseDatabaseWrapper, str, Converters, Any]:
    """(connection, sql, converters, compiler) of ``build(*params)``, a query of ``model``,
    compiled once per database and ``key``. The compiled SQL must take exactly ``params``,
    in order (checked once), so that later calls run it with their own without building the
    queryset again."""
    connection = connections[router.db_for_read(model)]
    cache_key = (connection.alias, connection.vendor, "select", key)
    entry = _compiled.get(cache_key)
    if entry is None:
        queryset = build(*params)
        if queryset.model is not model:
            raise ValueError(f"{key}: a query of {queryset.model.__name__}, not {model.__name__}")
        compiler = queryset.query.get_compiler(connection=connection)
        sql, compiled_params = compiler.as_sql()
        if tuple(compiled_params) != tuple(params):
            raise ValueError(f"{key}: the query's parameters are not exactly {params!r}")
        converters = compiler.get_converters([column for column, _, _ in compiler.select])
        entry = _compiled[cache_key] = (sql, converters, compiler)
    return connection, *entry


def _converted(
    rows: Sequence[tuple[Any, ...]], converters: Converters, connection: BaseDatabaseWrapper
) -> list[tuple[Any, ...]]:
    if not converters:
        return list(rows)
    out = []
    for row in rows:
        values = list(row)
        for index, (functions, expression) in converters.items():
            for function in functions:
                values[index] = function(values[index], expression, connection)
        out.append(tuple(values))
    return out


def select_values(
    model: type[models.Model], key: str, build: Build, *params: Any
) -> list[tuple[Any, ...]]:
    """``list(build(*params))`` for a ``values_list()`` query of ``model`` (a read): the rows
    as tuples, with the fields' conversions. ``build`` returns the queryset for the given
    parameters, which must be the query's only SQL parameters, in order; ``key`` names its
    shape (one compiled statement per key)."""
    connection, sql, converters, _ = _compiled_select(model, key, build, params)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return _converted(rows, converters, connection)


def select_first(model: type[M], key: str, build: Build, *params: Any) -> M | None:
    """``build(*params).first()`` for a query of whole model rows (no ``only``/``defer``/
    ``select_related``; ``build`` includes its ordering and limit), or None. Its annotations
    are set on the instance, as the ORM does."""
    connection, sql, converters, compiler = _compiled_select(model, key, build, params)
    names_key = (connection.alias, connection.vendor, "names", key)
    names = _compiled.get(names_key)
    if names is None:
        fields = [field.attname for field in model._meta.concrete_fields]
        positions = compiler.annotation_col_map  # name -> column, after the fields
        annotations = sorted(positions, key=positions.get)
        if [positions[name] for name in annotations] != list(
            range(len(fields), len(compiler.select))
        ):
            raise ValueError(f"{key}: not a query of whole {model.__name__} rows")
        names = _compiled[names_key] = (fields, annotations)
    fields, annotations = names
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    (row,) = _converted([row], converters, connection)
    obj = model.from_db(connection.alias, fields, row[: len(fields)])
    for name, value in zip(annotations, row[len(fields) :], strict=True):
        setattr(obj, name, value)
    return obj


#: Stand-ins for the ids a ``select_values_by_ids`` query is compiled with: no constant of a
#: query (a status, a flag, a count) is one of them, so where they land in the compiled
#: parameters is where each call's ids go.
_PROBE_ID = -7_346_120_000


def select_values_by_ids(
    model: type[models.Model], key: str, build: Callable[..., QuerySet[Any, Any]], *ids: int
) -> list[tuple[Any, ...]]:
    """``list(build(*ids))`` for a ``values_list()`` query of ``model`` whose SQL parameters
    are its constants (statuses, flags) and the given whole-number ids, in any order: compiled
    once per database and ``key`` with stand-in ids, then run with each call's."""
    connection = connections[router.db_for_read(model)]
    cache_key = (connection.alias, connection.vendor, "select-ids", key)
    entry = _compiled.get(cache_key)
    if entry is None:
        probes = [_PROBE_ID - index for index in range(len(ids))]
        queryset = build(*probes)
        if queryset.model is not model:
            raise ValueError(f"{key}: a query of {queryset.model.__name__}, not {model.__name__}")
        compiler = queryset.query.get_compiler(connection=connection)
        sql, compiled = compiler.as_sql()
        slots = [
            probes.index(value) if isinstance(value, int) and value in probes else None
            for value in compiled
        ]
        if sorted(slot for slot in slots if slot is not None) != list(range(len(ids))):
            raise ValueError(f"{key}: each id must be one SQL parameter of the query")
        converters = compiler.get_converters([column for column, _, _ in compiler.select])
        entry = _compiled[cache_key] = (sql, tuple(compiled), tuple(slots), converters)
    sql, constants, id_slots, converters = entry
    params = [
        constant if slot is None else ids[slot]
        for constant, slot in zip(constants, id_slots, strict=True)
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return _converted(rows, converters, connection)
