"""The arithmetic of ``bench_load.py``'s client results: the latencies' summary, the connect
phase of several client processes as one, the frame figures per kind of client, and from the
servers' own figures the requests forwarded between them and where their CPU went."""

from __future__ import annotations

import re

from bench.echo_clients import PLAYERS
from tests.load.harness import percentile


def summary(latencies: list[float], count: int, seconds: float) -> dict:
    return {
        "per_s": count / seconds,
        "p50": percentile(latencies, 50) * 1000,
        "p95": percentile(latencies, 95) * 1000,
        "p99": percentile(latencies, 99) * 1000,
        "n": count,
    }


def merge_connects(connects: list[dict]) -> dict:
    """The workers' connect phases as one: every socket had its state after the slowest
    worker's time (None if one of them ran out of time)."""
    seconds = [c["seconds"] for c in connects]
    sockets = sum(c["sockets"] for c in connects)
    attempts = sum(c["attempts"] for c in connects)
    return {
        "seconds": None if None in seconds else max(seconds),
        "sockets": sockets,
        "with_state": sum(c["with_state"] for c in connects),
        "attempts": attempts,
        "retried": attempts - sockets,
        "shed": sum(c["shed"] for c in connects),
        "without_state": [socket for c in connects for socket in c.get("without_state", ())],
    }


def frame_figures(results: list[dict], actions: int) -> dict:
    """Frame sizes in the measured window, JSON players' and browsers' apart: median, p99 and
    the bytes one socket received per accepted action at its table; and the versions each
    JSON socket was sent per accepted action (a deal, a run-out's street, its odds, a re-seat
    are versions no player's action made: the frames' work is per version)."""
    json_sizes = [n for r in results for n in r["json_sizes"]]
    browser_sizes = [n for r in results for n in r["browser_sizes"]]
    json_sockets = sum(r["json_sockets"] for r in results)
    tables = json_sockets / PLAYERS
    browser_actions = sum(r["browser_table_actions"] for r in results)
    browser_sockets = sum(r["browser_sockets"] for r in results)

    def figures(sizes: list[int], per_action: float) -> dict:
        return {
            "frames": len(sizes),
            "median": percentile(sizes, 50) if sizes else float("nan"),
            "p99": percentile(sizes, 99) if sizes else float("nan"),
            "per_action": per_action,
        }

    nan = float("nan")
    # each action reaches the six JSON sockets of its table
    json_reach = actions * PLAYERS if actions and tables else 0
    table_frames = sum(r["json_table_frames"] for r in results)
    return {
        "json": {
            **figures(json_sizes, sum(json_sizes) / json_reach if json_reach else nan),
            "versions_per_action": table_frames / json_reach if json_reach else nan,
        },
        # one browser socket at each sampled table
        "browser": figures(
            browser_sizes,
            sum(browser_sizes) / browser_actions if browser_actions and browser_sockets else nan,
        ),
    }


def forward_figures(
    names: list[str], before: list[dict | None], after: list[dict | None], actions: int
) -> dict | None:
    """What the servers' table runtimes did in the window, from each server's figures at its
    start and end (``/api/ops/runtimes/``; None if a server did not give them): the requests
    a process forwarded to the one running their table, per accepted action, the time until
    each was answered (p50, p99 in ms: the hop there and back, the owner's command
    included), the commands run by owners, the tables read again, the versions followers
    built from their owner's action, and the tables each server ran and followed at the end.
    The servers are fresh for each measurement and keep the last 100,000 answer times: a
    window's are the ones after those it started with."""
    if any(figures is None for figures in [*before, *after]):
        return None

    def grew(key: str) -> int:
        return sum(a[key] - b[key] for b, a in zip(before, after, strict=True))

    seconds = [
        s
        for b, a in zip(before, after, strict=True)
        for s in a["forwarded_seconds"][len(b["forwarded_seconds"]) :]
    ]
    nan = float("nan")
    forwards = grew("forwards")
    return {
        "forwards": forwards,
        "per_action": forwards / actions if actions else nan,
        "answered": len(seconds),
        "p50": percentile(seconds, 50) * 1000 if seconds else nan,
        "p99": percentile(seconds, 99) * 1000 if seconds else nan,
        "commands": grew("commands"),
        "reads": grew("reads"),
        # (a checkout from before followers built their owner's actions says none)
        "built": sum(
            a.get("built", 0) - b.get("built", 0) for b, a in zip(before, after, strict=True)
        ),
        "servers": [
            {"name": name, "owned": len(a["owned"]), "followed": len(a["followed"])}
            for name, a in zip(names, after, strict=True)
        ],
    }


def cpu_figures(
    before: list[dict | None], after: list[dict | None], actions: int, window: float = 0.0
) -> dict | None:
    """Where the servers' CPU went in the window, from their figures at its start and end
    (``/api/ops/runtimes/``' ``threads`` and ``work``; None where a server does not give them,
    a checkout from before them): ms per accepted action by thread (a pool's threads together:
    ``reads_0`` and ``reads_1`` are ``reads``; the event loop's is ``MainThread``), and by
    kind of work (the database threads', the event loop's frames; its calls and ms per call
    too), the most first. A window without an accepted action (players who do not act: an
    idle room, ``--think 100-200 --rush``) gives ms per second of the ``window`` (seconds)
    (``per``: "action" or "second"): what the servers spend with nothing played."""
    per, count = ("action", actions) if actions else ("second", window)
    if not count or any(f is None or "threads" not in f for f in [*before, *after]):
        return None
    threads: dict[str, float] = {}
    work: dict[str, list[float]] = {}  # name -> [seconds, calls]
    for b, a in zip(before, after, strict=True):
        assert b is not None and a is not None  # checked above
        for name, seconds in a["threads"].items():
            pool = re.sub(r"_\d+$", "", name)
            threads[pool] = threads.get(pool, 0.0) + seconds - b["threads"].get(name, 0.0)
        for name, spent in a["work"].items():
            earlier = b["work"].get(name, {"seconds": 0.0, "calls": 0})
            total = work.setdefault(name, [0.0, 0])
            total[0] += spent["seconds"] - earlier["seconds"]
            total[1] += spent["calls"] - earlier["calls"]
    return {
        "per": per,
        "threads": sorted(
            ((pool, 1000 * s / count) for pool, s in threads.items() if s > 0),
            key=lambda item: -item[1],
        ),
        "work": sorted(
            (
                {
                    "name": name,
                    "calls": int(calls),
                    "ms": 1000 * seconds / count,  # per action (or second)
                    "per_call": 1000 * seconds / calls if calls else float("nan"),
                }
                for name, (seconds, calls) in work.items()
                if calls > 0
            ),
            key=lambda row: -row["ms"],
        ),
    }
