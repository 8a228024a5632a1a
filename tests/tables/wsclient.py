"""Websocket test clients: a logged-in player's socket on the real ASGI application."""

from __future__ import annotations

import asyncio
import json
import re

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

VERSION = re.compile(r'id="table-actions"[^>]*data-version="(\d+)"')
HAND = re.compile(r'"hand": "(\d*)"')


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


def communicator(
    table_id: int,
    cookie: str | None = None,
    origin: str | None = "http://testserver",
    query: str = "",
    host: str = "testserver",
    headers: dict | None = None,
):
    """A socket to the table through the whole ASGI stack; ``query`` e.g. ``"state=json"``;
    ``origin=None`` sends no Origin; ``headers``: more headers (name -> value)."""
    from pokersite.asgi import application

    sent = [(b"host", host.encode())]
    if origin is not None:
        sent.append((b"origin", origin.encode()))
    if cookie:
        sent.append((b"cookie", cookie.encode()))
    sent += [(name.lower().encode(), value.encode()) for name, value in (headers or {}).items()]
    path = f"/ws/tables/{table_id}/" + (f"?{query}" if query else "")
    return WebsocketCommunicator(application, path, headers=sent)


def valid_close_code(code) -> bool:
    """What a websocket server may send (RFC 6455; autobahn, under daphne, raises on others)."""
    return code == 1000 or (isinstance(code, int) and 3000 <= code <= 4999)


async def closed_with(comm: WebsocketCommunicator, timeout: float = 5) -> int:
    """The code the server closes ``comm`` with (skipping the frames before), checked valid."""
    while True:
        output = await comm.receive_output(timeout=timeout)
        if output["type"] == "websocket.close":
            code = output.get("code", 1000)
            assert valid_close_code(code), f"invalid close code {code}"
            return code


async def handled_to_the_end(comm: WebsocketCommunicator, timeout: float = 5) -> list[dict]:
    """The client goes away and the consumer ends: every frame sent before has been handled
    (a consumer handles its messages in order), so what it did is in the database now, with no
    sleep to wait for it. Returns what it sent meanwhile."""
    await comm.send_input({"type": "websocket.disconnect", "code": 1000})
    await comm.wait(timeout)
    sent = []
    while not comm.output_queue.empty():
        sent.append(comm.output_queue.get_nowait())
    return sent


#: A bound on a handshake, not a measure (channels' default is 1 s: too short for a busy
#: machine running the tests on parallel workers).
CONNECT_SECONDS = 10


async def refused_with(comm: WebsocketCommunicator) -> int:
    """Connect ``comm``: it is accepted, then closed at once; the close code."""
    connected, _ = await comm.connect(timeout=CONNECT_SECONDS)
    assert connected, "refused at the handshake, not with a close code"
    return await closed_with(comm)


def version_of(frame: str) -> int | None:
    if frame.startswith('{"type":'):  # a program's socket (?state=json): a state or update
        version = json.loads(frame).get("version")
        return version if isinstance(version, int) else None
    match = VERSION.search(frame)
    return int(match.group(1)) if match else None


def hand_of(frame: str) -> int | None:
    match = HAND.search(frame)
    return int(match.group(1)) if match and match.group(1) else None


class Socket:
    """One socket with every frame it received (``frames``) kept for later checks."""

    def __init__(self, name: str, comm: WebsocketCommunicator):
        self.name = name
        self.comm = comm
        self.frames: list[str] = []
        self.version = 0
        self.hand = None

    async def connect(self):
        connected, code = await self.comm.connect(timeout=CONNECT_SECONDS)
        assert connected, f"{self.name}: refused ({code})"
        await self.until(lambda f: version_of(f) is not None)
        return self

    async def receive(self, timeout: float = 5) -> str:
        frame = await self.comm.receive_from(timeout=timeout)
        self.frames.append(frame)
        v = version_of(frame)
        if v is not None:
            self.version = v
            self.hand = hand_of(frame)
        return frame

    async def until(self, pred, timeout: float = 10) -> str:
        """Receive frames until one satisfies ``pred`` (bounded by ``timeout``)."""

        async def loop():
            while True:
                frame = await self.receive(timeout)
                if pred(frame):
                    return frame

        return await asyncio.wait_for(loop(), timeout)

    async def until_version(self, version: int, timeout: float = 10) -> str:
        return await self.until(lambda f: (version_of(f) or 0) >= version, timeout)

    async def drain(self, timeout: float = 0.2) -> list[str]:
        """Whatever frames are waiting now (nothing more arriving within ``timeout``)."""
        got = []
        while not await self.comm.receive_nothing(timeout=timeout):
            got.append(await self.receive())
        return got

    async def send(self, **data):
        data.setdefault("HEADERS", {"HX-Request": "true", "HX-Trigger": None})
        await self.comm.send_to(text_data=json.dumps(data))

    async def act(self, kind: str, amount: int | None = None, *, version=None, hand=None):
        await self.send(
            op="act",
            kind=kind,
            amount="" if amount is None else str(amount),
            hand=str(hand if hand is not None else self.hand),
            version=str(version if version is not None else self.version),
        )

    async def close(self):
        await self.comm.disconnect()


async def json_socket(table, cookie) -> Socket:
    """A ``?state=json`` socket on ``table``, connected, its first state frame read."""
    socket = Socket("json", communicator(table.pk, cookie, query="state=json"))
    connected, _ = await socket.comm.connect(timeout=CONNECT_SECONDS)
    assert connected
    assert json.loads(await socket.receive())["type"] == "state"
    return socket


async def owned_hand(table, players, cookies):
    """Alice's socket on this process's runtime (the owner), bob seated, a hand dealt and
    shown: the socket, the runtime, the snapshot and the player to act."""
    from tables.live.runtime import TableRuntime
    from tables.models import Table
    from tables.services import hand_start, seat_take

    await sync_to_async(seat_take)(table=table, player=players[1], buy_in=200, seat_number=1)
    socket = await Socket("alice", communicator(table.pk, cookies[0])).connect()
    runtime = TableRuntime.following(table.pk)
    assert runtime is not None and runtime.owner
    await sync_to_async(hand_start)(table=table)
    version = (await Table.objects.aget(pk=table.pk)).version
    await socket.until_version(version)
    await runtime.call(lambda: asyncio.sleep(0))  # the change shown: the runtime holds it
    snapshot = runtime.snapshot
    actor_id = snapshot.hand.seats[snapshot.state.actor]["player_id"]
    actor = next(p for p in players if p.pk == actor_id)
    return socket, runtime, snapshot, actor
