"""Which thread runs a table's writes (``tables.db.threads.write_async``): the one shared sync
thread on SQLite (one writer at a time); on PostgreSQL one of ``POKER_WRITE_THREADS``
threads per table, so one table's writes stay in order while other tables' go on beside them.
This file runs in both passes and checks the set-up it runs on."""

import asyncio
import threading

import pytest
from django.db import connection

from tables.db.threads import write_async, write_executor

pytestmark = pytest.mark.django_db(transaction=True)


def on_server_database() -> bool:
    return connection.vendor != "sqlite"


def test_each_table_keeps_one_write_thread_and_neighbours_get_others(settings):
    if not on_server_database():
        assert write_executor(1) is None and write_executor(2) is None
        return
    assert settings.POKER_WRITE_THREADS >= 2
    assert write_executor(7) is write_executor(7)
    assert write_executor(7) is not write_executor(8)


async def test_a_blocked_write_holds_up_other_tables_only_where_writes_share_one_thread():
    release = threading.Event()
    started = threading.Event()
    threads = {}
    order = []  # what finished, in order

    def slow_write():  # table 1's write, stuck until released
        threads[1] = threading.current_thread().name
        started.set()
        assert release.wait(30)
        order.append("first")
        return "first"

    def quick_write():  # table 2's write
        threads[2] = threading.current_thread().name
        order.append("second")
        return "second"

    first = asyncio.ensure_future(write_async(1, slow_write)())
    assert await asyncio.to_thread(started.wait, 30)
    second = asyncio.ensure_future(write_async(2, quick_write)())
    if on_server_database():
        # Table 2 has its own thread: done while table 1's write still waits.
        assert await asyncio.wait_for(second, 30) == "second"
        assert not first.done() and threads[1] != threads[2]
        release.set()
    else:
        # One thread: table 2 can only run once table 1's write has finished, so it
        # finishes after it although table 1's was held until now.
        release.set()
        assert await asyncio.wait_for(second, 30) == "second"
        assert order == ["first", "second"] and threads[1] == threads[2]
    assert await asyncio.wait_for(first, 30) == "first"


async def test_one_tables_writes_run_in_the_order_they_were_sent():
    done = []

    def write(n):
        done.append(n)
        return n

    results = await asyncio.gather(*(write_async(5, lambda n=n: write(n))() for n in range(20)))
    assert results == list(range(20)) and done == list(range(20))
