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
    f" {'p99':>6} {'ms/msg':>6} | {'p99 ratio':>9}"
)


def print_rows(label: str, setup: str, tables: int, out: dict) -> None:
    """The measurement's row: the game, the echo, their ratio."""
    game, echo = out["game"], out["echo"]
    ratio = game["p99"] / echo["p99"] if echo["p99"] else float("nan")
    per_action = 1000 * game["cpu"] / game["per_s"] if game["per_s"] else float("nan")
    # the bare transport's CPU for one message in and its six deliveries: an action's floor
    per_message = 1000 * echo["cpu"] / echo["per_s"] if echo["per_s"] else float("nan")
    print(
        f"{label:6} {setup:9} {tables:6d} {tables * PLAYERS:7d} | {game['per_s']:10.1f}"
        f" {game['p50']:6.1f}m {game['p95']:6.1f}m {game['p99']:6.1f}m {game['cpu']:5.2f}"
        f" {per_action:6.1f} | {echo['per_s']:10.1f} {echo['p50']:5.1f}m {echo['p99']:5.1f}m"
        f" {per_message:6.1f} | {ratio:9.1f}",
        flush=True,
    )


def print_medians(label: str, setup: str, tables: int, games: list[dict]) -> None:
    """The medians of several runs of one checkout: p99 and server CPU per action."""
    p99s = [game["p99"] for game in games]
    per_action = [1000 * g["cpu"] / g["per_s"] for g in games if g["per_s"]]
    cpu = (
        f"; ms/act median {statistics.median(per_action):.1f} (from {min(per_action):.1f}"
        f" to {max(per_action):.1f})"
        if per_action
        else ""
    )
    print(
        f"{label:6} {setup:9} {tables:6d} game p99 over {len(games)} runs: median"
        f" {statistics.median(p99s):.1f} ms (from {min(p99s):.1f} to {max(p99s):.1f} ms){cpu}",
        flush=True,
    )


def print_game_details(label: str, setup: str, tables: int, game: dict) -> None:
    """The game's connect phase and frames (printed as soon as the game is measured)."""
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
