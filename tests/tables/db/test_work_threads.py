"""The site's own threads for the event loop's blocking calls (``tables.db.threads.WorkThreads``):
a call's result or error comes back to its caller, with the caller's context variables; one
thread runs its calls in the order sent; a call its caller stopped waiting for before it began
is not run; a call whose loop has closed meanwhile does not stop the thread."""

import asyncio
import contextvars
import threading

import pytest

from tables.db.threads import WorkThreads

who: contextvars.ContextVar[str] = contextvars.ContextVar("who", default="nobody")


async def test_a_call_comes_back_with_its_result_or_its_error_and_the_callers_context():
    threads = WorkThreads(1, "test-calls")
    token = who.set("the caller")
    try:
        assert await threads.run(lambda: (who.get(), threading.current_thread().name)) == (
            "the caller",
            "test-calls",
        )
    finally:
        who.reset(token)

    def fails() -> None:
        raise LookupError("no such row")

    with pytest.raises(LookupError, match="no such row"):
        await threads.run(fails)

    def stops() -> None:
        raise StopIteration

    with pytest.raises(RuntimeError, match="StopIteration"):  # a future cannot hold one
        await threads.run(stops)
    assert await threads.run(lambda: "still serving") == "still serving"


async def test_one_thread_runs_its_calls_in_order_and_skips_one_nobody_waits_for():
    threads = WorkThreads(1, "test-order")
    release, started = threading.Event(), threading.Event()
    ran: list[str] = []

    def first() -> str:
        started.set()
        assert release.wait(30)
        ran.append("first")
        return "first"

    held = threads.run(first)
    assert await asyncio.to_thread(started.wait, 30)
    given_up = threads.run(lambda: ran.append("given up"))
    last = threads.run(lambda: ran.append("last") or "last")
    given_up.cancel()  # before its turn came: never run
    release.set()
    assert await asyncio.wait_for(held, 30) == "first"
    assert await asyncio.wait_for(last, 30) == "last"
    assert ran == ["first", "last"]


def test_a_call_whose_loop_closed_meanwhile_leaves_the_thread_serving():
    threads = WorkThreads(1, "test-closed")
    release = threading.Event()

    async def leave_a_call_behind() -> None:
        threads.run(lambda: release.wait(30))  # nobody will wait for it

    asyncio.run(leave_a_call_behind())  # this loop is closed before the call ends
    release.set()

    async def ask() -> str:
        return await asyncio.wait_for(threads.run(lambda: "served"), 30)

    assert asyncio.run(ask()) == "served"
