"""What ``bench_load.py`` prints: the machine, a measurement's rows (game, echo, connect phase,
frames) and a py-spy profile's hot path."""

from __future__ import annotations

import os
import statistics
import time
from pathlib import Path

from bench.echo_clients import PLAYERS

ROOT = Path(__file__).resolve().parents[1]


#: The pure-Python loop every session has timed its machine with (``sum(range(3 * 10**7))``).
REFERENCE_LOOP = 3 * 10**7


def reference_seconds(times: int = 3, loop: int = REFERENCE_LOOP) -> list[float]:
    """How long the reference loop takes here, ``times`` times in a row, fastest first: the
    same code's figures move with it from one day (or hour) to the next on a shared machine,
    so each run says how fast its machine was."""
    spent = []
    for _ in range(times):
        start = time.perf_counter()
        sum(range(loop))
        spent.append(time.perf_counter() - start)
    return sorted(spent)


def machine() -> str:
    """The machine, how busy it is and how fast it is just now (the benchmark shares it: its
    load average and its speed matter)."""
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    loop = reference_seconds()
    return (
        f"{os.uname().nodename}: {os.cpu_count()} cores, load average {load},"
        f" sum(range(3 * 10**7)) {loop[0]:.2f}–{loop[-1]:.2f} s"
    )


HEADER = (
    f"{'code':6} {'set-up':9} {'tables':>6} {'clients':>7} | {'game act/s':>10} {'p50':>7}"
    f" {'p95':>7} {'p99':>7} {'cores':>5} {'ms/act':>6} | {'echo msg/s':>10} {'p50':>6}"
    f" {'p99':>6} {'ms/msg':>6} | {'cpu ratio':>9} {'p99 ratio':>9}"
)


def cpu_per_action(game: dict) -> float:
    """The server's CPU (ms, every process) per accepted action, everything included."""
    return 1000 * game["cpu"] / game["per_s"] if game["per_s"] else float("nan")


def cpu_per_message(echo: dict) -> float:
    """The bare transport's CPU (ms) for one message in and its six deliveries: an action's
    floor."""
    nan = float("nan")
    return 1000 * echo.get("cpu", nan) / echo["per_s"] if echo.get("per_s") else nan


def cpu_ratio(out: dict) -> float:
    """The issue's measure: the server's CPU per accepted action over the bare echo's per
    message in the same run (``ms/act`` / ``ms/msg``); NaN without an echo."""
    per_message = cpu_per_message(out["echo"])
    return cpu_per_action(out["game"]) / per_message if per_message else float("nan")


def print_rows(label: str, setup: str, tables: int, out: dict) -> None:
    """The measurement's row: the game, the echo, their ratios (CPU, p99)."""
    game, echo = out["game"], out["echo"]
    ratio = game["p99"] / echo["p99"] if echo["p99"] else float("nan")
    print(
        f"{label:6} {setup:9} {tables:6d} {tables * PLAYERS:7d} | {game['per_s']:10.1f}"
        f" {game['p50']:6.1f}m {game['p95']:6.1f}m {game['p99']:6.1f}m {game['cpu']:5.2f}"
        f" {cpu_per_action(game):6.1f} | {echo['per_s']:10.1f} {echo['p50']:5.1f}m"
        f" {echo['p99']:5.1f}m {cpu_per_message(echo):6.1f} | {cpu_ratio(out):9.2f}"
        f" {ratio:9.1f}",
        flush=True,
    )


def _spread(values: list[float], unit: str = "", digits: int = 1) -> str:
    """``median M (from LOW to HIGH)`` of ``values``, NaNs (a failed echo) left out."""
    values = [v for v in values if v == v]
    if not values:
        return "not measured"
    return (
        f"median {statistics.median(values):.{digits}f}{unit} (from {min(values):.{digits}f}"
        f" to {max(values):.{digits}f}{unit})"
    )


def print_medians(label: str, setup: str, tables: int, outs: list[dict]) -> None:
    """The medians of several runs of one checkout: p99, server CPU per action, and the CPU
    ratio each run measured against its own echo (the median of the ratios)."""
    games = [out["game"] for out in outs]
    print(
        f"{label:6} {setup:9} {tables:6d} game p99 over {len(outs)} runs:"
        f" {_spread([g['p99'] for g in games], ' ms')};"
        f" ms/act {_spread([cpu_per_action(g) for g in games])};"
        f" cpu ratio {_spread([cpu_ratio(out) for out in outs], digits=2)}",
        flush=True,
    )


def print_forwards(label: str, setup: str, tables: int, forwards: dict | None) -> None:
    """The requests forwarded between the server processes in the window, and how long they
    waited for the owner's answer (``load_figures.forward_figures``)."""
    head = f"{label:6} {setup:9} {tables:6d} runtimes:"
    if forwards is None:
        print(f"{head} not served (no /api/ops/runtimes/ on this checkout)", flush=True)
        return
    f = forwards
    answered = (
        f", answered in p50 {f['p50']:.1f} ms, p99 {f['p99']:.1f} ms" if f["answered"] else ""
    )
    servers = ", ".join(
        f"{s['name']} runs {s['owned']} and follows {s['followed']}" for s in f["servers"]
    )
    print(
        f"{head} {f['forwards']} requests forwarded between processes"
        f" ({f['per_action']:.2f} per action){answered}; {f['commands']} commands run by"
        f" owners, {f['reads']} table reads, {f.get('built', 0)} versions built by followers;"
        f" tables: {servers}",
        flush=True,
    )


def print_cpu_split(label: str, setup: str, tables: int, split: dict | None, top: int = 8) -> None:
    """Where the servers' CPU went in the window (``load_figures.cpu_figures``): by thread,
    and by kind of work (nothing where the checkout does not tell); per second of the window
    where no action was played."""
    if split is None:
        return
    head = f"{label:6} {setup:9} {tables:6d}"
    per = split.get("per", "action")
    threads = ", ".join(f"{pool} {ms:.2f}" for pool, ms in split["threads"])
    print(f"{head} cpu by thread, ms per {per}: {threads}", flush=True)
    work = ", ".join(
        f"{row['name'].removeprefix('tables.')} {row['ms']:.2f}"
        f" ({row['calls']} x {row['per_call']:.2f})"
        for row in split["work"][:top]
    )
    print(f"{head} work, ms per {per} (calls x ms each): {work}", flush=True)


def print_game_details(label: str, setup: str, tables: int, game: dict) -> None:
    """The game's connect phase, frames, the servers' runtimes and where their CPU went
    (printed as soon as the game is measured)."""
    c = game["connect"]
    took = f"all in {c['seconds']:.1f} s" if c["seconds"] is not None else "NOT all by the deadline"
    retried = 100 * c["retried"] / c["sockets"] if c["sockets"] else 0.0
    print(
        f"{label:6} {setup:9} {tables:6d} connect: {c['with_state']}/{c['sockets']} sockets"
        f" had their state, {took}; {c['attempts']} handshakes, {c['retried']}"
        f" retried ({retried:.1f}%), {c['shed']} shed (busy)",
        flush=True,
    )
    for socket in c.get("without_state", ()):
        print(
            f"{label:6} {setup:9} {tables:6d} no state: table {socket['table']}"
            f" {socket['player']}: {socket['attempts']} handshakes, {socket['connects']}"
            f" opened, {socket['frames']} frames",
            flush=True,
        )
    for kind in ("json", "browser"):
        f = game["frames"][kind]
        versions = f.get("versions_per_action")
        print(
            f"{label:6} {setup:9} {tables:6d} {kind:7} frames: {f['frames']} in the window,"
            f" median {f['median']:.0f} B, p99 {f['p99']:.0f} B, {f['per_action']:.0f} B per"
            " action per socket"
            + (f", {versions:.2f} versions per action" if versions is not None else ""),
            flush=True,
        )
    if "runtimes" in game:
        print_forwards(label, setup, tables, game["runtimes"])
    print_cpu_split(label, setup, tables, game.get("cpu_split"))


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
