"""The load benchmark's command line (``bench/bench_load.py``): what one measurement is asked
for, the checkouts it serves, and the limits of both."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from bench.echo_clients import PLAYERS
from tests.load.harness import PYTHON

ROOT = Path(__file__).resolve().parents[1]

MAX_TABLES = 1000
MAX_SECONDS = 120
WARM_UP_SECONDS = 10
#: Seconds every socket has to get its first state (``--rush``: reported if they did not).
CONNECT_DEADLINE = 120


@dataclass(frozen=True)
class Checkout:
    """A checkout of the site to serve (``--server-dir``), with its own interpreter."""

    label: str
    root: Path
    python: str

    @classmethod
    def parse(cls, text: str) -> Checkout:
        """``LABEL=PATH`` or ``PATH`` (labelled by its folder's name); the interpreter is the
        checkout's ``.venv/bin/python``, else this one."""
        label, _, path = text.rpartition("=")
        root = Path(path).resolve()
        if not (root / "manage.py").exists():
            raise ValueError(f"--server-dir {text}: {root} is not a checkout of the site")
        venv = root / ".venv" / "bin" / "python"
        return cls(label or root.name, root, str(venv) if venv.exists() else PYTHON)


THIS_CHECKOUT = Checkout("this", ROOT, PYTHON)


@dataclass(frozen=True)
class Options:
    """What one measurement is asked for (the command line)."""

    seconds: float
    think: tuple[float, float]
    workers: int = 2
    warm_up: float = WARM_UP_SECONDS
    rush: bool = False
    profile: bool = False
    profile_threads: bool = False
    profile_rate: int = 50
    connect_deadline: float = CONNECT_DEADLINE
    server_cpus: str | None = None
    #: A folder the servers' logs are copied to when they close (None: removed with them).
    keep_logs: Path | None = None
    #: Each table's clients dealt round the servers (half on each of two), not all on one.
    spread: bool = False


def table_counts(text: str) -> list[int]:
    """``"25,50,100"`` -> [25, 50, 100]; a count above ``MAX_TABLES`` (or below 1) is refused
    with a message (never silently cut)."""
    counts = []
    for part in text.split(","):
        try:
            n = int(part)
        except ValueError:
            raise ValueError(f"--tables: {part!r} is not a whole number") from None
        if not 1 <= n <= MAX_TABLES:
            raise ValueError(
                f"--tables {n}: from 1 to {MAX_TABLES} tables per measurement"
                f" ({n * PLAYERS} sockets asked)"
            )
        counts.append(n)
    return counts


def think_range(text: str) -> tuple[float, float]:
    """``"0.5-1.5"`` -> (0.5, 1.5); ``"1"`` -> (1, 1); ``"0"``: act at once."""
    low, _, high = str(text).partition("-")
    return float(low), float(high or low)


def command_line(
    description: str, argv: list[str] | None = None
) -> tuple[argparse.Namespace, list[int], list[Checkout], Options | None]:
    """The command line read: its arguments, the table counts, the checkouts to serve and the
    options of each measurement (None for a client worker, ``--worker``); a bad value exits
    with the parser's message."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--setup", choices=["embedded", "redis", "both"], default="both")
    parser.add_argument(
        "--tables", default="25,50,100", help=f"table counts, comma-separated (1-{MAX_TABLES})"
    )
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument(
        "--profile-threads",
        action="store_true",
        help="with --profile: sample every thread, not only the one holding the GIL",
    )
    parser.add_argument(
        "--profile-rate",
        type=int,
        default=50,
        help="with --profile: samples per second (py-spy's --rate; more: finer, dearer)",
    )
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
        " fresh servers and a fresh database, and print the median p99, CPU per action and"
        " CPU ratio"
        " (on a shared 2-core machine one run's p99 moves a lot); two checkouts take turns",
    )
    parser.add_argument(
        "--rush",
        action="store_true",
        help="a connect rush: every socket connects at one moment; report the time until"
        " every socket has its state, the handshakes tried and retried, the sockets shed;"
        " then measure the play right after (no warm-up)",
    )
    parser.add_argument(
        "--connect-deadline",
        type=float,
        default=CONNECT_DEADLINE,
        help=f"seconds every socket has to get its state (default {CONNECT_DEADLINE})",
    )
    parser.add_argument(
        "--server-dir",
        action="append",
        default=[],
        metavar="[LABEL=]PATH",
        help="serve this checkout of the site (with its .venv) instead of this one; give it"
        " twice (e.g. old=/work/baseline new=.) to measure both, one after the other, in"
        " one run",
    )
    parser.add_argument(
        "--server-cpus",
        metavar="CPUS",
        help="pin the servers to these CPUs (taskset -c, e.g. 0,1: a 2-core server on a"
        " bigger machine, its clients on the other cores)",
    )
    parser.add_argument(
        "--keep-logs",
        type=Path,
        metavar="DIR",
        help="copy each server's log to DIR when it closes (named by checkout, setup, tables)",
    )
    parser.add_argument(
        "--spread",
        action="store_true",
        help="redis set-up: connect each table's clients half to one server process and half"
        " to the other (the echo's rooms too), not all six to one as nginx routes them, so"
        " that requests are forwarded to the process running the table",
    )
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return args, [], [], None
    try:
        counts = table_counts(args.tables)
        checkouts = [Checkout.parse(text) for text in args.server_dir] or [THIS_CHECKOUT]
    except ValueError as error:
        parser.error(str(error))
    if not 0 < args.seconds <= MAX_SECONDS:
        parser.error(f"--seconds {args.seconds:g}: more than 0, at most {MAX_SECONDS}")
    options = Options(
        seconds=args.seconds,
        think=think_range(args.think),
        workers=args.workers,
        warm_up=0.0 if args.rush else max(0.0, args.warm_up),
        rush=args.rush,
        profile=args.profile or args.profile_threads,
        profile_threads=args.profile_threads,
        profile_rate=args.profile_rate,
        connect_deadline=args.connect_deadline,
        server_cpus=args.server_cpus,
        keep_logs=args.keep_logs,
        spread=args.spread,
    )
    return args, counts, checkouts, options
