"""A runtime's write ends its transaction with its last trip (``lease_fenced``): the table's
version bump (``table_touch``) is held back and sent with the COMMIT where the database takes
several statements in one trip (PostgreSQL), or before any statement the write runs after
it; a write that fails after its bump leaves nothing behind, and a write inside a caller's
transaction never commits it (this file runs in both passes: on SQLite each write is sent at
once and Django commits, as before)."""

import pytest
from django.db import connection, connections, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tables.models import Table
from tables.services.events import lease_fenced, table_lock, table_touch
from tables.services.leases import lease_take

pytestmark = pytest.mark.django_db(transaction=True)

JOINS = connection.vendor == "postgresql"


def version_elsewhere(table_id: int) -> int:
    """The table's version as another connection reads it: what was committed."""
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT version FROM tables_table WHERE id = %s", [table_id])
            found: int = cursor.fetchone()[0]
        return found
    finally:
        other.close()


def leased(table: Table) -> int:
    epoch = lease_take(table.pk, "a", "chan-a", timezone.now())
    assert epoch is not None
    return epoch


def test_the_bump_rides_with_the_commit_and_is_committed(table):
    epoch = leased(table)
    before = version_elsewhere(table.pk)

    def bump() -> int:
        locked = table_lock(table.pk)
        locked.name = "Bumped"
        table_touch(locked, "name")
        return locked.version

    with CaptureQueriesContext(connection) as captured:
        bumped = lease_fenced(table.pk, "a", epoch, bump)
    assert bumped == before + 1 == version_elsewhere(table.pk)
    assert Table.objects.get(pk=table.pk).name == "Bumped"
    # (Django notes its own COMMIT too, whether or not the driver had one to send)
    sent = [query["sql"] for query in captured.captured_queries if query["sql"] != "COMMIT"]
    if JOINS:  # one trip: the UPDATE and the COMMIT, and Django's own COMMIT had none to end
        assert sent[-1].startswith("UPDATE") and sent[-1].endswith("; COMMIT")
        assert connection.connection.info.transaction_status == 0  # psycopg's IDLE
    else:
        assert not any(sql.endswith("; COMMIT") for sql in sent)  # Django commits, as ever


def test_a_statement_after_the_bump_goes_after_it_and_sees_it(table):
    epoch = leased(table)

    def bump_then_read() -> int:
        locked = table_lock(table.pk)
        table_touch(locked)
        return Table.objects.values_list("version", flat=True).get(pk=table.pk)

    with CaptureQueriesContext(connection) as captured:
        seen = lease_fenced(table.pk, "a", epoch, bump_then_read)
    assert seen == version_elsewhere(table.pk)
    texts = [query["sql"] for query in captured.captured_queries]
    updated = next(n for n, sql in enumerate(texts) if sql.startswith("UPDATE"))
    read = next(
        n for n, sql in enumerate(texts) if sql.startswith('SELECT "tables_table"."version"')
    )
    assert updated < read
    assert not any(sql.endswith("COMMIT") for sql in texts[: read + 1])


def test_a_write_that_fails_after_its_bump_leaves_nothing(table):
    epoch = leased(table)
    before = version_elsewhere(table.pk)

    def bump_then_fail() -> None:
        locked = table_lock(table.pk)
        locked.name = "Never"
        table_touch(locked, "name")
        raise ValueError("refused after the bump")

    with pytest.raises(ValueError):
        lease_fenced(table.pk, "a", epoch, bump_then_fail)
    assert version_elsewhere(table.pk) == before
    assert Table.objects.get(pk=table.pk).name != "Never"
    with CaptureQueriesContext(connection) as captured:  # the connection goes on as usual
        assert lease_fenced(table.pk, "a", epoch, lambda: table_touch(table_lock(table.pk))) is None
    assert version_elsewhere(table.pk) == before + 1
    assert any(query["sql"].startswith("UPDATE") for query in captured.captured_queries)


def test_a_write_inside_a_callers_transaction_leaves_the_commit_to_it(table):
    epoch = leased(table)
    before = version_elsewhere(table.pk)

    def bump() -> None:
        table_touch(table_lock(table.pk))

    with pytest.raises(ValueError), transaction.atomic():
        with CaptureQueriesContext(connection) as captured:
            lease_fenced(table.pk, "a", epoch, bump)
        assert Table.objects.get(pk=table.pk).version == before + 1  # sent, not committed
        raise ValueError("the caller rolls back")
    assert version_elsewhere(table.pk) == before
    assert not any(query["sql"].endswith("; COMMIT") for query in captured.captured_queries)
