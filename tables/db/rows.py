"""Whole rows as model instances, through ``tables.db.statements``' compiled statements:
created (``insert``: ``save(force_insert=True)``; ``insert_many``: ``bulk_create``), deleted
(``delete``), read (``select_first``, ``lock_row``; ``from_row`` for a joined read's part),
each value converted by its field as the ORM would (``from_db_value``: a JSON field's text
decoded; a naive date-time made aware in the database's zone; an expression's 0 or 1 a
bool on SQLite); and reads by a list of ids (``select_values_by_ids``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal, overload

from django.db import connections, models, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, QuerySet

from tables.db.datetimes import aware_in, aware_rows, database_zone
from tables.db.statements import (
    Build,
    Convert,
    M,
    column_of,
    compiled,
    insert_compiled,
    insert_values,
    prepared,
    query_of,
    run_once,
    write_connection,
)


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
    connection = write_connection(model)
    returning = numbered and connection.features.can_return_columns_from_insert
    sql, fields, prep = insert_compiled(connection, model, returning, len(objs))
    values = [v for obj in objs for v in insert_values(obj, given, model, fields, prep)]
    with connection.cursor() as cursor:
        cursor.execute(sql.text, sql.params(values))
        if numbered:  # one row (``insert``), its key read back as the ORM does
            table, column = model._meta.db_table, column_of(model._meta.pk)
            found = cursor.fetchone() if returning else None
            objs[0].pk = found[0] if found else connection.ops.last_insert_id(cursor, table, column)
            objs[0]._state.adding, objs[0]._state.db = False, connection.alias


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
    connection = write_connection(model)
    key = (connection.alias, connection.vendor, "delete", model, len(pks))
    sql = compiled.get(key)
    if sql is None:
        quote = connection.ops.quote_name
        sql = compiled[key] = prepared(
            connection,
            f"DELETE FROM {quote(meta.db_table)} WHERE {quote(column_of(meta.pk))} "
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


def _converter(field: Field[Any, Any] | None, connection: BaseDatabaseWrapper) -> Convert | None:
    """How a column of ``field`` (None: a column whose field is not known) comes back from
    the driver to the value the ORM gives: the field's ``from_db_value`` (the documented hook:
    a JSON field's text decoded), a date-time made aware, an expression's 0 or 1 a bool
    (SQLite); None when the driver's value is it already."""
    if field is None:
        return aware_in(database_zone(connection))
    from_db_value = getattr(field, "from_db_value", None)
    if from_db_value is not None:
        return lambda value: from_db_value(value, None, connection)
    if isinstance(field, models.DateTimeField):
        aware = aware_in(database_zone(connection))
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


#: (database alias, vendor, "from row", model) -> its fields' names and conversions.
_shapes: dict[tuple[Any, ...], Any] = {}


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
    connection = write_connection(model)
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
    entry = compiled.get(cache_key)
    if entry is None:
        ran = run_once(query_of(model, key, build(*params)), connection)
        if ran is None:
            return None
        if ran.params != params:
            raise ValueError(f"{key}: the query's parameters are not exactly {params!r}")
        entry = compiled[cache_key] = (
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
    if columns[: len(fields)] != [column_of(field) for field in fields]:
        raise ValueError(f"{key}: not a query of whole {model.__name__} rows")
    extra = columns[len(fields) :]
    columns_of = [*fields, *(annotations.get(name) for name in extra)]
    return [field.attname for field in fields], extra, column_converters(columns_of, connection)


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
    entry = compiled.get(cache_key)
    if entry is None:
        probes = [_PROBE_ID - index for index in range(len(ids))]
        ran = run_once(query_of(model, key, build(*probes)), connection)
        if ran is None:
            raise ValueError(f"{key}: the query ran no statement")
        given = ran.params
        slots = [
            probes.index(value) if isinstance(value, int) and value in probes else None
            for value in given
        ]
        if sorted(slot for slot in slots if slot is not None) != list(range(len(ids))):
            raise ValueError(f"{key}: each id must be one SQL parameter of the query")
        entry = compiled[cache_key] = (prepared(connection, ran.sql), given, tuple(slots))
    sql, constants, id_slots = entry
    params = [
        constant if slot is None else ids[slot]
        for constant, slot in zip(constants, id_slots, strict=True)
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql.text, sql.params(params))
        return aware_rows(cursor.fetchall(), connection)
