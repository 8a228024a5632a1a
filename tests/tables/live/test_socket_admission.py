"""A connect rush survived (``tables.live.admission``): the handshake is accepted at once, the
joins (reads, runtime, first state) run a few at a time, and a socket whose turn would come too
late is shed at once with the documented busy close (4013), one whose turn has not come by
the limit then, never left to time out."""

import asyncio

import pytest
from asgiref.sync import sync_to_async

from tables.live import admission as admission_module
from tables.live.admission import admission
from tables.live.protocol import SERVER_BUSY
from tables.live.schemas import CLOSE_CODES
from tests.tables.wsclient import Socket, communicator, refused_with, session_cookie, version_of

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False


@pytest.fixture(autouse=True)
def fresh_admission(monkeypatch):
    """Each test's event loop starts with no joins under way and nothing shed."""
    monkeypatch.setattr(admission_module, "_admissions", {})


class HeldPlaces:
    """The test holding ``n`` of the loop's join places, as sockets joining would."""

    def __init__(self, n: int) -> None:
        self.turns = [admission().turn() for _ in range(n)]

    async def __aenter__(self):
        for turn in self.turns:
            await turn.__aenter__()
        return self

    async def __aexit__(self, *exc):
        for turn in self.turns:
            await turn.__aexit__(None, None, None)


async def test_the_handshake_is_accepted_at_once_and_the_state_follows_its_turn(
    players, table, monkeypatch
):
    monkeypatch.setattr(admission_module, "AT_ONCE", 1)
    cookie = await sync_to_async(session_cookie)(players[0].user)
    socket = Socket("alice", communicator(table.pk, cookie))
    async with HeldPlaces(1):  # the one place is taken: the socket waits its turn
        connected, _ = await socket.comm.connect()
        assert connected  # accepted without waiting for the turn
        assert await socket.comm.receive_nothing(timeout=0.3)  # no state yet
        assert admission().queued == 2
    frame = await socket.until(lambda f: version_of(f) is not None)
    assert version_of(frame) is not None
    await socket.close()
    assert admission().queued == 0


async def test_a_socket_that_left_while_it_waited_is_not_joined(players, table, monkeypatch):
    """In a rush a client that gave up costs no join (reads, runtime, first state)."""
    from tables.live.runtime import TableRuntime

    monkeypatch.setattr(admission_module, "AT_ONCE", 1)
    cookie = await sync_to_async(session_cookie)(players[0].user)
    socket = Socket("alice", communicator(table.pk, cookie))
    async with HeldPlaces(1):
        connected, _ = await socket.comm.connect()
        assert connected
        await socket.comm.send_input({"type": "websocket.disconnect", "code": 1001})
        assert await socket.comm.receive_nothing(timeout=0.3)
    await socket.comm.wait(5)  # its consumer ended
    sent = []
    while not socket.comm.output_queue.empty():
        sent.append(socket.comm.output_queue.get_nowait())
    assert [m for m in sent if m["type"] == "websocket.send"] == []  # no state rendered
    assert TableRuntime.following(table.pk) is None


async def test_a_socket_whose_turn_would_come_too_late_is_shed_with_the_busy_close(
    players, table, monkeypatch
):
    monkeypatch.setattr(admission_module, "WAIT_LIMIT_SECONDS", 0.0)
    cookie = await sync_to_async(session_cookie)(players[0].user)
    async with HeldPlaces(1):  # a join under way: a newcomer would wait for it
        assert await refused_with(communicator(table.pk, cookie)) == SERVER_BUSY
        assert await refused_with(communicator(table.pk, cookie, query="state=json")) == 4013
    assert admission().shed == 2
    # Nobody is waiting any more: the same socket, tried again, gets its table.
    again = await Socket("alice", communicator(table.pk, cookie)).connect()
    await again.close()


async def test_a_socket_still_waiting_for_its_turn_at_the_limit_is_shed_with_the_busy_close(
    players, table, monkeypatch
):
    """The expected wait said it could wait (no join had been timed yet, as at the start of a
    rush), but its turn did not come: it is closed with the busy code, not left waiting until
    its client gives up."""
    monkeypatch.setattr(admission_module, "AT_ONCE", 1)
    cookie = await sync_to_async(session_cookie)(players[0].user)
    async with HeldPlaces(1):  # the one place stays taken past the newcomer's limit
        monkeypatch.setattr(admission_module, "WAIT_LIMIT_SECONDS", 0.2)
        socket = Socket("alice", communicator(table.pk, cookie))
        connected, _ = await socket.comm.connect()
        assert connected  # admitted: its expected wait was under the limit
        assert await socket.comm.receive_output(timeout=5) == {
            "type": "websocket.close",
            "code": SERVER_BUSY,
        }
        assert admission().shed == 1
        assert admission().queued == 1  # only the held place: the shed socket is gone
    # With the places free again the same client gets its table.
    monkeypatch.setattr(admission_module, "WAIT_LIMIT_SECONDS", 60.0)
    again = await Socket("alice", communicator(table.pk, cookie)).connect()
    await again.close()
    assert admission().queued == 0


def test_the_busy_close_is_documented():
    assert SERVER_BUSY == 4013
    assert "too busy" in CLOSE_CODES[SERVER_BUSY]


async def test_the_expected_wait_follows_the_queue_and_the_joins_measured():
    gate = admission_module.Admission(at_once=2)
    assert gate.expected_wait() == 0 and gate.admit()
    async with gate.turn() as placed:
        assert placed
        assert gate.queued == 1
        assert gate.expected_wait() == pytest.approx(admission_module.FIRST_GUESS_SECONDS / 2)
    assert gate.queued == 0
    assert gate.mean_seconds < admission_module.FIRST_GUESS_SECONDS  # an instant join


async def test_a_turn_not_come_within_the_limit_is_refused_and_the_places_stay_right(
    monkeypatch,
):
    monkeypatch.setattr(admission_module, "WAIT_LIMIT_SECONDS", 0.05)
    gate = admission_module.Admission(at_once=1)
    async with gate.turn() as first:
        assert first  # a free place: taken at once
        async with gate.turn() as second:
            assert not second  # the one place stayed taken past the limit
        assert gate.shed == 1 and gate.queued == 1
        assert gate.places.locked()  # still the first turn's
    assert not gate.places.locked()  # the first turn gave its place back
    async with gate.turn() as third:
        assert third and gate.places.locked()  # one place again: given back once, not twice
    assert gate.queued == 0 and gate.shed == 1


async def test_the_handshake_is_accepted_before_the_application_behind_runs():
    """``accept_at_once``: the client has its accept before the session middleware and the
    consumer read anything; their own accept is dropped, their close goes through."""
    from channels.testing import WebsocketCommunicator

    from tables.live.admission import accept_at_once

    seen = []
    session_read = asyncio.Event()  # the application behind is stuck until the test says

    async def slow_application(scope, receive, send):
        seen.append((await receive())["type"])
        await session_read.wait()
        seen.append("application ran")
        await send({"type": "websocket.accept"})  # dropped: accepted already
        await send({"type": "websocket.close", "code": SERVER_BUSY})

    comm = WebsocketCommunicator(accept_at_once(slow_application), "/ws/tables/1/")
    connected, _ = await comm.connect()  # while the application is still stuck
    assert connected and seen == ["websocket.connect"]
    session_read.set()
    assert await comm.receive_output() == {"type": "websocket.close", "code": SERVER_BUSY}
    assert seen == ["websocket.connect", "application ran"]


async def test_an_accepted_socket_sends_past_the_wrapper():
    """``accept_at_once`` hands the application the server's own send (``SERVER_SEND``), and
    the table's consumer, accepted, sends each frame with it: no wrapper on a frame's way."""
    from channels.testing import WebsocketCommunicator

    from tables.live.admission import SERVER_SEND, accept_at_once
    from tables.live.consumer import TableConsumer

    given = []

    async def application(scope, receive, send):
        given.append(scope[SERVER_SEND])
        await send({"type": "websocket.close"})

    comm = WebsocketCommunicator(accept_at_once(application), "/ws/tables/1/")
    assert (await comm.connect())[0]
    assert await comm.receive_output() == {"type": "websocket.close"}
    assert given and given[0] is not None

    through_the_wrapper, to_the_server = [], []

    async def wrapper(message):
        through_the_wrapper.append(message)

    async def server(message):
        to_the_server.append(message)

    consumer = TableConsumer()
    consumer.scope = {SERVER_SEND: server}
    consumer.base_send = wrapper
    await consumer.accept()
    await consumer.send(text_data="a frame")
    assert through_the_wrapper == []  # nor the accept: the socket is accepted already
    assert to_the_server == [{"type": "websocket.send", "text": "a frame"}]
