"""Load benchmark: N tables x 6 websocket players through the real server, vs a bare echo.

For each set-up and table count it starts fresh servers and a fresh database, seats six
logged-in players at each table and connects each with its own websocket. Every player
decides with the engine's ``RandomBot`` from the view its own socket sends (``?state=json``),
so real hands are played through the real consumer, services, database and channel layer.
Measured for ``--seconds``:

- actions/s: player actions the server accepted;
- latency: from sending an action to the moment *every* client at that table has received
  the resulting update (p50 / p95 / p99);
- cores and ms/act: the CPU time the server processes used (``/proc``), per second and per
  accepted action (everything included: hands dealt, sockets, the croupier).

Measuring starts once every socket has its state, hands are being played and
``--warm-up`` seconds more (default ``WARM_UP_SECONDS``) have passed: the tables are all
set up at one moment, so at first their hands are dealt, and their players act, in step.

Players think before each decision for a time drawn uniformly from ``--think`` (default
0.5-1.5 s, a fair model of people at a table; the think time is not part of the latency);
``--think 0`` has them act the moment it is their turn, which measures the saturation
throughput. The clients run in ``--workers`` processes (default 2, tables split between them)
so that 600 sockets in one Python process do not measure the client instead of the server;
they parse only the JSON state frames (the HTML frames for htmx are skipped unparsed).

In the same run, the same number of clients connects to a bare Channels echo consumer
(``bench/echo_asgi.py``) on the same server, six to a room: one client sends, the room gets
it through the channel layer, the next client sends. The ratio shows what the game costs.

Set-ups: ``embedded`` (SQLite + in-memory layer, one daphne) and ``redis`` (PostgreSQL +
channels-redis, two daphne processes; each table's six clients on one of them, as the nginx
example routes a table's sockets, so half the tables live on each). Only 127.0.0.1; at most
``MAX_TABLES`` tables and ``MAX_SECONDS`` seconds per measurement.

    .venv/bin/python bench/bench_load.py                      # both set-ups, 25/50/100 tables
    .venv/bin/python bench/bench_load.py --setup embedded --tables 25 --think 0   # saturation
    .venv/bin/python bench/bench_load.py --setup redis --tables 100,150 --seconds 20
    .venv/bin/python bench/bench_load.py --tables 100 --runs 5   # median p99 of five runs
    .venv/bin/python bench/bench_load.py --setup embedded --tables 100 --profile

``--profile`` samples the first server with py-spy while the game is measured, only the thread
holding the GIL (a server process is bound by it: its CPU time, not its waits), and prints where
that time goes: the functions most often on top of the stack (self time) and the project
functions most often anywhere on it (inclusive time).
PostgreSQL comes from ``DATABASE_URL`` (default ``postgres://postgres@127.0.0.1:5432/test``:
a new database is created next to it and dropped afterwards); Redis is a private
``redis-server`` on a free port.
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.echo_clients import PLAYERS, play_echo  # noqa: E402
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
WARM_UP_SECONDS = 10
#: This run's warm-up (``--warm-up``), handed to the client processes.
warm_up_seconds = WARM_UP_SECONDS
BUY_IN = 200


def summary(latencies: list[float], count: int, seconds: float) -> dict:
    return {
        "per_s": count / seconds,
        "p50": percentile(latencies, 50) * 1000,
        "p95": percentile(latencies, 95) * 1000,
        "p99": percentile(latencies, 99) * 1000,
        "n": count,
    }


def think_range(text: str) -> tuple[float, float]:
    """``"0.5-1.5"`` -> (0.5, 1.5); ``"1"`` -> (1, 1); ``"0"``: act at once."""
    low, _, high = str(text).partition("-")
    return float(low), float(high or low)


async def play_tables(
    urls: list[str],
    tables: list[dict],
    seconds: float,
    think: tuple[float, float],
    go,
    warm_up: float = WARM_UP_SECONDS,
) -> dict:
    """Play ``tables`` (6 clients each, spread over ``urls``); ``await go()`` between the
    warm-up and the measured ``seconds``. Returns the latencies (s) of accepted actions."""
    from websockets.exceptions import ConnectionClosed

    def quiet_closed(loop, context):  # an action still "thinking" when its socket closed
        if not isinstance(context.get("exception"), ConnectionClosed):
            loop.default_exception_handler(context)

    asyncio.get_running_loop().set_exception_handler(quiet_closed)
    tracker = Tracker()
    clients = []
    for table in tables:
        for p, player in enumerate(table["players"]):
            url = urls[table["index"] % len(urls)]  # a table on one process, as nginx routes
            client = Client(
                servers=[url],
                table_id=table["id"],
                player=player,
                tracker=tracker,
                seed=table["index"] * 10 + p,
            )
            client.think = 0.0
            client.rebuy = BUY_IN  # a busted player sits down again: six players a table
            if think[1] > 0:
                rng = random.Random(table["index"] * 10 + p)
                client._maybe_act = _thinking(client, rng, think)
            clients.append(client)
    stop = asyncio.Event()
    tasks = [asyncio.ensure_future(c.run(stop)) for c in clients]
    # Warm up until every socket has its first state and hands are being played, then for
    # ``warm_up`` seconds more: every table was set up at the same moment, so their first
    # hands start, and their players act, in step (a burst no real room sees); measure once
    # the tables have drifted apart, as in a room where tables fill one by one.
    deadline = time.monotonic() + 120
    while any(not c.versions for c in clients) or len(tracker.latencies) < len(tables):
        if time.monotonic() > deadline:
            raise TimeoutError("clients did not all get a state within 120 s")
        await asyncio.sleep(0.1)  # benchmark pacing, not a test
    await asyncio.sleep(warm_up)
    await go()
    tracker.latencies.clear()
    start = time.perf_counter()
    await asyncio.sleep(seconds)
    elapsed = time.perf_counter() - start
    latencies = list(tracker.latencies)
    stop.set()
    await asyncio.wait(tasks, timeout=30)
    return {"latencies": latencies, "elapsed": elapsed}


def _thinking(client: Client, rng: random.Random, think: tuple[float, float]):
    """The client's ``_maybe_act`` with a think time drawn uniformly from ``think`` per decision
    (a person takes a moment: the fair model of a real table)."""
    original = type(client)._maybe_act

    async def maybe_act(ws, frame):
        client.think = rng.uniform(*think)
        await original(client, ws, frame)

    return maybe_act


def worker_main(spec: dict) -> None:
    """``--worker``: one client process; READY after the warm-up, measures after GO (stdin)."""

    async def go():
        print("READY", flush=True)
        await asyncio.to_thread(sys.stdin.readline)

    if spec["kind"] == "echo":
        out = asyncio.run(play_echo(spec["urls"], spec["tables"], spec["seconds"], go))
    else:
        out = asyncio.run(
            play_tables(
                spec["urls"],
                spec["tables"],
                spec["seconds"],
                tuple(spec["think"]),
                go,
                spec.get("warm_up", WARM_UP_SECONDS),
            )
        )
    print("RESULT " + json.dumps(out), flush=True)


async def measure_game(
    servers: list[Server],
    world: dict,
    seconds: float,
    profile: str = "",
    think: tuple[float, float] = (0.0, 0.0),
    workers: int = 2,
) -> dict:
    """The game with the clients split by table over ``workers`` processes (600 sockets in
    one Python process on this machine would measure the client, not the server)."""
    return await run_workers("game", servers, world, seconds, think, workers, profile)


async def run_workers(
    kind: str,
    servers: list[Server],
    world: dict,
    seconds: float,
    think: tuple[float, float],
    workers: int,
    profile: str = "",
) -> dict:
    tables = [{**table, "index": t} for t, table in enumerate(world["tables"])]
    urls = [s.ws for s in servers]
    procs = []
    for w in range(workers):
        spec = {
            "kind": kind,
            "urls": urls,
            "tables": tables[w::workers],
            "seconds": seconds,
            "think": list(think),
            "warm_up": warm_up_seconds,
        }
        procs.append(
            await asyncio.create_subprocess_exec(
                PYTHON,
                str(Path(__file__).resolve()),
                "--worker",
                json.dumps(spec),
                cwd=ROOT,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                limit=2**26,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
            )
        )
    for proc in procs:
        line = await asyncio.wait_for(proc.stdout.readline(), 180)
        if not line.startswith(b"READY"):
            raise RuntimeError(f"client worker failed: {line!r}")
    spy = None
    if profile:
        spy = subprocess.Popen(
            [
                str(Path(PYTHON).parent / "py-spy"),
                "record",
                "--nonblocking",
                "--gil",
                "-r",
                "50",
                "-d",
                str(int(seconds)),
                "-f",
                "raw",
                "-o",
                profile,
                "-p",
                str(servers[0].proc.pid),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    cpu_before = [process_cpu_seconds(s.proc.pid) for s in servers]
    for proc in procs:
        proc.stdin.write(b"GO\n")
        await proc.stdin.drain()
    latencies, elapsed = [], 0.0
    for proc in procs:
        while True:
            line = await asyncio.wait_for(proc.stdout.readline(), seconds + 120)
            if not line:
                raise RuntimeError("client worker ended without a result")
            if line.startswith(b"RESULT "):
                out = json.loads(line[7:])
                latencies += out["latencies"]
                elapsed = max(elapsed, out["elapsed"])
                break
        await proc.wait()
    cpu = sum(
        process_cpu_seconds(s.proc.pid) - before
        for s, before in zip(servers, cpu_before, strict=True)
    )
    if spy is not None:
        await asyncio.to_thread(spy.wait, 60)
    return {**summary(latencies, len(latencies), elapsed), "cpu": cpu / elapsed if elapsed else 0}


def process_cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used so far, from ``/proc`` (0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def measure_echo(
    servers: list[Server], world: dict, seconds: float, workers: int = 2
) -> dict:
    return await run_workers("echo", servers, world, seconds, (0.0, 0.0), workers)


def run_setup(
    setup: str,
    tables: int,
    seconds: float,
    profile: bool,
    think: tuple[float, float],
    workers: int = 2,
) -> tuple[dict, dict, str]:
    spec = {
        "tables": tables,
        "humans": PLAYERS,
        "buy_in": BUY_IN,
        "table": {"action_seconds": 60, "time_bank_seconds": 0},
    }
    extra = {"POKER_HAND_PAUSE_SECONDS": "0.2", "RATELIMIT_ENABLED": "0", "DEBUG": "0"}
    cleanup = []
    servers: list[Server] = []
    try:
        if setup == "embedded":
            path = Path(tempfile.mkdtemp(prefix="bench-load-")) / "db.sqlite3"
            env = server_env(f"sqlite:///{path}", None, **extra)
            subprocess.run(
                [PYTHON, "manage.py", "migrate", "--noinput", "-v", "0"],
                cwd=ROOT,
                env={**os.environ, **env},
                check=True,
                timeout=300,
            )
            servers = [Server(env, app="bench.echo_asgi:application", name="embedded")]
        else:
            db = FreshDatabase(
                os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/test"
            )
            db.__enter__()
            cleanup.append(lambda: db.__exit__(None, None, None))
            redis = RedisServer()
            redis.start()
            cleanup.append(redis.close)
            # Persistent connections, as in production (docs/production.md): a new
            # PostgreSQL connection per database call costs more than the call.
            env = server_env(db.url, redis.url, CONN_MAX_AGE="60", **extra)
            servers = [
                Server(env, app="bench.echo_asgi:application", name=f"p{i}") for i in range(2)
            ]
        world = build_world(env, spec)
        # kept for reading after the servers (and their log folders) are gone
        prof = ""
        if profile:
            prof = str(Path(tempfile.mkdtemp(prefix="bench-profile-")) / "py-spy.txt")
        for server in servers:
            server.start()
        game = asyncio.run(measure_game(servers, world, seconds, prof, think, workers))
        echo = asyncio.run(measure_echo(servers, world, seconds, workers))
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
    parser.add_argument(
        "--think",
        default="0.5-1.5",
        help="seconds each player thinks before each decision, drawn uniformly"
        " from LOW-HIGH (default 0.5-1.5, like a person); 0: act at once"
        " (the saturation throughput)",
    )
    parser.add_argument(
        "--warm-up",
        type=float,
        default=WARM_UP_SECONDS,
        help="seconds of play before measuring, once hands are under way"
        f" (default {WARM_UP_SECONDS}; 0 measures the start, when every"
        " table deals in step)",
    )
    parser.add_argument(
        "--workers", type=int, default=2, help="client processes (tables split between them)"
    )
    parser.add_argument(
        "--runs",
        type=int,
        default=1,
        help="measure each set-up and table count this many times, each on"
        " fresh servers and a fresh database, and print the median p99"
        " (on a shared 2-core machine one run's p99 moves a lot)",
    )
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker_main(json.loads(args.worker))
        return
    global warm_up_seconds
    warm_up_seconds = max(0.0, args.warm_up)
    think = think_range(args.think)
    counts = [min(int(n), MAX_TABLES) for n in args.tables.split(",")]
    seconds = min(args.seconds, MAX_SECONDS)
    setups = ["embedded", "redis"] if args.setup == "both" else [args.setup]
    print(
        f"think time per decision: {think[0]:g}-{think[1]:g} s (uniform)"
        if think[1]
        else "think time: none (players act the moment it is their turn)"
    )
    print(
        f"{'set-up':9} {'tables':>6} {'clients':>7} | {'game act/s':>10} {'p50':>7} {'p95':>7}"
        f" {'p99':>7} {'cores':>5} {'ms/act':>6} | {'echo msg/s':>10} {'p50':>6} {'p99':>6}"
        f" | {'p99 ratio':>9}"
    )
    for setup in setups:
        for n in counts:
            p99s = []
            for _ in range(max(1, args.runs)):
                game, echo, prof = run_setup(setup, n, seconds, args.profile, think, args.workers)
                p99s.append(game["p99"])
                print_row(setup, n, game, echo)
                if prof and Path(prof).exists():
                    print_profile(Path(prof))
            if len(p99s) > 1:
                print(
                    f"{setup:9} {n:6d} game p99 over {len(p99s)} runs: median"
                    f" {statistics.median(p99s):.1f} ms (from {min(p99s):.1f} to"
                    f" {max(p99s):.1f} ms)",
                    flush=True,
                )


def print_row(setup: str, tables: int, game: dict, echo: dict) -> None:
    ratio = game["p99"] / echo["p99"] if echo["p99"] else float("nan")
    per_action = 1000 * game["cpu"] / game["per_s"] if game["per_s"] else float("nan")
    print(
        f"{setup:9} {tables:6d} {tables * PLAYERS:7d} | {game['per_s']:10.1f}"
        f" {game['p50']:6.1f}m {game['p95']:6.1f}m {game['p99']:6.1f}m {game['cpu']:5.2f}"
        f" {per_action:6.1f} | {echo['per_s']:10.1f} {echo['p50']:5.1f}m {echo['p99']:5.1f}m"
        f" | {ratio:9.1f}",
        flush=True,
    )


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
        frames = [
            f.split(" (")[0]
            + " ("
            + f.split(" (")[-1]
            .split(":")[0]
            .split("/site-packages/")[-1]
            .replace(str(ROOT) + "/", "")
            + ")"
            if " (" in f
            else f
            for f in stack.split(";")
        ]
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
        if any(
            k in name
            for k in ("tables/", "engine/", "django/", "channels", "psycopg", "sqlite", "redis")
        ) and not name.startswith(idle):
            print(f"  {100 * n / total:5.1f}%  {name}")
            shown += 1
            if shown >= top:
                break


if __name__ == "__main__":
    main()
