"""The harness's scenarios, run on the ``clients`` host (``python -m deploy.hosts.scenarios
'<json spec>'``, started by ``deploy.hosts``): the load bench's players
(``bench/load_players.py``, as ``bench/bench_load.py --worker`` processes) play through nginx at
the load balancer's address; the figures come from each daphne's ``/api/ops/runtimes/`` (asked
at its own address, as an operator would), ``/proc`` (every host shares this machine's process
table) and the database (``tests/load/checks.py``, in one snapshot).

1. ``load``: N tables x 6 players spread over both app hosts by nginx: CPU per host, latency
   p50/p99, requests forwarded between processes.
2. ``host-loss``: every daphne of app1 SIGKILLed mid-hand, with its holder (the host's
   systemd, which holds its port: a dead host's ports refuse); the tables it owned are owned by
   app2 within ``TAKEOVER_SECONDS``; the players reconnect through nginx; hands go on; no chip
   made or lost, every hand's action log sequential (no decision applied twice).
3. ``partition-redis``, ``partition-db``: the app host owning the most tables loses the Redis
   host (or the database host), keeping every other, for ``partition_seconds``: no table is
   claimed by two processes at once (every process polled), nor by one the database does not
   give its lease; the tables' actions during the cut; the same database checks.
4. ``link-loss`` (not run by default): host loss by cutting app1's link at the switch, every
   process left running; the link is restored 2 s before the window ends.

Each scenario is its own run of this module; the harness restarts a killed daphne between.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.load_figures import forward_figures, summary  # noqa: E402
from bench.load_servers import process_cpu_seconds  # noqa: E402
from deploy.hosts import leaks, net, partitions, restarts  # noqa: E402
from deploy.hosts.plan import Plan, owner_host  # noqa: E402
from deploy.hosts.reads import leases, running_hands, runtimes  # noqa: E402
from tests.load.checks import (  # noqa: E402
    assert_action_logs_sequential,
    assert_chips_conserved,
    assert_finished_hands_paid_out,
    hands_by_status,
)

#: The issue's floor: a lost host's tables are owned by another within this many seconds.
TAKEOVER_SECONDS = 15
PYTHON = sys.executable
#: Each scenario's players and tables are its own (their names' first letter).
PREFIXES = {
    "load": "l",
    "host-loss": "h",
    "link-loss": "k",
    "partition-redis": "r",
    "partition-db": "d",
    "rolling-restart": "o",
}


class Database:
    """``tests/load/checks.py``'s reader (``sql``, ``value``), each call its own connection or,
    inside ``snapshot()``, all on one REPEATABLE READ transaction (the croupier of the live
    processes may deal a hand between two of the checks' reads)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.conn: Any = None

    def sql(self, query: str, params: Any = None) -> list[tuple[Any, ...]]:
        import psycopg

        if self.conn is not None:
            return list(self.conn.execute(query, params).fetchall())
        with psycopg.connect(self.url, autocommit=True) as conn:
            return list(conn.execute(query, params).fetchall())

    def value(self, query: str, params: Any = None) -> Any:
        return self.sql(query, params)[0][0]

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[Database]:
        import psycopg

        with psycopg.connect(self.url) as conn:
            conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
            self.conn = conn
            try:
                yield self
            finally:
                self.conn = None
                conn.rollback()


def build_world(spec: dict[str, Any], tables: int, prefix: str) -> dict[str, Any]:
    """Players, sessions and tables (``tests/load/world.py``) with the app hosts' settings (a
    session's hash depends on their SECRET_KEY)."""
    world_spec = {
        "tables": tables,
        "humans": 6,
        "buy_in": 200,
        "prefix": prefix,
        "table": {"action_seconds": 60, "time_bank_seconds": 0},
        "staff": True,
    }
    out = subprocess.run(
        [PYTHON, "-m", "tests.load.world", json.dumps(world_spec)],
        cwd=ROOT,
        env={**os.environ, **spec["app_env"], "PYTHONPATH": str(ROOT)},
        timeout=600,
        capture_output=True,
        text=True,
    )
    if out.returncode:
        raise RuntimeError(f"the players and tables were not set up:\n{out.stderr[-3000:]}")
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


async def play(
    spec: dict[str, Any], world: dict[str, Any], seconds: float, during: Any = None
) -> dict[str, Any]:
    """The load bench's players (``bench/load_players.py``) at every table of ``world``,
    through the load balancer, for ``seconds`` after the warm-up; ``during`` (a coroutine
    function) runs from the window's start. Returns the figures of the window."""
    tables = [{**table, "index": t} for t, table in enumerate(world["tables"])]
    workers = max(1, min(spec["workers"], len(tables)))
    # Every frame the players receive is kept for the no-leak check (deploy/hosts/leaks.py).
    frames_file = str(Path(spec["run_dir"]) / f"frames-{time.monotonic_ns()}")
    procs = []
    for w in range(workers):
        worker = {
            "kind": "game",
            "urls": [f"wss://{spec['lb']}"],
            "tables": tables[w::workers],
            "seconds": seconds,
            "think": spec["think"],
            "warm_up": spec["warm_up"],
            "rush": False,
            "connect_deadline": 120,
            "frames_file": frames_file,
        }
        procs.append(
            await asyncio.create_subprocess_exec(
                PYTHON,
                str(ROOT / "bench" / "bench_load.py"),
                "--worker",
                json.dumps(worker),
                cwd=ROOT,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                limit=2**26,
                env={**os.environ, "PYTHONPATH": str(ROOT), "SSL_CERT_FILE": spec["cert"]},
            )
        )

    async def each_says(tag: str, timeout: float) -> list[dict[str, Any]]:
        said = []
        for proc in procs:
            assert proc.stdout is not None
            while True:
                line = await asyncio.wait_for(proc.stdout.readline(), timeout)
                if not line:
                    raise RuntimeError(f"a client worker ended before {tag}")
                if line.startswith(tag.encode()):
                    said.append(json.loads(line[len(tag) :].strip() or b"{}"))
                    break
        return said

    async def tell_each(word: str) -> None:
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write(word.encode() + b"\n")
            await proc.stdin.drain()

    daphnes, token = spec["daphnes"], world["staff_token"]

    async def all_runtimes() -> list[dict[str, Any] | None]:
        return list(
            await asyncio.gather(*(asyncio.to_thread(runtimes, d, spec, token) for d in daphnes))
        )

    await each_says("SPAWNED", 180)
    await tell_each("CONNECT")
    connects = await each_says("READY", 300)
    before = await all_runtimes()
    pids = [d["pid"] for d in daphnes]  # a restarted process's figures start again: left out
    cpu_before = [process_cpu_seconds(d["pid"]) for d in daphnes]
    await tell_each("GO")
    side = asyncio.ensure_future(during()) if during is not None else None
    await each_says("ENDED", seconds + 120)
    after = await all_runtimes()
    cpu_after = [process_cpu_seconds(d["pid"]) for d in daphnes]
    await tell_each("CLOSE")
    results = await each_says("RESULT", seconds + 120)
    for proc in procs:
        await proc.wait()
    elapsed = max(r["elapsed"] for r in results)
    latencies = [x for r in results for x in r["latencies"]]
    out: dict[str, Any] = summary(latencies, len(latencies), elapsed)
    out["sockets"] = sum(c["sockets"] for c in connects)
    out["with_state"] = sum(c["with_state"] for c in connects)
    for key in ("reconnects", "players_reconnected", "players_reconnected_twice", "refusals"):
        out[key] = sum(r[key] for r in results)
    out["most_reconnects"] = max(r["most_reconnects"] for r in results)
    out["refused_with"] = dict(sum((Counter(r["refused_with"]) for r in results), Counter()))
    hosts: dict[str, float] = {}
    same = [d["pid"] == pid for d, pid in zip(daphnes, pids, strict=True)]
    for d, b, a, kept in zip(daphnes, cpu_before, cpu_after, same, strict=True):
        if kept:
            hosts[d["host"]] = hosts.get(d["host"], 0.0) + (a - b) / elapsed
    out["cores"] = hosts
    live = [i for i, (b, a) in enumerate(zip(before, after, strict=True)) if b and a and same[i]]
    out["runtimes"] = forward_figures(
        [daphnes[i]["name"] for i in live],
        [before[i] for i in live],
        [after[i] for i in live],
        len(latencies),
    )
    out["side"] = await side if side is not None else None
    out["leaks"] = await asyncio.to_thread(leaks.check_frames, spec, frames_file)
    return out


def print_load(label: str, figures: dict[str, Any]) -> list[str]:
    """The figures printed; a leak found is a failure."""
    cores = ", ".join(f"{host} {c:.2f}" for host, c in sorted(figures["cores"].items()))
    print(
        f"[{label}] {figures['with_state']}/{figures['sockets']} sockets; "
        f"{figures['per_s']:.1f} actions/s; latency p50 {figures['p50']:.0f} ms, "
        f"p99 {figures['p99']:.0f} ms; CPU (cores) {cores}; "
        f"reconnects {figures['reconnects']} ({figures['players_reconnected']} players); "
        f"refusals {figures['refusals']} {figures['refused_with'] or ''}",
        flush=True,
    )
    print(f"[{label}] {figures['leaks']['line']}", flush=True)
    run = figures["runtimes"]
    if run:
        owned = ", ".join(f"{s['name']} {s['owned']}/{s['followed']}" for s in run["servers"])
        print(
            f"[{label}] forwarded between processes: {run['forwards']} "
            f"({run['per_action']:.3f} per action, answered p50 {run['p50']:.1f} ms, "
            f"p99 {run['p99']:.1f} ms); commands run by owners {run['commands']}; "
            f"tables owned/followed per process: {owned}",
            flush=True,
        )
    return [f"{label}: frames with hidden cards: {figures['leaks']['leaks']}"] * bool(
        figures["leaks"]["leaks"]
    )


def host_loss(
    spec: dict[str, Any],
    db: Database,
    table_ids: list[int],
    lost: str = "app1",
    cut_link: bool = False,
) -> Any:
    """The ``during`` of the host-loss scenario: SIGKILL every daphne of ``lost`` after
    ``kill_after`` seconds (``cut_link``: cut its link at the switch instead, every process
    left running, unreachable, and restore it 2 s before the window ends), then wait
    (bounded) until another host owns each of its tables."""

    async def run() -> dict[str, Any]:
        await asyncio.sleep(spec["kill_after"])
        owned = {t: o for t, o in leases(db).items() if owner_host(o) == lost}
        hands = running_hands(db, list(owned))
        # A table taken from a live owner (a clock ahead seeing its lease end early) so far.
        moved_before = db.value(
            "SELECT count(*) FROM tables_tablelease WHERE epoch > 1 AND table_id = ANY(%s)",
            [table_ids],
        )
        if cut_link:
            net.set_link(Plan(), lost, up=False)
        else:
            for d in spec["daphnes"]:
                if d["host"] == lost:  # the host's systemd (the holder) dies with its process
                    os.killpg(d["holder"], signal.SIGKILL)
        killed = time.monotonic()
        taken: dict[int, float] = {}
        try:
            while len(taken) < len(owned) and time.monotonic() - killed < TAKEOVER_SECONDS * 3:
                now = leases(db)
                for table in owned:
                    if table not in taken and owner_host(now.get(table)) not in (None, lost):
                        taken[table] = time.monotonic() - killed
                await asyncio.sleep(0.2)  # polling the database, as an operator would
            if cut_link:
                await asyncio.sleep(max(0, spec["after_loss"] - 2 - (time.monotonic() - killed)))
        finally:
            if cut_link:
                net.set_link(Plan(), lost, up=True)
        timeouts = db.value(
            "SELECT count(*) FROM tables_handaction a JOIN tables_hand h ON h.id = a.hand_id "
            "WHERE a.source = 'timeout' AND h.table_id = ANY(%s)",
            [table_ids],
        )
        return {
            "owned": owned,
            "hands": hands,
            "taken": taken,
            "moved_before": moved_before,
            "timeouts": timeouts,
        }

    return run


def report_host_loss(label: str, db: Database, figures: dict[str, Any]) -> list[str]:
    """The host-loss figures printed, and what failed (empty: every floor held)."""
    side = figures["side"]
    owned, hands, taken = side["owned"], side["hands"], side["taken"]
    failures = []
    slowest = max(taken.values(), default=float("nan"))
    print(
        f"[{label}] app1 owned {len(owned)} tables, {len(hands)} of them mid-hand at the kill; "
        f"app2 owned {len(taken)}/{len(owned)} of them again, the last after {slowest:.1f} s; "
        f"tables that changed hands before the kill: {side['moved_before']}; decisions made "
        f"by the clock (time-outs): {side['timeouts']}",
        flush=True,
    )
    if len(taken) < len(owned) or slowest > TAKEOVER_SECONDS:
        failures.append(f"tables not back within {TAKEOVER_SECONDS} s: {len(owned) - len(taken)}")
    with db.snapshot():
        totals = assert_chips_conserved(db)
        logs = assert_action_logs_sequential(db)
        paid = assert_finished_hands_paid_out(db)
        statuses = hands_by_status(db)
        went_on = 0
        for hand, actions in hands.values():
            now = (
                db.value("SELECT count(*) FROM tables_handaction WHERE hand_id = %s", [hand]),
                db.value("SELECT status FROM tables_hand WHERE id = %s", [hand]),
            )
            went_on += now[0] > actions or now[1] != "running"
        after = db.value(
            "SELECT count(*) FROM tables_hand WHERE table_id = ANY(%s) AND status <> 'running' "
            "AND id > ALL(%s)",
            [list(owned), [h for h, _ in hands.values()] or [0]],
        )
    print(
        f"[{label}] hands cut mid-way that went on: {went_on}/{len(hands)}; hands finished "
        f"at app1's tables after the kill: {after}; hands {statuses}; {paid} paid out; "
        f"{len(logs)} action logs sequential (no decision twice); chips conserved "
        f"(granted {totals['granted']})",
        flush=True,
    )
    if went_on < len(hands):
        failures.append(f"hands that did not go on: {len(hands) - went_on}")
    return failures


def main() -> int:
    spec = json.loads(sys.argv[1])
    db = Database(spec["database_url"])
    failures: list[str] = []
    if "load" in spec["scenarios"]:
        world = build_world(spec, spec["tables"], PREFIXES["load"])
        figures = asyncio.run(play(spec, world, spec["seconds"]))
        failures += print_load("load", figures)
        if figures["with_state"] < figures["sockets"]:
            failures.append("load: not every socket had its state")
    for label, cut_link in (("host-loss", False), ("link-loss", True)):
        if label not in spec["scenarios"]:
            continue
        world = build_world(spec, spec["tables"], PREFIXES[label])
        seconds = spec["kill_after"] + spec["after_loss"]
        table_ids = [t["id"] for t in world["tables"]]
        during = host_loss(spec, db, table_ids, cut_link=cut_link)
        figures = asyncio.run(play(spec, world, seconds, during))
        failures += print_load(label, figures)
        failures += report_host_loss(label, db, figures)
    for label, away in (("partition-redis", "redis"), ("partition-db", "db")):
        if label not in spec["scenarios"]:
            continue
        world = build_world(spec, spec["tables"], PREFIXES[label])
        spec["staff_token"] = world["staff_token"]
        seconds = spec["kill_after"] + spec["partition_seconds"] + spec["after_loss"]
        figures = asyncio.run(play(spec, world, seconds, partitions.partition(spec, db, away)))
        failures += print_load(label, figures)
        failures += partitions.report_partition(label, db, figures, spec["partition_seconds"])
    if "rolling-restart" in spec["scenarios"]:
        world = build_world(spec, spec["tables"], PREFIXES["rolling-restart"])
        table_ids = [t["id"] for t in world["tables"]]
        seconds = spec["kill_after"] + spec["restart_seconds"] + spec["after_loss"]
        during = restarts.rolling_restart(spec, db, table_ids)
        figures = asyncio.run(play(spec, world, seconds, during))
        failures += print_load("rolling-restart", figures)
        failures += restarts.report_rolling_restart("rolling-restart", db, figures)
    for failure in failures:
        print(f"FAILED: {failure}", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
