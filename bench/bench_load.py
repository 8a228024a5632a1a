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
  accepted action (everything included: hands dealt, sockets, the croupier);
- cpu ratio: that CPU per accepted action over the bare echo's per message (``ms/msg``,
  below) in the same run, the measure issue 48's floors are stated in; ``--runs`` prints the
  median of the runs' ratios;
- runtimes: from each server's ``/api/ops/runtimes/`` (a staff token made with the players)
  at the window's start and end, the requests one process forwarded to the process running
  their table, per action, and the time until each was answered (p50 / p99).

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
(``bench/echo_asgi.py``) on the same server, started again without the croupier (so that no
table of the game is dealt meanwhile), six to a room: one client sends, the room gets it
through the channel layer, the next client sends. The ratio shows what the game costs.

Set-ups: ``embedded`` (SQLite + in-memory layer, one daphne) and ``redis`` (PostgreSQL +
channels-redis, two daphne processes; each table's six clients on one of them, as the nginx
example routes a table's sockets, so half the tables live on each; ``--spread``: three of each
table's clients on each process, the echo's rooms too, so that half the requests are
forwarded to the process running the table). Only 127.0.0.1; at most
``MAX_TABLES`` tables and ``MAX_SECONDS`` seconds per measurement.

    .venv/bin/python bench/bench_load.py                      # both set-ups, 25/50/100 tables
    .venv/bin/python bench/bench_load.py --setup embedded --tables 25 --think 0   # saturation
    .venv/bin/python bench/bench_load.py --setup redis --tables 100,150 --seconds 20
    .venv/bin/python bench/bench_load.py --tables 100 --runs 5   # medians of five runs
    .venv/bin/python bench/bench_load.py --setup redis --tables 150 --spread  # forwarding
    .venv/bin/python bench/bench_load.py --setup embedded --tables 100 --profile
    .venv/bin/python bench/bench_load.py --setup embedded --tables 50 --rush --think 100-200  # idle

``--profile`` samples the first server with py-spy while the game is measured, only the thread
holding the GIL (a server process is bound by it: its CPU time, not its waits), and prints where
that time goes: the functions most often on top of the stack (self time) and the project
functions most often anywhere on it (inclusive time). ``--profile-threads`` samples every
thread instead (py-spy ``--threads``): the time of a worker thread that has let the GIL go
(SQLite's statements, NumPy's loops: the all-in odds) shows too.
``--rush`` connects every socket at one moment and reports the time until each has its state
(and names the first sockets that never got one); with a ``--think`` longer than the window,
nobody acts in it, and where the servers' CPU went is printed per second: what an idle room
costs. ``--keep-logs DIR`` keeps the servers' logs
(removed with their servers otherwise) to look those sockets up in.
PostgreSQL comes from ``DATABASE_URL`` (default ``postgres://postgres@127.0.0.1:5432/test``:
a new database is created next to it and dropped afterwards); Redis is a private
``redis-server`` on a free port.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.echo_clients import PLAYERS  # noqa: E402
from bench.load_figures import (  # noqa: E402
    cpu_figures,
    forward_figures,
    frame_figures,
    merge_connects,
    summary,
)
from bench.load_options import (  # noqa: E402
    Checkout,
    Options,
    command_line,
)
from bench.load_players import BUY_IN, worker_main  # noqa: E402
from bench.load_report import (  # noqa: E402
    HEADER,
    machine,
    print_game_details,
    print_medians,
    print_profile,
    print_rows,
)
from bench.load_servers import (  # noqa: E402
    process_cpu_seconds,
    profile_file,
    runtime_figures,
    start_profile,
)
from tests.load.harness import (  # noqa: E402
    PYTHON,
    FreshDatabase,
    RedisServer,
    Server,
    build_world,
    server_env,
)
from tests.load.processes import python_path  # noqa: E402

T = TypeVar("T")


def worker_shares(tables: list[dict], workers: int) -> list[list[dict]]:
    """The tables of each client process, dealt round: no process without a table (fewer
    tables than ``--workers`` makes fewer processes)."""
    count = max(1, min(workers, len(tables)))
    return [tables[w::count] for w in range(count)]


async def run_workers(kind: str, servers: list[Server], world: dict, options: Options) -> dict:
    """Play ``world`` (``kind``: the game or the echo) with the clients split by table over
    ``options.workers`` processes (600 sockets in one Python process on this machine would
    measure the client, not the server): every socket connects at one moment, the window is
    measured at one moment (``bench/load_players.py``)."""
    tables = [{**table, "index": t} for t, table in enumerate(world["tables"])]
    procs = []
    for share in worker_shares(tables, options.workers):
        spec = {
            "kind": kind,
            "urls": [s.ws for s in servers],
            "tables": share,
            "seconds": options.seconds,
            "think": list(options.think),
            "warm_up": options.warm_up,
            "rush": options.rush,
            "connect_deadline": options.connect_deadline,
            "spread": options.spread,
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
                env={**os.environ, "PYTHONPATH": python_path(ROOT)},
            )
        )

    async def each_says(tag: str, timeout: float) -> list[dict]:
        said = []
        for proc in procs:
            while True:
                line = await asyncio.wait_for(proc.stdout.readline(), timeout)
                if not line:
                    raise RuntimeError(f"client worker ended before {tag}")
                if line.startswith(tag.encode()):
                    said.append(json.loads(line[len(tag) :].strip() or b"{}"))
                    break
        return said

    async def tell_each(word: str) -> None:
        for proc in procs:
            proc.stdin.write(word.encode() + b"\n")
            await proc.stdin.drain()

    await each_says("SPAWNED", 180)
    await tell_each("CONNECT")
    connects = await each_says("READY", options.connect_deadline + 180)
    token = world.get("staff_token") if kind == "game" else None
    runtimes_before = await servers_runtime_figures(servers, token)
    # The game only: the echo run after it would write over its profile.
    spy = start_profile(servers[0], options) if options.profile and kind == "game" else None
    cpu_before = [process_cpu_seconds(s.proc.pid) for s in servers]
    await tell_each("GO")
    if kind == "game":  # the runtimes' figures before the sockets close (load_players.py)
        await each_says("ENDED", options.seconds + 120)
        runtimes_after = await servers_runtime_figures(servers, token)
        await tell_each("CLOSE")
    results = await each_says("RESULT", options.seconds + 120)
    for proc in procs:
        await proc.wait()
    cpu = sum(
        process_cpu_seconds(s.proc.pid) - before
        for s, before in zip(servers, cpu_before, strict=True)
    )
    if spy is not None:
        await asyncio.to_thread(spy.wait, 60)
    latencies = [x for r in results for x in r["latencies"]]
    elapsed = max(r["elapsed"] for r in results)
    out = {**summary(latencies, len(latencies), elapsed), "cpu": cpu / elapsed if elapsed else 0}
    if kind == "game":
        out["connect"] = merge_connects(connects)
        out["frames"] = frame_figures(results, len(latencies))
        names = [s.name for s in servers]
        out["runtimes"] = forward_figures(names, runtimes_before, runtimes_after, len(latencies))
        out["cpu_split"] = cpu_figures(runtimes_before, runtimes_after, len(latencies), elapsed)
    return out


async def servers_runtime_figures(servers: list[Server], token: str | None) -> list[dict | None]:
    """Each server's runtime figures now (``/api/ops/runtimes/``), asked of all at once."""
    return list(
        await asyncio.gather(*(asyncio.to_thread(runtime_figures, s, token) for s in servers))
    )


def taking_turns(checkouts: list[T], runs: int) -> list[T]:
    """The order of ``runs`` runs of each checkout: they take turns, the first going first
    and last in alternate runs (A B, B A, A B...), so that a machine that drifts (a
    neighbour's load, a throttled host) weighs on each alike, not on whichever ran last."""
    order: list[T] = []
    for run in range(max(1, runs)):
        order.extend(checkouts if run % 2 == 0 else checkouts[::-1])
    return order


def run_setup(
    setup: str, tables: int, options: Options, checkout: Checkout, report=lambda game: None
) -> dict:
    """One measurement on fresh servers (of ``checkout``) and a fresh database: the game
    (handed to ``report`` at once), then the echo on the same servers started again (no
    table live there, no croupier). Returns {"game", "echo", "profile"}."""
    spec = {
        "tables": tables,
        "humans": PLAYERS,
        "buy_in": BUY_IN,
        "table": {"action_seconds": 60, "time_bank_seconds": 0},
        "staff": True,  # a token to read each server's runtimes (tests/load/world.py)
    }
    extra = {"POKER_HAND_PAUSE_SECONDS": "0.2", "RATELIMIT_ENABLED": "0", "DEBUG": "0"}
    cleanup = []
    servers: list[Server] = []
    app = "bench.echo_asgi:application"
    where = {"python": checkout.python, "root": checkout.root}
    pinned = {"cpus": options.server_cpus}
    try:
        if setup == "embedded":
            path = Path(tempfile.mkdtemp(prefix="bench-load-")) / "db.sqlite3"
            cleanup.append(lambda: shutil.rmtree(path.parent, ignore_errors=True))
            env = server_env(f"sqlite:///{path}", None, **extra)
            subprocess.run(
                [checkout.python, "manage.py", "migrate", "--noinput", "-v", "0"],
                cwd=checkout.root,
                env={**os.environ, **env, "PYTHONPATH": python_path(checkout.root)},
                check=True,
                timeout=300,
            )
            servers = [Server(env, app=app, name="embedded", **where, **pinned)]
        else:
            db = FreshDatabase(
                os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/test",
                **where,
            )
            db.__enter__()
            cleanup.append(lambda: db.__exit__(None, None, None))
            redis = RedisServer()
            redis.start()
            cleanup.append(redis.close)
            # Persistent connections, as in production (docs/production.md): a new
            # PostgreSQL connection per database call costs more than the call.
            env = server_env(db.url, redis.url, CONN_MAX_AGE="60", **extra)
            servers = [Server(env, app=app, name=f"p{i}", **where, **pinned) for i in range(2)]
        world = build_world(env, spec, **where)
        for server in servers:
            server.start()
        game = asyncio.run(run_workers("game", servers, world, options))
        report(game)
        # The echo on the same servers started again without the croupier: the game's
        # players are still seated, and their tables would be dealt and their clocks run
        # while the echo is measured, a share of the game's cost counted as the echo's.
        for server in servers:
            server.stop()
            server.env = {**server.env, "POKER_CROUPIER": "0"}
            server.start()
        try:
            echo = asyncio.run(run_workers("echo", servers, world, options))
        except (TimeoutError, RuntimeError) as error:  # the game's figures still count
            print(f"{'':6}   echo: failed ({error})", flush=True)
            nan = float("nan")
            echo = {"per_s": nan, "p50": nan, "p99": nan, "cpu": nan}
        prof = profile_file(servers[0])
        return {"game": game, "echo": echo, "profile": prof if options.profile else None}
    finally:
        for server in servers:
            server.stop()
            if options.keep_logs is not None and server.log_path.exists():
                kept = options.keep_logs / f"{checkout.label}-{setup}-{tables}-{server.name}.log"
                kept.parent.mkdir(parents=True, exist_ok=True)
                with kept.open("ab") as out:  # several runs of one size: one after another
                    out.write(server.log_path.read_bytes())
            server.close()
        for step in reversed(cleanup):
            step()


def main() -> None:
    args, counts, checkouts, options = command_line(__doc__.splitlines()[0])
    if args.worker:
        worker_main(json.loads(args.worker))
        return
    think = options.think
    setups = ["embedded", "redis"] if args.setup == "both" else [args.setup]
    print(machine())
    for checkout in checkouts:
        print(f"{checkout.label}: {checkout.root} ({checkout.python})")
    print(
        f"think time per decision: {think[0]:g}-{think[1]:g} s (uniform)"
        if think[1]
        else "think time: none (players act the moment it is their turn)"
    )
    if options.spread:
        print("clients: each table's six dealt round the server processes (--spread)")
    print(HEADER, flush=True)
    for setup in setups:
        for n in counts:
            measured: dict[str, list[dict]] = {checkout.label: [] for checkout in checkouts}
            for checkout in taking_turns(checkouts, args.runs):
                out = run_setup(
                    setup,
                    n,
                    options,
                    checkout,
                    lambda game, c=checkout, s=setup, n=n: print_game_details(c.label, s, n, game),
                )
                measured[checkout.label].append(out)
                print_rows(checkout.label, setup, n, out)
                if out["profile"] and out["profile"].exists():
                    print_profile(out["profile"])
            for label, outs in measured.items():
                if len(outs) > 1:
                    print_medians(label, setup, n, outs)
    print(machine())


if __name__ == "__main__":
    main()
