"""When Django looks at a server thread's kept-open PostgreSQL connection (``tables.db.threads``):
before every write, so a connection that broke is replaced before a write's first query; a
thread's reads at most once per ``RECHECK_SECONDS`` while they succeed (no ``SELECT 1`` before
each read of a busy thread), a read that meets a connection broken since being run again on a
new one; and every call where connections are not kept (``CONN_MAX_AGE`` 0).

The backend behind a thread's connection is ended from the test's own connection
(``pg_terminate_backend``), as a database restart would end it."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection, connections

from tables.db import threads
from tables.db.threads import looked_at_now_and_then, write_async

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


class Backend:
    """``pid()`` as a database call, counting its runs."""

    def __init__(self) -> None:
        self.runs = 0

    def pid(self) -> int:
        self.runs += 1
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            pid: int = cursor.fetchone()[0]
        return pid


def end_backend(pid: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
        # it only signals the backend: wait until it has gone
        for _ in range(500):
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid])
            if cursor.fetchone()[0] == 0:
                return
            cursor.execute("SELECT pg_sleep(0.01)")
    raise AssertionError(f"backend {pid} did not end")


@pytest.fixture
def reader():
    """One thread of its own, as a read's worker thread, running ``looked_at_now_and_then``."""
    with ThreadPoolExecutor(max_workers=1) as executor:

        def read(function):
            return executor.submit(looked_at_now_and_then(function)).result()

        yield read
        executor.submit(connections.close_all).result()


def test_a_busy_reader_uses_its_connection_without_a_look_and_survives_a_break(reader, monkeypatch):
    monkeypatch.setattr(threads, "RECHECK_SECONDS", 3600.0)
    backend = Backend()
    first = reader(backend.pid)
    assert reader(backend.pid) == first  # kept open
    end_backend(first)
    backend.runs = 0
    replaced = reader(backend.pid)  # no look first: it meets the broken connection
    assert replaced != first and backend.runs == 2  # ... and runs again on a new one
    backend.runs = 0
    assert reader(backend.pid) == replaced and backend.runs == 1


def test_a_reader_looks_again_after_a_pause(reader, monkeypatch):
    monkeypatch.setattr(threads, "RECHECK_SECONDS", 0.0)  # every read comes after a "pause"
    backend = Backend()
    first = reader(backend.pid)
    end_backend(first)
    backend.runs = 0
    assert reader(backend.pid) != first and backend.runs == 1  # replaced before it ran


def test_where_connections_are_not_kept_every_read_has_its_own(reader, monkeypatch):
    monkeypatch.setattr(threads, "RECHECK_SECONDS", 3600.0)
    monkeypatch.setitem(connections.settings["default"], "CONN_MAX_AGE", 0)
    backend = Backend()
    assert reader(backend.pid) != reader(backend.pid)


def test_a_write_is_run_once_after_a_look_that_replaces_a_broken_connection():
    table = 11  # any table: only its write thread (one fixed thread) is used
    backend = Backend()

    def write() -> int:
        return asyncio.run(_write(table, backend.pid))

    first = write()
    assert write() == first  # kept open
    end_backend(first)
    backend.runs = 0
    assert write() != first and backend.runs == 1


async def _write(table: int, function):
    return await write_async(table, function)()
