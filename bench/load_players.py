"""The load benchmark's client side (``bench_load.py --worker``): one process playing its share
of the tables, what it measured printed as JSON lines for the parent.

A worker speaks to its parent over stdin/stdout so every worker's sockets connect at the same
moment (the rush) and the measured window starts at the same moment:

    worker: SPAWNED            parent: CONNECT   (every socket connects now)
    worker: READY {connect}    parent: GO        (the measured window starts)
    worker: ENDED              parent: CLOSE     (the window ended; the sockets close now)
    worker: RESULT {measured}

Between ENDED and CLOSE the parent reads the servers' runtime figures: a table's runtime, and
what it counted, ends with its last socket.

``connect`` says how long until every socket had its first state (None: not all did within the
deadline), the handshakes tried, and the sockets the server shed; ``measured`` the latencies of
the accepted actions, the sizes of the frames received in the window (JSON players and, at a
sample of tables, a browser's socket of the first player, which gets htmx's HTML), and how many
actions each table saw.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import sys
import time
from collections import Counter

import orjson

from bench.echo_clients import client_url
from pokerclient.backoff import Backoff
from tests.load.clients import RECONNECT_FIRST, RECONNECT_MOST, Client, Tracker, origin_of

#: Tables (per worker) where the first player also has a browser's socket (HTML frames).
BROWSER_TABLES = 5
BUY_IN = 200
#: Sockets without a state after the connect deadline named in a worker's report, at most.
WITHOUT_STATE_SHOWN = 10


class CountingTracker(Tracker):
    """The harness's tracker, also counting the actions delivered at each table, and keeping
    every state a player's socket received (``frames``, when ``recording``: the multi-host
    harness checks them for hidden cards, ``deploy/hosts/leaks.py``)."""

    def __init__(self, recording: bool = False) -> None:
        super().__init__()
        self.per_table: Counter[int] = Counter()
        self.recording = recording
        self.frames: list[bytes] = []

    def received(self, table_id: int, client, version: int, now: float) -> None:
        before = len(self.latencies)
        super().received(table_id, client, version, now)
        self.per_table[table_id] += len(self.latencies) - before
        if self.recording:  # the state as it stands now: later updates patch a copy
            viewer = client.player["id"]
            self.frames.append(
                orjson.dumps({"table": table_id, "viewer": viewer, "state": client.last_state})
            )

    def restart(self) -> None:
        self.latencies.clear()
        self.per_table.clear()


class BrowserSocket:
    """A table page's socket (no ``?state=json``: htmx's HTML frames), only listening: the
    sizes of the frames it receives while ``counting``. Reconnects as the page does."""

    def __init__(
        self, base: str, table_id: int, session: str, seed: int, viewer: int | None = None
    ) -> None:
        self.base, self.table_id, self.session = base, table_id, session
        self.viewer = viewer  # the player whose page it is (recorded with each frame)
        self.recorded: list[bytes] | None = None  # every frame, when a list is given
        self.sizes: list[int] = []
        self.counting = False
        self.backoff = Backoff(RECONNECT_FIRST, RECONNECT_MOST, rng=random.Random(seed))

    async def run(self, stop: asyncio.Event) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidHandshake

        while not stop.is_set():
            try:
                async with connect(
                    f"{self.base}/ws/tables/{self.table_id}/",
                    origin=origin_of(self.base),
                    additional_headers={"Cookie": f"sessionid={self.session}"},
                    open_timeout=60,
                    ping_interval=None,
                    max_size=2**22,
                    compression=None,
                ) as ws:
                    self.backoff.reset()
                    if self.recorded is not None:  # a new page: its regions start afresh
                        self.recorded.append(orjson.dumps({"table": self.table_id, "page": 1}))
                    reader = asyncio.ensure_future(self._read(ws))
                    stopper = asyncio.ensure_future(stop.wait())
                    await asyncio.wait({reader, stopper}, return_when=asyncio.FIRST_COMPLETED)
                    stopper.cancel()
                    reader.cancel()
            except (TimeoutError, OSError, ConnectionClosed, InvalidHandshake):
                pass
            if not stop.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), self.backoff.next_delay())

    async def _read(self, ws) -> None:
        async for raw in ws:
            if self.counting:
                self.sizes.append(len(raw.encode()) if isinstance(raw, str) else len(raw))
            if self.recorded is not None:
                html = raw if isinstance(raw, str) else raw.decode()
                self.recorded.append(
                    orjson.dumps({"table": self.table_id, "viewer": self.viewer, "html": html})
                )


def _thinking(client: Client, rng: random.Random, think: tuple[float, float]):
    """The client's ``_maybe_act`` with a think time drawn uniformly from ``think`` per decision
    (a person takes a moment: the fair model of a real table)."""
    original = type(client)._maybe_act

    async def maybe_act(ws, frame):
        client.think = rng.uniform(*think)
        await original(client, ws, frame)

    return maybe_act


def _line(tag: str, payload: dict | None = None) -> None:
    print(tag + ("" if payload is None else " " + json.dumps(payload)), flush=True)


async def _parent_says(word: str) -> None:
    line = await asyncio.to_thread(sys.stdin.readline)
    if line.strip() != word:
        raise RuntimeError(f"expected {word} from the benchmark, got {line!r}")


async def play_tables(spec: dict) -> dict:
    """Play ``spec["tables"]`` (6 clients each, on ``spec["urls"]`` as ``client_url`` deals
    them) as the module docstring tells. Returns the measured window."""
    from websockets.exceptions import ConnectionClosed

    def quiet_closed(loop, context):  # an action still "thinking" when its socket closed
        if not isinstance(context.get("exception"), ConnectionClosed):
            loop.default_exception_handler(context)

    asyncio.get_running_loop().set_exception_handler(quiet_closed)
    urls, tables, think = spec["urls"], spec["tables"], tuple(spec["think"])
    spread = spec.get("spread", False)
    frames_file = spec.get("frames_file")  # every frame kept, for the no-leak check
    tracker = CountingTracker(recording=bool(frames_file))
    clients, browsers = [], []
    for table in tables:
        for p, player in enumerate(table["players"]):
            url = client_url(urls, table["index"], p, spread)
            client = Client(
                servers=[url],
                table_id=table["id"],
                player=player,
                tracker=tracker,
                seed=table["index"] * 10 + p,
            )
            client.think = 0.0
            client.rebuy = BUY_IN  # a busted player sits down again: six players a table
            client.tries_again = True  # told "try again" (a table moving host), it does
            if think[1] > 0:
                rng = random.Random(table["index"] * 10 + p)
                client._maybe_act = _thinking(client, rng, think)
            clients.append(client)
        if len(browsers) < BROWSER_TABLES or frames_file:  # recording: a page at every table
            first = table["players"][0]
            url = client_url(urls, table["index"], 0, spread)  # the first player's server
            browser = BrowserSocket(
                url, table["id"], first["session"], table["index"], first.get("id")
            )
            if frames_file:
                browser.recorded = tracker.frames
            browsers.append(browser)
    _line("SPAWNED")
    await _parent_says("CONNECT")
    stop = asyncio.Event()
    started = time.monotonic()
    tasks = [asyncio.ensure_future(c.run(stop)) for c in clients]
    tasks += [asyncio.ensure_future(b.run(stop)) for b in browsers]
    deadline = started + spec["connect_deadline"]
    all_in = None
    while time.monotonic() < deadline:
        if all(c.versions for c in clients):
            all_in = time.monotonic() - started
            break
        await asyncio.sleep(0.05)  # benchmark pacing, not a test
    connect = {
        "seconds": all_in,
        "sockets": len(clients),
        "with_state": sum(1 for c in clients if c.versions),
        "attempts": sum(c.attempts for c in clients),
        "shed": sum(c.shed for c in clients),
        # The first few sockets still without a state: where to look in the servers' logs.
        "without_state": [
            {
                "table": c.table_id,
                "player": c.name,
                "attempts": c.attempts,
                "connects": c.connects,
                "frames": c.frames,
            }
            for c in clients
            if not c.versions
        ][:WITHOUT_STATE_SHOWN],
    }
    if warms_up(spec["rush"], all_in):
        # Warm up until hands are being played, then ``warm_up`` seconds more: every table
        # was set up at the same moment, so their first hands start, and their players act,
        # in step (a burst no real room sees); measure once the tables have drifted apart.
        while len(tracker.latencies) < len(tables):
            if time.monotonic() > deadline + 60:
                raise TimeoutError("hands were not under way at every table")
            await asyncio.sleep(0.1)
        await asyncio.sleep(spec["warm_up"])
    _line("READY", connect)
    await _parent_says("GO")
    for client in clients:
        client.frame_sizes.clear()
        client.table_frames = 0
        client.count_frames = True
    for browser in browsers:
        browser.counting = True
    tracker.restart()
    start = time.perf_counter()
    await asyncio.sleep(spec["seconds"])
    elapsed = time.perf_counter() - start
    browser_tables = {b.table_id for b in browsers}
    out = {
        "latencies": list(tracker.latencies),
        "elapsed": elapsed,
        "json_sizes": [n for c in clients for n in c.frame_sizes],
        "json_sockets": len(clients),
        "json_table_frames": sum(c.table_frames for c in clients),
        "browser_sizes": [n for b in browsers for n in b.sizes],
        "browser_sockets": len(browsers),
        "browser_table_actions": sum(tracker.per_table[t] for t in browser_tables),
        # sockets opened again after the first (a server lost: the multi-host harness)
        "reconnects": sum(max(0, c.connects - 1) for c in clients),
        "players_reconnected": sum(1 for c in clients if c.connects > 1),
        "players_reconnected_twice": sum(1 for c in clients if c.connects > 2),
        "most_reconnects": max((c.connects - 1 for c in clients), default=0),
        "refusals": sum(len(c.refusals) for c in clients),
        "refused_with": dict(Counter(m for c in clients for m in c.refusals).most_common(5)),
    }
    _line("ENDED")
    await _parent_says("CLOSE")
    stop.set()
    await asyncio.wait(tasks, timeout=30)
    if frames_file:
        with open(f"{frames_file}.{os.getpid()}", "wb") as kept:
            kept.writelines(frame + b"\n" for frame in tracker.frames)
    return out


def warms_up(rush: bool, all_in: float | None) -> bool:
    """Whether the play is measured after a warm-up: not after a rush, nor when some sockets
    never got their state by the deadline (a room past what the server admits: it is measured
    as it stands, the connect line saying how many got in, rather than given up)."""
    return not rush and all_in is not None


def worker_main(spec: dict) -> None:
    """``bench_load.py --worker``: one client process (see the module docstring)."""
    if spec["kind"] == "echo":
        from bench.echo_clients import play_echo

        async def go():
            _line("SPAWNED")
            await _parent_says("CONNECT")
            _line("READY", {})
            await _parent_says("GO")

        out = asyncio.run(
            play_echo(spec["urls"], spec["tables"], spec["seconds"], go, spec.get("spread", False))
        )
    else:
        out = asyncio.run(play_tables(spec))
    _line("RESULT", out)
