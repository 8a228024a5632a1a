"""Frame sizes on the table socket, browser and JSON, through the real server.

One embedded server (SQLite, in-memory layer), ``--tables`` tables of six players who play
as ``bench/bench_load.py``'s do (the load clients, ``tests.load.clients``, thinking
``--think`` seconds). Beside them, at each table, two players also follow it with a browser's
socket (no query: htmx's HTML frames) and two with a program's (``?state=json&frames=diff``;
a server that does not know ``frames=diff`` sends its whole JSON state). For ``--seconds``
every frame those sockets receive after their first is counted: the update frames' sizes
(median, p99, largest) and the bytes per accepted action per socket.

It measures the tree it is run from, so the same script measures another checkout (the code
before a change) back to back:

    .venv/bin/python bench/bench_frames.py --tables 10
    (cd /work/baseline && .venv/bin/python /work/wt/render/bench/bench_frames.py --tables 10)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path.cwd()
sys.path.insert(0, str(ROOT))

from tests.load.harness import (  # noqa: E402
    PYTHON,
    Client,
    Server,
    Tracker,
    build_world,
    percentile,
    server_env,
)

BUY_IN = 200
QUERIES = {"browser": "", "json": "?state=json&frames=diff"}


class Follower:
    """A socket that only follows the table, counting what it is sent."""

    def __init__(self, url: str, table_id: int, player: dict, kind: str) -> None:
        self.url, self.table_id, self.player, self.kind = url, table_id, player, kind
        self.sizes: list[int] = []
        self.counting = False
        self.first = True

    async def run(self, stop: asyncio.Event) -> None:
        from websockets.asyncio.client import connect

        async with connect(
            f"{self.url}/ws/tables/{self.table_id}/{QUERIES[self.kind]}",
            origin=self.url.replace("ws://", "http://"),
            additional_headers={"Cookie": f"sessionid={self.player['session']}"},
            open_timeout=60,
            ping_interval=None,
            max_size=2**22,
            compression=None,
        ) as ws:
            reader = asyncio.ensure_future(self._read(ws))
            await stop.wait()
            reader.cancel()

    async def _read(self, ws) -> None:
        async for raw in ws:
            if not self._is_update(raw):
                continue
            if self.first:  # the whole table on connecting: not an update
                self.first = False
                continue
            if self.counting:
                self.sizes.append(len(raw.encode()))

    def _is_update(self, raw: str) -> bool:
        if self.kind == "browser":
            return 'id="table-' in raw or 'id="seat-' in raw
        return raw.startswith('{"type":"state"') or raw.startswith('{"type":"update"')


async def play(url: str, world: dict, seconds: float, think: tuple[float, float]) -> dict:
    tracker = Tracker()
    clients, followers = [], []
    for t, table in enumerate(world["tables"]):
        for p, player in enumerate(table["players"]):
            client = Client(
                servers=[url], table_id=table["id"], player=player, tracker=tracker, seed=t * 10 + p
            )
            client.think = random.Random(t * 10 + p).uniform(*think)
            client.rebuy = BUY_IN
            clients.append(client)
        for p, kind in ((0, "browser"), (1, "browser"), (2, "json"), (3, "json")):
            followers.append(Follower(url, table["id"], table["players"][p], kind))
    stop = asyncio.Event()
    tasks = [asyncio.ensure_future(c.run(stop)) for c in (*clients, *followers)]
    deadline = time.monotonic() + 120
    while any(not c.versions for c in clients) or len(tracker.latencies) < len(clients) // 6:
        if time.monotonic() > deadline:
            raise TimeoutError("the tables did not start within 120 s")
        await asyncio.sleep(0.1)  # benchmark pacing, not a test
    await asyncio.sleep(3)
    tracker.latencies.clear()
    for follower in followers:
        follower.counting = True
    await asyncio.sleep(seconds)
    for follower in followers:
        follower.counting = False
    actions = len(tracker.latencies)
    stop.set()
    await asyncio.wait(tasks, timeout=30)
    out: dict = {"actions": actions}
    for kind in QUERIES:
        mine = [f for f in followers if f.kind == kind]
        sizes = [size for f in mine for size in f.sizes]
        out[kind] = {
            "frames": len(sizes),
            "median": statistics.median(sizes) if sizes else 0,
            "p99": percentile(sizes, 99) if sizes else 0,
            "max": max(sizes, default=0),
            # each socket follows one table: its table's share of the accepted actions
            "per_action": sum(sizes) / (actions / len(world["tables"])) / len(mine)
            if actions
            else 0,
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--think", default="0.2-0.6")
    args = parser.parse_args()
    low, _, high = args.think.partition("-")
    think = (float(low), float(high or low))
    path = Path(tempfile.mkdtemp(prefix="bench-frames-")) / "db.sqlite3"
    extra = {"POKER_HAND_PAUSE_SECONDS": "0.2", "RATELIMIT_ENABLED": "0", "DEBUG": "0"}
    env = server_env(f"sqlite:///{path}", None, **extra)
    subprocess.run(
        [PYTHON, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env={**os.environ, **env},
        check=True,
        timeout=300,
    )
    spec = {
        "tables": args.tables,
        "humans": 6,
        "buy_in": BUY_IN,
        "table": {"action_seconds": 60, "time_bank_seconds": 0},
    }
    world = build_world(env, spec)
    server = Server(env, name="frames")
    server.start()
    try:
        out = asyncio.run(play(server.ws, world, args.seconds, think))
    finally:
        server.close()
    print(f"{ROOT}: {args.tables} tables, {out['actions']} actions in {args.seconds:g} s")
    for kind in QUERIES:
        k = out[kind]
        print(
            f"  {kind:8} update frames {k['frames']:6}: median {k['median']:7.0f} B, "
            f"p99 {k['p99']:7.0f} B, max {k['max']:7.0f} B, "
            f"{k['per_action']:7.0f} B per action per socket"
        )
    print("RESULT " + json.dumps(out))


if __name__ == "__main__":
    main()
