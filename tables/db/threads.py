"""The threads that run database work for the server's event loop.

Django's database calls block, so the event loop hands them to threads. Django looks at
a thread's connections (``close_old_connections``: drop a broken or old one and, with
``conn_health_checks``, ping a kept-open one with a ``SELECT 1`` before its next query) only
where a look is due: its thread looked ``RECHECK_SECONDS`` ago or more, a call failed since,
or the database has sent something on the connection meanwhile (a server that ends a
connection, restarting or told to, says so before it closes it: a look at the socket costs
no round trip). A write is run once, on a connection looked at where a look was due; a read
that meets a connection broken without a sign is run once more after a look (a read
changes nothing).

- reads (``read_async``) go to a worker thread of their own where that is safe, so a
  socket's render never queues behind the writes;
- writes (``write_async``) go to the one thread of their table (``write_executor``), so a
  table's writes stay in order while other tables' go on beside them.

Those threads are the site's own (``WorkThreads``: a queue over, the loop's
``call_soon_threadsafe`` back); only SQLite's writes, and reads on its in-memory test
database, take asgiref's one shared sync thread, as Django's and Channels' own calls do.

Each piece of work counts the CPU time its thread spent on it (``work_cpu``, by its name;
the event loop's frames count there too): the operators' figures (``tables.live.operators``)
show where a busy process's CPU goes, as the load benchmark prints them.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import math
import select
import threading
import time
from collections import Counter
from collections.abc import Callable, Coroutine
from queue import SimpleQueue
from typing import Any, ParamSpec, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import InterfaceError, OperationalError, close_old_connections, connections

P = ParamSpec("P")
R = TypeVar("R")

#: Seconds a thread's calls go on using its connections without Django looking at them
#: again (while they succeed and the database says nothing).
RECHECK_SECONDS = 1.0


class _Looked(threading.local):
    """When this thread last had Django look at its connections, and whether a call failed
    since."""

    at = -math.inf
    failed = False


_looked = _Looked()


def _look(now: float) -> None:
    close_old_connections()
    _looked.at, _looked.failed = now, False


def _look_if_due() -> bool:
    """Django's look at this thread's connections where one is due; whether they were
    trusted as they were instead (looked at less than ``RECHECK_SECONDS`` ago, every call
    since succeeded, nothing heard from the database)."""
    now = time.monotonic()
    if not _looked.failed and now - _looked.at < RECHECK_SECONDS and not _server_spoke():
        return True
    _look(now)
    return False


def _server_spoke() -> bool:
    """Whether the database sent something on this thread's open PostgreSQL connection while
    it was idle (it ends one with a message before closing it); a glance at the socket, no
    round trip. A harmless message (a setting's new value) only brings a look early."""
    conn = connections["default"]
    raw = conn.connection
    if raw is None or conn.vendor != "postgresql":
        return False  # none open yet (the look opens none), or SQLite's: in this process
    try:
        readable, _, _ = select.select([raw.fileno()], [], [], 0)
    except (OSError, ValueError):  # closed already
        return True
    return bool(readable)


def _run_looked(function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """``function`` where connections are not kept (``CONN_MAX_AGE`` 0): Django looks before
    and after every call, as Channels' ``database_sync_to_async`` does."""
    _look(time.monotonic())
    try:
        return function(*args, **kwargs)
    finally:
        close_old_connections()


def looked_at_before_writing(function: Callable[P, R]) -> Callable[P, R]:
    """``function`` (a write) run once, after Django's look at the thread's connections when
    one is due (a failed write makes it due for the next call)."""

    @functools.wraps(function)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        if not _kept():
            return _run_looked(function, *args, **kwargs)
        _look_if_due()
        try:
            return function(*args, **kwargs)
        except BaseException:
            _looked.failed = True
            raise

    return run


def looked_at_now_and_then(function: Callable[P, R]) -> Callable[P, R]:
    """``function`` (a read) run after Django's look at the thread's connections when one is
    due; run again after a look when it met a broken connection it had not looked at."""

    @functools.wraps(function)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        if not _kept():
            return _run_looked(function, *args, **kwargs)
        trusted = _look_if_due()
        try:
            return function(*args, **kwargs)
        except (OperationalError, InterfaceError):
            if not trusted:
                _looked.failed = True
                raise
        except BaseException:
            _looked.failed = True
            raise
        # it broke since the last look: Django replaces it, and the read runs again
        _look(time.monotonic())
        try:
            return function(*args, **kwargs)
        except BaseException:
            _looked.failed = True
            raise

    return run


class WorkCpu:
    """The CPU seconds this process spent on each kind of work, and how many times it ran,
    since the process started (by name: a service's, or what the caller says it is: a
    table's command by its operation, its clock, the frames), each on the thread it ran on."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.seconds: dict[str, float] = {}
        self.calls: Counter[str] = Counter()

    def timed(self, function: Callable[P, R], name: str) -> Callable[P, R]:
        """``function``, its thread's CPU time counted under ``name`` (raised or not)."""

        @functools.wraps(function)
        def run(*args: P.args, **kwargs: P.kwargs) -> R:
            start = time.thread_time()
            try:
                return function(*args, **kwargs)
            finally:
                self.add(name, time.thread_time() - start)

        return run

    def add(self, name: str, seconds: float) -> None:
        """One run of ``name`` that took ``seconds`` of its thread's CPU time."""
        with self._lock:
            self.seconds[name] = self.seconds.get(name, 0.0) + seconds
            self.calls[name] += 1

    def figures(self) -> dict[str, dict[str, float]]:
        """name -> {"seconds": CPU seconds, "calls": times run}."""
        with self._lock:
            return {
                name: {"seconds": seconds, "calls": self.calls[name]}
                for name, seconds in self.seconds.items()
            }


work_cpu = WorkCpu()


def work_name(function: Callable[..., Any]) -> str:
    """What ``work_cpu`` counts ``function`` as: its module and name (a partial's function)."""
    while isinstance(function, functools.partial):
        function = function.func
    module = getattr(function, "__module__", "") or ""
    return f"{module}.{getattr(function, '__qualname__', type(function).__name__)}"


def _kept() -> bool:
    """Whether connections are kept between calls (not with ``CONN_MAX_AGE`` 0)."""
    max_age: int | None = connections["default"].settings_dict["CONN_MAX_AGE"]
    return max_age != 0


def reads_off_thread() -> bool:
    """Whether read-only work may run on a worker thread of its own (``thread_sensitive=False``)
    instead of the one thread shared with the writes. Not with an in-memory SQLite database
    (the test database): its shared cache locks whole tables instead of waiting."""
    conn = connections["default"]
    in_memory: bool = conn.vendor == "sqlite" and conn.is_in_memory_db()  # type: ignore[attr-defined]  # SQLite's wrapper only
    return not in_memory


class WorkThreads:
    """``count`` threads that run the event loop's blocking calls, taken from one queue in
    the order sent (one thread: one at a time, in that order). A call goes over and comes
    back with no more than the queue and the loop's ``call_soon_threadsafe``: no futures of
    two kinds chained (``loop.run_in_executor``), nor asgiref's ``sync_to_async`` around
    them, whose hand-over costs more CPU than most reads (``bench/bench_thread_hop.py``).
    The caller's context variables go with the call; what the call sets in them stays
    there. A call whose caller stopped waiting before it began is not run; one running then
    runs to its end, its answer dropped. Unlike asgiref's threads these do not know their
    caller's loop, so a call does not reach it with ``async_to_sync``: what a write publishes
    waits in ``tables.services.events.outbox`` and is published from the loop after it."""

    def __init__(self, count: int, name: str) -> None:
        self._calls: SimpleQueue[_Call] = SimpleQueue()
        for n in range(count):
            thread_name = f"{name}-{n}" if count > 1 else name
            threading.Thread(target=self._serve, name=thread_name, daemon=True).start()

    def run(self, function: Callable[[], R]) -> asyncio.Future[R]:
        """``function()`` on one of the threads; its result (or what it raised) when done."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[R] = loop.create_future()
        self._calls.put((loop, done, contextvars.copy_context(), function))
        return done

    def _serve(self) -> None:
        while True:
            loop, done, context, function = self._calls.get()
            if done.cancelled():  # nobody waits for it any more: not begun, not run
                continue
            result, error = None, None
            try:
                result = context.run(function)
            except BaseException as raised:  # the caller's to handle, on its loop
                error = raised
            # (its event loop closed meanwhile: nobody waits for it)
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_settle, done, result, error)


#: One call for ``WorkThreads``: its loop, its future there, the caller's context, the call.
_Call = tuple[
    asyncio.AbstractEventLoop, "asyncio.Future[Any]", contextvars.Context, Callable[[], Any]
]


def _settle(done: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if done.cancelled():
        return
    if error is None:
        done.set_result(result)
    elif isinstance(error, StopIteration):  # a future cannot hold one
        done.set_exception(RuntimeError(f"the call raised StopIteration: {error!r}"))
    else:
        done.set_exception(error)


def _on(threads: WorkThreads, function: Callable[P, R]) -> Callable[P, Coroutine[Any, Any, R]]:
    """``function`` as a coroutine function run on ``threads``."""

    @functools.wraps(function)
    async def run(*args: P.args, **kwargs: P.kwargs) -> R:
        return await threads.run(functools.partial(function, *args, **kwargs))

    return run


#: The threads that run this process's reads (``read_async``), made on first use.
_read_executors: list[WorkThreads] = []


def read_executor() -> WorkThreads:
    """The ``POKER_READ_THREADS`` threads that run reads off the shared sync thread, kept for
    the process's life. Not an event loop's default executor: that one is made per loop and
    its threads end with it, leaving each thread's kept connection open until the garbage
    collector finds it (a test process makes a loop per test: it ran PostgreSQL out of
    connections), and these bound the process's read connections."""
    if not _read_executors:
        _read_executors.append(WorkThreads(settings.POKER_READ_THREADS, "reads"))
    return _read_executors[0]


def read_async(function: Callable[P, R]) -> Callable[P, Coroutine[Any, Any, R]]:
    """A read from the event loop: off the shared sync thread where that is safe."""
    read = work_cpu.timed(looked_at_now_and_then(function), work_name(function))
    if not reads_off_thread():
        return sync_to_async(read, thread_sensitive=True)
    return _on(read_executor(), read)


#: The write threads of this process (``write_async``), made on first use.
_write_executors: list[WorkThreads] = []


def write_executor(table_id: int) -> WorkThreads | None:
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
        _write_executors.extend(WorkThreads(1, f"table-writes-{n}") for n in range(threads))
    return _write_executors[table_id % len(_write_executors)]


def write_async(
    table_id: int, function: Callable[P, R], name: str | None = None
) -> Callable[P, Coroutine[Any, Any, R]]:
    """A service that writes to table ``table_id``, on its table's write thread, after
    Django's look at the thread's connections where one is due (``looked_at_before_writing``);
    ``name``: what ``work_cpu`` counts it as (default: the function's)."""
    write = work_cpu.timed(looked_at_before_writing(function), name or work_name(function))
    executor = write_executor(table_id)
    if executor is None:
        return sync_to_async(write, thread_sensitive=True)
    return _on(executor, write)
