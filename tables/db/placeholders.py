"""Statements run again and again (``tables.db.statements``), written once in the placeholder
style their database's driver takes at least cost.

Django's SQLite cursor rewrites a statement's ``%s`` placeholders ("format" style) to
SQLite's with a regular expression over the whole statement, on every run: for a whole table
row's SELECT (every action's lock) a good part of what the read costs. Named ones
("pyformat", ``%(p0)s``, which Django documents for its cursors) it fills in with one string
formatting instead. Other databases' statements stay as Django writes them.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from typing import Any, NamedTuple

from django.db.backends.base.base import BaseDatabaseWrapper

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
