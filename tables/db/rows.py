"""Model instances made without the ORM's detours: a copy of a row (``row_copy``), and a
row from the values of a joined read (``from_row``), as the ORM would make them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from django.db import connections, models

from tables.db.driver import column_converters, python_values

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
