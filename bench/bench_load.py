"""Load benchmark: N tables x 6 websocket players through the real server, vs a bare echo.

For each set-up and table count it starts fresh servers and a fresh database, seats six
logged-in players at each table and connects each with its own websocket. Every player
decides with the engine's ``RandomBot`` from the view its own socket sends (``?state=json``),
so real hands are played through the real consumer, services, database and channel layer.
Measured for ``--seconds``:

- actions/s: player actions the server accepted;
- latency: from sending an action to the moment *every* client at that table has received
  the resulting update (p50 / p95 / p99).

In the same run, the same number of clients connects to a bare Channels echo consumer
(``bench/echo_asgi.py``) on the same server, six to a room: one client sends, the room gets
it through the channel layer, the next client sends. The ratio shows what the game costs.

Set-ups: ``embedded`` (SQLite + in-memory layer, one daphne) and ``redis`` (PostgreSQL +
channels-redis, two daphne processes, clients split between them). Only 127.0.0.1; at most
``MAX_TABLES`` tables and ``MAX_SECONDS`` seconds per measurement.

    .venv/bin/python bench/bench_load.py                      # both set-ups, 25/50/100 tables
    .venv/bin/python bench/bench_load.py --setup redis --tables 100,150 --seconds 20
    .venv/bin/python bench/bench_load.py --setup embedded --tables 100 --profile

``--profile`` samples the first server with py-spy (all threads) while the game is measured and
prints where the time goes: the functions most often on top of the stack (self time) and the
project functions most often anywhere on it (inclusive time).
PostgreSQL comes from ``DATABASE_URL`` (default ``postgres://postgres@127.0.0.1:5432/test``:
a new database is created next to it and dropped afterwards); Redis is a private
``redis-server`` on a free port.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.load.harness import (  # noqa: E402
    PYTHON,
    Client,
    FreshDatabase,
    RedisServer,
    Server,
    Tracker,
    build_world,
    percentile,
    server_env,
)

MAX_TABLES = 200
MAX_SECONDS = 120
PLAYERS = 6


class EchoClient:
    """Six of these share a room; each sends when the previous message came from its left."""

    def __init__(self, base: str, room: int, index: int, session: str, room_state: dict):
        self.base, self.room, self.index, self.session = base, room, index, session
        self.state = room_state  # shared per room: {"clients", "pending", "latencies", "n"}

    async def run(self, stop: asyncio.Event, ready: asyncio.Event) -> None:
        from websockets.asyncio.client import connect

        async with connect(
            f"{self.base}/ws/echo/{self.room}/", origin=self.base.replace("ws://", "http://"),
            additional_headers={"Cookie": f"sessionid={self.session}"},
            open_timeout=60, ping_interval=None, compression=None,
        ) as ws:
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


def summary(latencies: list[float], count: int, seconds: float) -> dict:
    return {
        "per_s": count / seconds,
        "p50": percentile(latencies, 50) * 1000,
        "p95": percentile(latencies, 95) * 1000,
        "p99": percentile(latencies, 99) * 1000,
        "n": count,
    }


async def measure_game(servers: list[Server], world: dict, seconds: float,
                       profile: str = "", think: float = 0.0) -> dict:
    tracker = Tracker()
    clients = []
    for t, table in enumerate(world["tables"]):
        for p, player in enumerate(table["players"]):
            first = servers[(t * PLAYERS + p) % len(servers)]
            clients.append(Client(servers=[first.ws], table_id=table["id"], player=player,
                                  tracker=tracker, seed=t * 10 + p, think=think))
    stop = asyncio.Event()
    tasks = [asyncio.ensure_future(c.run(stop)) for c in clients]
    # Warm up until every socket has its first state and hands are being played.
    deadline = time.monotonic() + 120
    while any(not c.versions for c in clients) or len(tracker.latencies) < len(world["tables"]):
        if time.monotonic() > deadline:
            raise TimeoutError("clients did not all get a state within 120 s")
        await asyncio.sleep(0.1)  # benchmark pacing, not a test
    start_count = len(tracker.latencies)
    tracker.latencies.clear()
    spy = None
    if profile:
        spy = subprocess.Popen(
            [str(Path(PYTHON).parent / "py-spy"), "record", "--nonblocking", "-r", "50",
             "-d", str(int(seconds)), "-f", "raw", "-o", profile,
             "-p", str(servers[0].proc.pid)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
    start = time.perf_counter()
    await asyncio.sleep(seconds)
    elapsed = time.perf_counter() - start
    latencies = list(tracker.latencies)
    if spy is not None:
        await asyncio.to_thread(spy.wait, 60)
    accepted = len(latencies)
    stop.set()
    await asyncio.wait(tasks, timeout=30)
    del start_count
    return summary(latencies, accepted, elapsed)


async def measure_echo(servers: list[Server], world: dict, seconds: float) -> dict:
    rooms = []
    stop, ready = asyncio.Event(), asyncio.Event()
    tasks = []
    for t, table in enumerate(world["tables"]):
        state = {"clients": [], "pending": {}, "latencies": [], "connected": 0}
        for p, player in enumerate(table["players"]):
            server = servers[(t * PLAYERS + p) % len(servers)]
            client = EchoClient(server.ws, table["id"], p, player["session"], state)
            state["clients"].append(client)
        rooms.append(state)
        tasks += [asyncio.ensure_future(c.run(stop, ready)) for c in state["clients"]]
    deadline = time.monotonic() + 120
    while sum(r["connected"] for r in rooms) < len(rooms) * PLAYERS:
        if time.monotonic() > deadline:
            raise TimeoutError("echo clients did not all connect within 120 s")
        await asyncio.sleep(0.1)
    ready.set()
    await asyncio.sleep(1)  # warm-up
    for room in rooms:
        room["latencies"].clear()
    start = time.perf_counter()
    await asyncio.sleep(seconds)
    elapsed = time.perf_counter() - start
    latencies = [x for r in rooms for x in r["latencies"]]
    stop.set()
    await asyncio.wait(tasks, timeout=30)
    return summary(latencies, len(latencies), elapsed)


def run_setup(setup: str, tables: int, seconds: float, profile: bool,
              think: float) -> tuple[dict, dict, str]:
    spec = {"tables": tables, "humans": PLAYERS, "buy_in": 200,
            "table": {"action_seconds": 60, "time_bank_seconds": 0}}
    extra = {"POKER_HAND_PAUSE_SECONDS": "0.2", "RATELIMIT_ENABLED": "0", "DEBUG": "0"}
    cleanup = []
    servers: list[Server] = []
    try:
        if setup == "embedded":
            path = Path(tempfile.mkdtemp(prefix="bench-load-")) / "db.sqlite3"
            env = server_env(f"sqlite:///{path}", None, **extra)
            subprocess.run([PYTHON, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT,
                           env={**os.environ, **env}, check=True, timeout=300)
            servers = [Server(env, app="bench.echo_asgi:application", name="embedded")]
        else:
            db = FreshDatabase(os.environ.get("DATABASE_URL")
                               or "postgres://postgres@127.0.0.1:5432/test")
            db.__enter__()
            cleanup.append(lambda: db.__exit__(None, None, None))
            redis = RedisServer()
            redis.start()
            cleanup.append(redis.kill)
            env = server_env(db.url, redis.url, **extra)
            servers = [Server(env, app="bench.echo_asgi:application", name=f"p{i}")
                       for i in range(2)]
        world = build_world(env, spec)
        prof = str(Path(servers[0].log_dir) / "py-spy.txt") if profile else ""
        for server in servers:
            server.start()
        game = asyncio.run(measure_game(servers, world, seconds, prof, think))
        echo = asyncio.run(measure_echo(servers, world, seconds))
        return game, echo, prof or ""
    finally:
        for server in servers:
            server.close()
        for step in reversed(cleanup):
            step()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setup", choices=["embedded", "redis", "both"], default="both")
    parser.add_argument("--tables", default="25,50,100")
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds each player thinks before acting (0: act at once)")
    args = parser.parse_args()
    counts = [min(int(n), MAX_TABLES) for n in args.tables.split(",")]
    seconds = min(args.seconds, MAX_SECONDS)
    setups = ["embedded", "redis"] if args.setup == "both" else [args.setup]
    print(f"{'set-up':9} {'tables':>6} {'clients':>7} | {'game act/s':>10} {'p50':>7} {'p95':>7}"
          f" {'p99':>7} | {'echo msg/s':>10} {'p50':>6} {'p99':>6} | {'p99 ratio':>9}")
    for setup in setups:
        for n in counts:
            game, echo, prof = run_setup(setup, n, seconds, args.profile, args.think)
            ratio = game["p99"] / echo["p99"] if echo["p99"] else float("nan")
            print(f"{setup:9} {n:6d} {n * PLAYERS:7d} | {game['per_s']:10.1f} {game['p50']:6.1f}m"
                  f" {game['p95']:6.1f}m {game['p99']:6.1f}m | {echo['per_s']:10.1f}"
                  f" {echo['p50']:5.1f}m {echo['p99']:5.1f}m | {ratio:9.1f}", flush=True)
            if prof and Path(prof).exists():
                print_profile(Path(prof))


def print_profile(path: Path, top: int = 25) -> None:
    """Self and inclusive sample shares from py-spy's raw (collapsed stack) output."""
    own: dict[str, int] = {}
    inclusive: dict[str, int] = {}
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        total += n
        frames = [f.split(" (")[0] + " (" + f.split(" (")[-1].split(":")[0].split("/site-packages/")[-1].replace(str(ROOT) + "/", "") + ")" if " (" in f else f for f in stack.split(";")]
        own[frames[-1]] = own.get(frames[-1], 0) + n
        for frame in set(frames):
            inclusive[frame] = inclusive.get(frame, 0) + n
    if not total:
        print("(no samples)")
        return
    idle = ("select", "epoll", "wait", "_worker", "acquire", "poll")
    print(f"\nhot path: {total} samples; self time (idle waits included):")
    for name, n in sorted(own.items(), key=lambda kv: -kv[1])[:top]:
        print(f"  {100 * n / total:5.1f}%  {name}")
    print("inclusive, project and framework code:")
    shown = 0
    for name, n in sorted(inclusive.items(), key=lambda kv: -kv[1]):
        if any(k in name for k in ("tables/", "engine/", "django/", "channels", "psycopg",
                                   "sqlite", "redis")) and not name.startswith(idle):
            print(f"  {100 * n / total:5.1f}%  {name}")
            shown += 1
            if shown >= top:
                break


if __name__ == "__main__":
    main()
