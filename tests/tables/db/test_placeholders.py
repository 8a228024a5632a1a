"""``tables.db.placeholders``: a statement written once runs as Django's cursor would run it,
its literal ``%`` kept, on SQLite with named placeholders (this file runs in both passes)."""

import pytest
from django.db import connection

from tables.db.placeholders import prepared

pytestmark = pytest.mark.django_db

SQL = "SELECT %s, '100%%', %s, '%%s'"


def test_a_prepared_statement_returns_what_the_format_style_returns():
    with connection.cursor() as cursor:
        cursor.execute(SQL, [1, "a%s"])
        expected = cursor.fetchone()
        statement = prepared(connection, SQL)
        cursor.execute(statement.text, statement.params([1, "a%s"]))
        assert cursor.fetchone() == expected == (1, "100%", "a%s", "%s")


def test_on_sqlite_the_placeholders_are_named_in_the_order_of_the_parameters():
    statement = prepared(connection, SQL)
    if connection.vendor != "sqlite":
        assert statement == (SQL, None)  # as Django writes it
        return
    assert statement.text == "SELECT %(p0)s, '100%%', %(p1)s, '%%s'"
    assert statement.params([1, 2]) == {"p0": 1, "p1": 2}
    with pytest.raises(ValueError):
        statement.params([1])  # one parameter short: refused, not run with a hole
