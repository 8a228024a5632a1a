"""``tests/conftest.py``'s ``connection_looks_put_back``: Channels' test communicator leaves a
no-op in place of Django's ``close_old_connections`` when two of them wait at once, and the
fixture puts Django's back before the next test. The two tests run in this order (one file
stays on one worker)."""

from __future__ import annotations

import asyncio

import channels.db
import django.db
from channels.testing import ApplicationCommunicator


async def _answer_after(scope, receive, send) -> None:
    """An ASGI application that answers its one message after the delay it asks for."""
    message = await receive()
    await asyncio.sleep(message["delay"])
    await send({"type": "answer"})


async def test_two_communicators_waiting_at_once_leave_the_no_op_behind():
    quick = ApplicationCommunicator(_answer_after, {"type": "test"})
    slow = ApplicationCommunicator(_answer_after, {"type": "test"})
    await quick.send_input({"delay": 0.05})
    await slow.send_input({"delay": 0.3})
    # the quick one patches first and restores first: the slow one then "restores" the no-op
    quick_wait = asyncio.create_task(quick.receive_output(timeout=5))
    await asyncio.sleep(0)
    slow_wait = asyncio.create_task(slow.receive_output(timeout=5))
    assert await quick_wait == {"type": "answer"}
    assert await slow_wait == {"type": "answer"}
    assert channels.db.close_old_connections is not django.db.close_old_connections
    await quick.wait()
    await slow.wait()


def test_the_next_test_has_djangos_connection_look_again():
    assert channels.db.close_old_connections is django.db.close_old_connections
