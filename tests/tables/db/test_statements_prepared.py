"""``tables.db.statements``: a statement written once runs as Django's cursor would run it,
its literal ``%`` kept, on SQLite with named placeholders (this file runs in both passes)."""

from datetime import UTC, datetime, timedelta, timezone as timezone_of
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.utils import timezone

from tables.db.statements import prepared

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


def test_prep_save_gives_the_database_what_get_db_prep_save_gives_it():
    """Each value as its field's ``get_db_prep_save`` makes it, whether or not the call is
    left out: a whole number for a float field, a truth for a whole-number one, a choice, a
    None, a date-time in UTC (``timezone.now``'s, with or without microseconds) or elsewhere."""
    from tables.db.statements import prep_save
    from tables.models import HandAction, PlayerHand, Table

    moments = [
        timezone.now(),
        datetime(2026, 12, 1, 4, 5, 6, tzinfo=UTC),
        datetime(2026, 12, 1, 4, 5, 6, 7, tzinfo=ZoneInfo("UTC")),
        datetime(2026, 12, 1, 4, 5, 6, 7, tzinfo=ZoneInfo("Europe/Paris")),
        datetime(2026, 12, 1, 4, 5, 6, 7, tzinfo=timezone_of(timedelta(hours=-5))),
    ]
    values = [0, 1, -3, 2**40, True, False, 0.5, 2.0, "", "x", None, HandAction.Source.PLAYER]
    values += moments
    for model in (PlayerHand, HandAction, Table):
        fields = [f for f in model._meta.concrete_fields if not f.primary_key]
        prep = prep_save(connection, fields)
        for value in values:
            for field in fields:
                try:
                    expected = field.get_db_prep_save(value, connection)
                except Exception:  # noqa: BLE001 - a value the field refuses, either way
                    with pytest.raises(Exception):  # noqa: B017, PT011
                        prep([value if f is field else None for f in fields])
                    continue
                got = prep([value if f is field else None for f in fields])[fields.index(field)]
                assert type(got) is type(expected), (field, value)
                # PostgreSQL's JSON is wrapped (``Jsonb``), compared by what it wraps
                assert getattr(got, "obj", got) == getattr(expected, "obj", expected), field


def test_prep_save_leaves_out_the_calls_that_hand_the_value_back():
    from tables.db.statements import prep_save
    from tables.models import PlayerHand

    fields = {f.attname: f for f in PlayerHand._meta.concrete_fields}
    names = ["hand_id", "net_bb", "vpip", "game", "started_at", "ev_net", "seat", "ev_net_bb"]
    calls = []
    for name in names:
        field = fields[name]
        original = field.get_db_prep_save

        def counted(value, connection, original=original, name=name):
            calls.append(name)
            return original(value, connection)

        field.get_db_prep_save = counted  # on the instance only, undone below
    try:
        prep = prep_save(connection, [fields[name] for name in names])
        calls.clear()
        prep([7, 0.5, True, "holdem", timezone.now(), 3, 2, None])
        now_calls = list(calls)
        calls.clear()
        paris = datetime(2026, 12, 1, 4, 5, 6, tzinfo=ZoneInfo("Europe/Paris"))
        prep([7, 0.5, True, "holdem", paris, 3, 2, None])
    finally:
        for name in names:
            del fields[name].get_db_prep_save
    # a whole number for a float field always goes through the field; so does a whole number
    # where the database adapts them (PostgreSQL's sized integers), and a date-time in another
    # zone than UTC; not a date-time in UTC (``timezone.now``'s), nor a None the field keeps
    assert now_calls[:1] == ["ev_net"]
    assert set(now_calls[1:]) <= {"seat"}
    assert ("seat" in now_calls) == (connection.vendor == "postgresql")
    assert calls[:2] == ["started_at", "ev_net"]
