"""When Django looks at a server thread's kept-open PostgreSQL connection (``tables.db.threads``):
at most once per ``RECHECK_SECONDS`` while a thread's calls succeed (no ``SELECT 1`` before
each write or read of a busy thread), at once where the database ended the connection
meanwhile (it says so on the socket first) or a call failed; a write is run once, on a
connection replaced where it broke, a read that meets a connection broken without a sign is
run again on a new one; and every call where connections are not kept (``CONN_MAX_AGE`` 0).

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


@pytest.mark.parametrize("said_goodbye", [True, False])
def test_a_busy_reader_uses_its_connection_without_a_look_and_survives_a_break(
    reader, monkeypatch, said_goodbye
):
    monkeypatch.setattr(threads, "RECHECK_SECONDS", 3600.0)
    if not said_goodbye:  # a connection that broke without a word (a network's cut)
        monkeypatch.setattr(threads, "_server_spoke", lambda: False)
    backend = Backend()
    first = reader(backend.pid)
    assert reader(backend.pid) == first  # kept open
    end_backend(first)
    backend.runs = 0
    replaced = reader(backend.pid)
    assert replaced != first
    # heard: replaced before it ran; not: it meets the broken connection, runs on a new one
    assert backend.runs == (1 if said_goodbye else 2)
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


@pytest.fixture
def pings(monkeypatch):
    """The ``SELECT 1`` of Django's looks (its health check), counted on every thread."""
    wrapper = type(connections["default"])
    checked = wrapper.is_usable
    count = [0]

    def is_usable(self):
        count[0] += 1
        return checked(self)

    monkeypatch.setattr(wrapper, "is_usable", is_usable)
    return count


def kept_for_good(monkeypatch, table: int) -> None:
    """The table's write thread on a new connection that no age ends: its thread lives through
    the whole run, and a connection it opened more than ``CONN_MAX_AGE`` ago would be replaced
    at the test's first look for its age, not for what the test does."""
    monkeypatch.setitem(connections.settings["default"], "CONN_MAX_AGE", None)
    write(table, lambda: connection.close())  # this thread's, found there


def test_a_write_is_run_once_on_a_connection_replaced_where_the_database_ended_it(
    monkeypatch, pings
):
    # no look is due by the clock: the database's goodbye on the socket is what brings it
    monkeypatch.setattr(threads, "RECHECK_SECONDS", 3600.0)
    table = 11  # any table: only its write thread (one fixed thread) is used
    kept_for_good(monkeypatch, table)
    backend = Backend()
    first = write(table, backend.pid)
    assert write(table, backend.pid) == first  # kept open
    end_backend(first)
    backend.runs = 0
    assert write(table, backend.pid) != first and backend.runs == 1


def test_a_busy_writer_pings_its_connection_once_per_recheck(monkeypatch, pings):
    monkeypatch.setattr(threads, "RECHECK_SECONDS", 3600.0)
    table = 12
    kept_for_good(monkeypatch, table)
    backend = Backend()
    first = write(table, backend.pid)
    pinged = pings[0]
    assert [write(table, backend.pid) for _ in range(5)] == [first] * 5
    assert pings[0] == pinged  # no SELECT 1 before each write

    def refused() -> None:
        backend.pid()
        raise ValueError("a refused write")

    with pytest.raises(ValueError):
        write(table, refused)
    assert write(table, backend.pid) == first and pings[0] == pinged + 1  # looked after it
    monkeypatch.setattr(threads, "RECHECK_SECONDS", 0.0)  # a pause: every write looks
    write(table, backend.pid)
    write(table, backend.pid)
    assert pings[0] == pinged + 3


def write(table: int, function):
    return asyncio.run(_write(table, function))


async def _write(table: int, function):
    return await write_async(table, function)()
