"""Server CPU of one player taking a seat at a live table, in process.

    .venv/bin/python bench/bench_seat_cpu.py [--sits 120] [--seed 1] [--profile] [--frames]

Five players at a six-seat no-limit table (a fresh SQLite file, or ``DATABASE_URL`` when set:
a PostgreSQL database is used as it is, so give it a scratch one) play random legal actions
as a table's runtime carries them out (unmeasured); a player from a pool of newcomers takes
the free seat the way the runtime carries out a socket's ``take_seat`` request
(``tables.live.runtime``): through ``run_op`` in the transaction that renews the lease
(``lease_fenced``), and the table after it built or read on the write thread
(``written_and_read``). Each newcomer leaves again before the next one sits down (not timed).
The sit-downs take turns: a free seat during a hand, the seat chosen, posting a big blind at
once, and a free seat between two hands. Prints the CPU milliseconds (``time.process_time``)
of a sit-down's trip (the write, and the table after it): the median and the mean of all,
and each kind's median. ``--frames``: also six sockets' frames of the new version;
``--profile``: where the trips' CPU went; ``--sql``: the last trip's statements.
``BENCH_TREE``: measure another checkout's code with this script.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import functools
import itertools
import os
import pstats
import random
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(os.environ.get("BENCH_TREE") or Path(__file__).resolve().parents[1])
sys.path.insert(0, str(ROOT))

KINDS = ("free seat", "chosen seat", "post now", "between hands")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sits", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="where the trips' CPU went")
    parser.add_argument("--frames", action="store_true", help="time six sockets' frames too")
    parser.add_argument("--sql", action="store_true", help="print the last sit-down's SQL")
    args = parser.parse_args()
    os.environ["POKER_CROUPIER"] = "0"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokersite.settings")
    if os.environ.get("DATABASE_URL"):
        run(args)
        return
    with tempfile.TemporaryDirectory() as folder:
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/seat.sqlite3"
        run(args)


def run(args: argparse.Namespace) -> None:
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    call_command("migrate", verbosity=0)
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    import tables.services.events as events
    import tables.services.hands as hands_service
    from engine.bots import RandomBot
    from tables.live.frames import SocketFrames
    from tables.live.runtime import written_and_read
    from tables.models import Table
    from tables.operations import run_op
    from tables.selectors.snapshot import load_snapshot
    from tables.services import player_grant, player_sign_up, seat_leave, seat_take, table_save
    from tables.services.clock import clock_tick
    from tables.services.events import lease_fenced
    from tables.services.leases import PROCESS, lease_take
    from tables.services.live_hand import held_hand
    from tests.tables.helpers import act_request

    def publish_runtime_writes(event: dict[str, Any], group: str = "") -> None:
        """The runtime's writes publish into their outbox (how ``written_and_read`` learns
        the new version); the set-up's writes, nowhere."""
        waiting = events.outbox.get()
        if waiting is not None:
            waiting.append(event)

    events._publish = publish_runtime_writes  # type: ignore[assignment]
    dealt = itertools.count(1)  # decks from fixed seeds: two checkouts play the same hands
    hands_service.new_seed = lambda: f"{args.seed:032x}{next(dealt):032x}"  # type: ignore[assignment]
    rng = random.Random(args.seed)
    suffix = os.urandom(3).hex()  # a PostgreSQL database may hold an earlier run's players
    table = table_save(table=Table(name=f"Seats {suffix}", max_seats=6))
    players = [
        player_sign_up(username=f"s{suffix}-{n}", password="pw-Bench-Secret1") for n in range(5)
    ]
    newcomers = [
        player_sign_up(username=f"n{suffix}-{n}", password="pw-Bench-Secret1")
        for n in range(args.sits)
    ]
    by_id = {player.pk: player for player in [*players, *newcomers]}
    for player in [*players, *newcomers]:
        player_grant(player=player, amount=10**7, reason="bench")
    for player in players:
        seat_take(table=table, player=player, buy_in=200)
    sockets = [(player, SocketFrames("diff")) for player in [*players, None]]
    state: dict[str, Any] = {"snapshot": load_snapshot(table.pk), "epoch": 0}
    state["live"] = held_hand(state["snapshot"])
    clock = [timezone.now()]

    def hold(snapshot: Any) -> None:
        state["snapshot"], state["live"] = snapshot, held_hand(snapshot)

    def trip(work: Any, live: Any = None) -> Any:
        fenced = functools.partial(lease_fenced, table.pk, PROCESS, state["epoch"], work)
        return written_and_read(table.pk, fenced, state["snapshot"], live)

    def deal() -> None:
        state["epoch"] = lease_take(table.pk, PROCESS, "bench") or state["epoch"]
        for _ in range(20):  # a run-out's streets first, then the deal
            clock[0] = max(timezone.now(), clock[0]) + timedelta(seconds=6)
            tick = functools.partial(clock_tick, table=table.pk, now=clock[0], skip_busy=True)
            written = trip(tick)
            if written.version:
                hold(written.snapshot or load_snapshot(table.pk))
            if written.result == "started":
                return
        raise AssertionError("no deal")

    def act() -> None:
        live = state["live"]
        assert live is not None
        engine = live.state
        decided = RandomBot(rng).decide(engine.view(engine.actor))
        who = by_id[live.hand.seats[engine.actor]["player_id"]]
        data = {
            "op": "act",
            "hand": live.hand.pk,
            "version": live.version,
            "kind": str(decided.kind),
            "amount": decided.amount,
        }
        request = act_request(table.pk, who, data, live)
        written = trip(request, live)
        if written.read or written.snapshot is None:
            hold(written.snapshot or load_snapshot(table.pk))
        else:
            state["snapshot"] = written.snapshot
        if not state["snapshot"].running:
            state["live"] = None

    def rebuy() -> None:
        """Whoever went bust buys in again (not timed: a change the runtime reads)."""
        seated = set(state["snapshot"].table.seats.values_list("player_id", flat=True))
        bought = [player for player in players if player.pk not in seated]
        for player in bought:
            seat_take(table=table, player=player, buy_in=200)
        if bought:
            hold(load_snapshot(table.pk, state["snapshot"]))

    times: dict[str, list[float]] = {kind: [] for kind in KINDS}
    seen: list[str] = []

    def note(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        seen.append(sql)
        return execute(sql, params, many, context)

    framed: list[float] = []
    profile = cProfile.Profile() if args.profile else None
    for number, newcomer in enumerate(newcomers):
        kind = KINDS[number % len(KINDS)]
        if kind == "between hands":  # the hand played out, the next not dealt yet
            while state["live"] is not None:
                act()
            rebuy()
        elif state["live"] is None:
            rebuy()
            deal()
            for _ in range(2):
                if state["live"] is not None:
                    act()
        free = [n for n in range(6) if n not in state["snapshot"].seats]
        data: dict[str, Any] = {"op": "take_seat", "buy_in": 150}
        if kind == "chosen seat":
            data["seat"] = free[-1] + 1
        if kind == "post now":
            data["post_now"] = 1
        request = functools.partial(
            run_op, table_id=table.pk, user=newcomer.user, data=data, player=newcomer
        )
        if profile is not None:
            profile.enable()
        seen.clear()
        start = time.process_time()
        with connection.execute_wrapper(note) if args.sql else contextlib.nullcontext():
            written = trip(request)
        took = time.process_time() - start
        if profile is not None:
            profile.disable()
        assert written.version and written.snapshot is not None, written
        assert written.snapshot.seat_of(newcomer.pk) is not None
        times[kind].append(took)
        hold(written.snapshot)
        if args.frames:
            start = time.process_time()
            for player, socket in sockets:
                seated = player is None or written.snapshot.seat_of(player.pk) is not None
                socket.next_frame(written.snapshot, player, None if seated else 1000)
            framed.append(time.process_time() - start)
        seat_leave(table=table.pk, player=newcomer)  # not timed: the next newcomer's seat
        hold(load_snapshot(table.pk, state["snapshot"]))
    every = [took for kind in KINDS for took in times[kind]]
    parts = ", ".join(
        f"{kind} {1000 * statistics.median(times[kind]):.3f}" for kind in KINDS if times[kind]
    )
    print(
        f"{ROOT}: {len(every)} sit-downs, CPU ms each: median "
        f"{1000 * statistics.median(every):.3f}, mean {1000 * statistics.mean(every):.3f} "
        f"({parts})"
    )
    if framed:
        median = 1000 * statistics.median(framed)
        print(f"six sockets' frames of the new version: median {median:.3f}")
    if args.sql:
        print(f"the last sit-down ({kind}): {len(seen)} statements")
        for sql in seen:
            print(" ", sql[:160])
    if profile is not None:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(45)


if __name__ == "__main__":
    main()
