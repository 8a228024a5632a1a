"""Which threads run the sockets' reads (``tables.db.threads.read_async``): on PostgreSQL the
process's ``POKER_READ_THREADS`` kept threads, whatever event loop asks, so the process's read
connections are bounded; an event loop's own default executor was made per loop (a test
process makes one per test) and each of its threads left a connection open behind it.
On the in-memory SQLite test database, the one shared sync thread. This file runs in both
passes and checks the set-up it runs on."""

import asyncio
import threading

import pytest
from django.db import connection

from tables.db.threads import read_async, read_executor, reads_off_thread

pytestmark = pytest.mark.django_db(transaction=True)


def where_a_read_runs() -> tuple[str, int]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return threading.current_thread().name, id(connection.connection)


def test_reads_from_many_event_loops_share_a_bounded_set_of_threads_and_connections(settings):
    async def reads() -> list[tuple[str, int]]:
        return await asyncio.gather(*(read_async(where_a_read_runs)() for _ in range(12)))

    seen = {place for _ in range(5) for place in asyncio.run(reads())}
    threads = {name for name, _ in seen}
    if not reads_off_thread():
        assert len(threads) == 1 and not any(name.startswith("reads") for name in threads)
        return
    assert read_executor() is read_executor()
    assert all(name.startswith("reads") for name in threads)
    assert len(threads) <= settings.POKER_READ_THREADS
    # one kept connection per thread, whichever loop asked
    assert len(seen) == len(threads)
