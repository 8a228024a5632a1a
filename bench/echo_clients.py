"""The bare echo's clients for the load benchmark: six to a room on ``bench/echo_asgi.py``,
passing one message round, so the benchmark can show what the game costs over the channel
layer alone."""

from __future__ import annotations

import asyncio
import json
import random
import time

from pokerclient.backoff import Backoff
from tests.load.clients import RECONNECT_FIRST, RECONNECT_MOST

PLAYERS = 6


def client_url(urls: list[str], table: int, player: int, spread: bool = False) -> str:
    """The server a table's player connects to: all six of a table to one (as
    ``deploy/nginx.conf`` routes a table's sockets), the tables dealt round the servers; or,
    ``spread``, each table's players dealt round them (three on each of two), so that the
    processes that do not run the table forward its players' requests to the one that does."""
    return urls[(table + player if spread else table) % len(urls)]


class EchoClient:
    """Six of these share a room; each sends when the previous message came from its left."""

    def __init__(self, base: str, room: int, index: int, session: str, room_state: dict):
        self.base, self.room, self.index, self.session = base, room, index, session
        self.state = room_state  # shared per room: {"clients", "pending", "latencies", "n"}

    async def run(self, stop: asyncio.Event, ready: asyncio.Event) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import InvalidHandshake, InvalidMessage

        backoff = Backoff(RECONNECT_FIRST, RECONNECT_MOST, rng=random.Random(self.room))
        while True:  # a busy server may drop the handshake: try again, as the players do
            try:
                ws = await connect(
                    f"{self.base}/ws/echo/{self.room}/",
                    origin=self.base.replace("ws://", "http://"),
                    additional_headers={"Cookie": f"sessionid={self.session}"},
                    open_timeout=60,
                    ping_interval=None,
                    compression=None,
                )
                break
            except (TimeoutError, OSError, InvalidHandshake, InvalidMessage):
                self.state["retried"] += 1
                await asyncio.sleep(backoff.next_delay())
        async with ws:
            self.ws = ws
            self.state["connected"] += 1
            await ready.wait()
            if self.index == 0:
                await self.send(0)
            reader = asyncio.ensure_future(self.read(stop))
            await stop.wait()
            reader.cancel()

    async def send(self, n: int) -> None:
        self.state["pending"][n] = (time.perf_counter(), set(range(PLAYERS)))
        await self.ws.send(json.dumps({"n": n, "from": self.index}))

    async def read(self, stop: asyncio.Event) -> None:
        async for raw in self.ws:
            now = time.perf_counter()
            n = json.loads(raw)["n"]
            started, waiting = self.state["pending"].get(n, (None, set()))
            waiting.discard(self.index)
            if started is not None and not waiting:
                self.state["latencies"].append(now - started)
                del self.state["pending"][n]
                nxt = self.state["clients"][(n + 1) % PLAYERS]
                if not stop.is_set():
                    await nxt.send(n + 1)


async def play_echo(
    urls: list[str], tables: list[dict], seconds: float, go, spread: bool = False
) -> dict:
    """Six echo clients per table's room (on ``urls`` as the table's players:
    ``client_url``), passing one message round."""
    rooms = []
    stop, ready = asyncio.Event(), asyncio.Event()
    tasks = []
    for table in tables:
        state = {"clients": [], "pending": {}, "latencies": [], "connected": 0, "retried": 0}
        for p, player in enumerate(table["players"]):
            url = client_url(urls, table["index"], p, spread)
            state["clients"].append(EchoClient(url, table["id"], p, player["session"], state))
        rooms.append(state)
        tasks += [asyncio.ensure_future(c.run(stop, ready)) for c in state["clients"]]
    deadline = time.monotonic() + 120
    while sum(r["connected"] for r in rooms) < len(rooms) * PLAYERS:
        if time.monotonic() > deadline:
            raise TimeoutError("echo clients did not all connect within 120 s")
        await asyncio.sleep(0.1)
    ready.set()
    await asyncio.sleep(1)  # warm-up
    await go()
    for room in rooms:
        room["latencies"].clear()
    start = time.perf_counter()
    await asyncio.sleep(seconds)
    elapsed = time.perf_counter() - start
    latencies = [x for r in rooms for x in r["latencies"]]
    stop.set()
    await asyncio.wait(tasks, timeout=30)
    return {"latencies": latencies, "elapsed": elapsed}
