"""The load tests' kit in one import: real servers (``tests.load.processes``) and the
players that load them (``tests.load.clients``)."""

import asyncio

from websockets.exceptions import InvalidStatus

from tests.load.clients import Client, Socket, Tracker, percentile, play, wait_for
from tests.load.processes import (
    PYTHON,
    ROOT,
    DbProxy,
    FreshDatabase,
    RedisServer,
    Server,
    build_world,
    free_port,
    listening_socket,
    server_env,
)

__all__ = [
    "PYTHON",
    "ROOT",
    "Client",
    "DbProxy",
    "FreshDatabase",
    "RedisServer",
    "Server",
    "Socket",
    "Tracker",
    "build_world",
    "free_port",
    "listening_socket",
    "opened_when_taken",
    "percentile",
    "play",
    "server_env",
    "wait_for",
]


async def opened_when_taken(server: Server, table_id: int, player: dict, sockets) -> Socket:
    """A socket of ``player`` on ``server``, once it takes sockets again (a handshake refused
    with 403 is tried again on the next frame of ``sockets``, or after a second)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 15
    while True:
        try:
            opened_socket = Socket(server, table_id, player)
            await opened_socket.open()
            break
        except InvalidStatus as refused:
            assert refused.response.status_code == 403
            if loop.time() > deadline:
                raise TimeoutError(f"{server.name} still refuses sockets") from None
            waits = [asyncio.ensure_future(s.changed.wait()) for s in sockets]
            await asyncio.wait(waits, timeout=1) if waits else await asyncio.sleep(1)
            for waiting in waits:
                waiting.cancel()
    await wait_for(
        lambda: opened_socket.state is not None,
        timeout=30,
        what="its first state",
        events=[opened_socket],
    )
    return opened_socket
