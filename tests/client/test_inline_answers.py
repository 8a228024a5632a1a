"""The client kit's socket (``pokerclient.live.TableSocket``) asks for ``answers=inline``: a
request carried out is resolved by the ``answer`` member of the update it brought, on a real
daphne server (``tests.client.conftest``), and the state handed on holds no answer."""

from __future__ import annotations

import asyncio
import json

import pytest

from pokerclient.live import TableSocket
from tests.client.conftest import make_players, make_table

pytestmark = pytest.mark.browser  # a real server: runs with the browser tests


async def test_a_request_is_resolved_by_the_answer_inside_its_update(server):
    table = make_table(server, "Inline answers")
    keys = make_players(server, "ivy")
    states: list[dict] = []
    received: list[dict] = []

    def trace(direction: str, frame: str) -> None:
        if direction == "<":
            received.append(json.loads(frame))

    socket = TableSocket(server.url, table, keys["ivy"], on_state=states.append, trace=trace)
    assert "answers=inline" in socket.url
    running = asyncio.create_task(socket.run())
    try:
        await asyncio.wait_for(socket.connected.wait(), 30)
        while not states:  # the first frame: the whole state
            await asyncio.sleep(0.01)

        answer = await socket.request("take_seat", buy_in=100)

        assert answer["error"] is False and answer["id"] == 1
        assert not [f for f in received if f["type"] == "answer"]
        (carrier,) = [f for f in received if "answer" in f]
        assert carrier["type"] == "update" and carrier["answer"]["id"] == 1
        assert states[-1]["version"] == carrier["version"] and "answer" not in states[-1]
        assert states[-1]["me"]["seated"] is True
    finally:
        await socket.stop()
        running.cancel()
