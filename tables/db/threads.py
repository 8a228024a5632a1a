"""The threads that run database work for the server's event loop.

Django's database calls block, so the event loop hands them to threads through
``database_sync_to_async`` (which also closes stale connections on that thread):

- reads (``read_async``) go to a worker thread of their own where that is safe, so a
  socket's render never queues behind the writes;
- writes (``write_async``) go to the one thread of their table (``write_executor``), so a
  table's writes stay in order while other tables' go on beside them.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar, cast

from channels.db import database_sync_to_async  # type: ignore[import-untyped]  # no stubs
from django.conf import settings
from django.db import connections

P = ParamSpec("P")
R = TypeVar("R")
#: ``function`` made awaitable: what ``database_sync_to_async`` returns (channels has no types).
AsyncCall = Callable[P, Coroutine[Any, Any, R]]


def reads_off_thread() -> bool:
    """Whether read-only work may run on a worker thread of its own (``thread_sensitive=False``)
    instead of the one thread shared with the writes. Not with an in-memory SQLite database
    (the test database): its shared cache locks whole tables instead of waiting."""
    conn = connections["default"]
    # is_in_memory_db is the SQLite backend's own method, hence the vendor check first.
    return not (conn.vendor == "sqlite" and conn.is_in_memory_db())  # type: ignore[attr-defined]


def read_async(function: Callable[P, R]) -> AsyncCall[P, R]:
    """``database_sync_to_async`` for reads: off the shared sync thread where that is safe."""
    return cast(
        "AsyncCall[P, R]", database_sync_to_async(function, thread_sensitive=not reads_off_thread())
    )


#: The write threads of this process (``write_async``), made on first use.
_write_executors: list[ThreadPoolExecutor] = []


def write_executor(table_id: int) -> ThreadPoolExecutor | None:
    """The thread that runs ``table_id``'s writes, or None: the one shared sync thread.

    SQLite has one writer at a time, so there every write stays on the thread Django and
    Channels share. A server database takes writes to different tables at once: each table
    then has one of ``POKER_WRITE_THREADS`` threads (by its id), so its own writes stay in
    order while other tables' go on beside them, each service holding its table's row lock
    as it does against another server process (on one thread, every action waits for the
    other tables' round trips to PostgreSQL; the load benchmark's p99 moves too much between
    runs to show either way, see docs/benchmarks.md).
    """
    threads = settings.POKER_WRITE_THREADS
    if connections["default"].vendor == "sqlite" or threads < 2:
        return None
    if not _write_executors:
        _write_executors.extend(
            ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"table-writes-{n}")
            for n in range(threads)
        )
    return _write_executors[table_id % len(_write_executors)]


def write_async(table_id: int, function: Callable[P, R]) -> AsyncCall[P, R]:
    """``database_sync_to_async`` for a service that writes to table ``table_id``."""
    executor = write_executor(table_id)
    if executor is None:
        return cast("AsyncCall[P, R]", database_sync_to_async(function))
    return cast(
        "AsyncCall[P, R]",
        database_sync_to_async(function, thread_sensitive=False, executor=executor),
    )
