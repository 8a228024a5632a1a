"""Reconnect pauses (``pokerclient.backoff``): every client the project ships waits a jittered,
growing, bounded pause before it opens a dropped socket again, so a room that lost its sockets
at one moment does not come back at one moment."""

import random

import pytest

from pokerclient.backoff import Backoff


def delays(backoff: Backoff, n: int) -> list[float]:
    return [backoff.next_delay() for _ in range(n)]


def test_each_pause_lies_between_half_and_all_of_a_bound_that_doubles_up_to_the_most():
    backoff = Backoff(0.5, 8.0, rng=random.Random(1))
    bounds = []
    for _ in range(8):
        bounds.append(backoff.bound())
        pause = backoff.next_delay()
        assert bounds[-1] / 2 <= pause <= bounds[-1]
    assert bounds == [0.5, 1.0, 2.0, 4.0, 8.0, 8.0, 8.0, 8.0]


def test_the_pauses_grow_and_never_pass_the_most():
    pauses = delays(Backoff(0.5, 8.0, rng=random.Random(2)), 50)
    assert max(pauses) <= 8.0
    # half the bound at the least: the fifth pause is longer than any the first could be
    assert min(pauses[4:]) > 0.5


def test_a_crowd_spreads_out_rather_than_coming_back_at_once():
    """A thousand sockets shed at one moment: their first retries fall all over the window."""
    firsts = [Backoff(0.5, 8.0, rng=random.Random(seed)).next_delay() for seed in range(1000)]
    assert len({round(p, 3) for p in firsts}) > 200
    assert min(firsts) < 0.3 and max(firsts) > 0.45


def test_a_socket_that_opened_starts_over():
    backoff = Backoff(0.5, 8.0, rng=random.Random(3))
    delays(backoff, 6)
    backoff.reset()
    assert backoff.bound() == 0.5 and backoff.next_delay() <= 0.5


def test_a_huge_streak_of_failures_stays_bounded():
    backoff = Backoff(0.5, 8.0, rng=random.Random(4))
    backoff.failures = 10_000
    assert backoff.next_delay() <= 8.0


@pytest.mark.parametrize("first, most", [(0, 1), (-1, 1), (2, 1)])
def test_a_backoff_that_cannot_work_is_refused(first, most):
    with pytest.raises(ValueError, match="backoff needs"):
        Backoff(first, most)


def test_the_terminal_client_and_the_load_clients_back_off():
    """The socket of the terminal client and bot kit, and the load tests' and benchmark's
    players, each reconnect through a ``Backoff``; the load clients know the busy close."""
    from pokerclient.live import RETRY_FIRST, RETRY_MOST, TableSocket
    from tables.live.protocol import SERVER_BUSY
    from tests.load.clients import SERVER_BUSY as LOAD_SERVER_BUSY, Client, Tracker

    socket = TableSocket("http://127.0.0.1:1", 1, "token", on_state=lambda state: None)
    assert (socket.backoff.first, socket.backoff.most) == (RETRY_FIRST, RETRY_MOST)
    client = Client(servers=["ws://127.0.0.1:1"], table_id=1, player={}, tracker=Tracker())
    assert isinstance(client.backoff, Backoff)
    assert LOAD_SERVER_BUSY == SERVER_BUSY


async def test_the_terminal_client_retries_a_refused_socket_after_each_pause():
    """Nothing listens on the port: each failed try waits the backoff's next pause."""
    import asyncio
    import socket as sockets

    with sockets.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    from pokerclient.live import TableSocket

    statuses: list[str] = []
    table_socket = TableSocket(
        f"http://127.0.0.1:{port}", 1, "token", on_state=lambda s: None, on_status=statuses.append
    )
    table_socket.backoff = Backoff(0.01, 0.04, rng=random.Random(5))
    running = asyncio.create_task(table_socket.run())
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 20
    while table_socket.reconnects < 4 and loop.time() < deadline:
        await asyncio.sleep(0.01)
    await table_socket.stop()
    running.cancel()
    assert table_socket.reconnects >= 4
    assert table_socket.backoff.failures == table_socket.reconnects
    assert sum("reconnecting in" in line for line in statuses) == table_socket.reconnects


async def test_the_terminal_client_backs_off_from_a_server_that_accepts_then_sheds_it():
    """The server accepts every handshake at once and may then close the socket with 4013
    (busy) or 4011 (trouble) before any state: the pauses keep growing until a socket gives
    the table, and then start over."""
    import asyncio
    import json

    from websockets.asyncio.server import serve

    from pokerclient.live import TableSocket

    opened = []

    async def shed_then_serve(connection) -> None:
        opened.append(connection)
        if len(opened) <= 4:
            await connection.close(4013 if len(opened) % 2 else 4011, "busy")
            return
        await connection.send(json.dumps({"type": "state", "version": 7, "state": {}}))
        await connection.wait_closed()

    async with serve(shed_then_serve, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        states = []
        table_socket = TableSocket(f"http://127.0.0.1:{port}", 1, "token", on_state=states.append)
        table_socket.backoff = Backoff(0.01, 1.0, rng=random.Random(6))
        running = asyncio.create_task(table_socket.run())
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 20
        failures = []
        while not states and loop.time() < deadline:
            failures.append(table_socket.backoff.failures)
            await asyncio.sleep(0.005)
        await table_socket.stop()
        running.cancel()
    assert table_socket.reconnects == 4 and len(opened) == 5
    assert max(failures) == 4  # four sheds in a row: four pauses, each bound twice the last
    assert [state["version"] for state in states] == [7]
    assert table_socket.backoff.failures == 0  # the table came: the next drop starts over
