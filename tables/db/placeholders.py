"""Statements run again and again (``tables.db.statements``), written once in the placeholder
style their database's driver takes at least cost.

Django's SQLite cursor rewrites a statement's ``%s`` placeholders ("format" style) to
SQLite's with a regular expression over the whole statement, on every run: for a whole table
row's SELECT (every action's lock) a good part of what the read costs. Named ones
("pyformat", ``%(p0)s``, which Django documents for its cursors) it fills in with one string
formatting instead. Other databases' statements stay as Django writes them.

The values too: a field's ``get_db_prep_save`` costs a few calls per value, while most of
those written (whole numbers, truths, text) reach the driver as they were given
(``prep_save``: for the inserts, ``statements.insert_many``).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from django.db import models
from django.db.backends.base.base import BaseDatabaseWrapper

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
