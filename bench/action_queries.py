"""The SQL statements of one player action on the live path, counted per statement shape.

    .venv/bin/python bench/action_queries.py [--actions 300] [--seed 1] [--sql]

Six players at one no-limit table (a fresh SQLite file, or ``DATABASE_URL`` when set: a
PostgreSQL database is used as it is, so give it a scratch one) play random legal actions
the way a table's runtime carries them out (``tables.live.runtime``): each a socket's
``act`` request (``TableRuntime._command``: ``hand_act``) on the engine hand held in memory
(``LiveHand``), in the transaction that renews the lease (``lease_fenced``), and the table
after it built in memory or read, on the write thread (``written_and_read``); each deal is
the runtime's clock tick (``clock_tick`` fenced by the lease, then the table after it, as
``TableRuntime.tick`` does; the players who went bust buy in again first, a change the
runtime reads, not counted).
Every statement sent to the database (``connection.execute_wrapper``: savepoints, commits
and ``SET LOCAL`` included; on SQLite, Django's BEGIN is the driver's and not seen) is
grouped by its SQL with the literals taken out, and counted per event of each kind:

- ``action``: an accepted action after which the hand goes on (built in memory);
- ``hand end``: an accepted action that ends the hand;
- ``deal``: the clock's tick that deals the next hand.

The first two hands warm the compiled statements (``tables.db.statements``) up and are not
counted. ``--sql``: print each shape's full SQL, not its first 110 characters. ``--time``:
count nothing, print the CPU milliseconds (``time.process_time``) of each kind's trip instead
(the write, and the table built or read after it), to compare checkouts.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import itertools
import os
import random
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

# BENCH_TREE: measure another checkout's code with this script (one whose copy lacks a figure).
ROOT = Path(os.environ.get("BENCH_TREE") or Path(__file__).resolve().parents[1])
sys.path.insert(0, str(ROOT))

KINDS = ("action", "hand end", "deal", "run-out street")
WARM_HANDS = 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sql", action="store_true", help="print each shape's whole SQL")
    parser.add_argument(
        "--time", action="store_true", help="the CPU milliseconds of each kind, nothing counted"
    )
    args = parser.parse_args()
    os.environ["POKER_CROUPIER"] = "0"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokersite.settings")
    if os.environ.get("DATABASE_URL"):
        run(args)
        return
    with tempfile.TemporaryDirectory() as folder:
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/queries.sqlite3"
        run(args)


def shape(sql: str) -> str:
    """``sql`` with its literals and parameter lists made one placeholder: one shape per
    statement however many rows or values it names."""
    sql = re.sub(r'SAVEPOINT "?s\w+"?', "SAVEPOINT ?", sql)  # named after the thread, numbered
    sql = re.sub(r"'(?:[^']|'')*'", "?", sql)
    sql = re.sub(r"\b\d+\b", "?", sql)
    sql = re.sub(r"%s|\$\d+|\?", "?", sql)
    sql = re.sub(r"\?(?:\s*,\s*\?)+", "?…", sql)
    sql = re.sub(r"(?: WHEN \? THEN \?)+", " WHEN ? THEN ?…", sql)
    return re.sub(r"\s+", " ", sql).strip()


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
    from tables.live.runtime import written_and_read
    from tables.models import Table
    from tables.selectors.snapshot import load_snapshot
    from tables.services import player_grant, player_sign_up, seat_take, table_save
    from tables.services.clock import clock_tick
    from tables.services.events import lease_fenced
    from tables.services.leases import PROCESS, lease_take
    from tables.services.live_hand import LiveHand, held_hand
    from tests.tables.helpers import act_request

    publish = events._publish

    def publish_runtime_writes(event: dict[str, Any], group: str = "") -> None:
        """The runtime's writes publish into their outbox (how ``written_and_read`` learns
        the new version); the set-up's writes, nowhere."""
        if events.outbox.get() is not None:
            publish(event, group)

    events._publish = publish_runtime_writes  # type: ignore[assignment]
    dealt = itertools.count(1)  # decks from fixed seeds: two checkouts play the same hands
    hands_service.new_seed = lambda: f"{args.seed:032x}{next(dealt):032x}"  # type: ignore[assignment]
    rng = random.Random(args.seed)

    suffix = os.urandom(3).hex()  # a PostgreSQL database may hold an earlier run's players
    table = table_save(table=Table(name=f"Queries {suffix}", max_seats=6))
    players = [
        player_sign_up(username=f"q{suffix}-{n}", password="pw-Bench-Secret1") for n in range(6)
    ]
    by_id = {player.pk: player for player in players}
    for player in players:
        player_grant(player=player, amount=10**7, reason="bench")
    epoch = lease_take(table.pk, PROCESS, "bench") or 0

    seen: list[str] = []

    def note(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        seen.append(sql)
        return execute(sql, params, many, context)

    counts: dict[str, Counter[str]] = {kind: Counter() for kind in KINDS}
    events_of: Counter[str] = Counter()
    full: dict[str, str] = {}
    snapshot: Any = None
    live: LiveHand | None = None
    hands = actions = 0
    now = timezone.now()

    def hold(snap: Any) -> None:
        """The runtime's ``_now``: the snapshot, and its hand held in memory."""
        nonlocal snapshot, live
        snapshot, live = snap, held_hand(snap)

    spent: Counter[str] = Counter()  # --time: CPU seconds per kind
    started = 0.0

    @contextlib.contextmanager
    def watched() -> Iterator[None]:
        """The statements noted, or (``--time``) the CPU the trip takes, nothing noted."""
        nonlocal started
        if args.time:
            started = time.process_time()
            yield
            return
        with connection.execute_wrapper(note):
            yield

    def count(kind: str) -> None:
        if hands > WARM_HANDS:
            events_of[kind] += 1
            spent[kind] += time.process_time() - started
            for sql in seen:
                counts[kind][shape(sql)] += 1
                full.setdefault(shape(sql), sql)
        seen.clear()

    while actions < args.actions:
        if live is None:  # between hands: whoever went bust buys in again; the clock deals
            row = Table.objects.get(pk=table.pk)
            seated = set(row.seats.values_list("player_id", flat=True))
            bought = [p for p in players if p.pk not in seated]
            for player in bought:
                seat_take(table=row, player=player, buy_in=200)
            if bought:  # a change it did not make: the runtime reads it (unmeasured)
                hold(load_snapshot(table.pk, snapshot))
            epoch = lease_take(table.pk, PROCESS, "bench") or epoch  # unmeasured: as renewed
            for _ in range(20):  # a run-out's streets first, each at its time, then the deal
                # the clock moves on past every pause (a street's, the odds' wait, the deal's)
                now = max(timezone.now(), now) + timedelta(seconds=6)
                tick = functools.partial(clock_tick, table=table.pk, now=now, skip_busy=True)
                with watched():
                    written = written_and_read(
                        table.pk, functools.partial(lease_fenced, table.pk, PROCESS, epoch, tick),
                        snapshot, None,
                    )  # fmt: skip
                if written.result == "started":
                    break
                count("run-out street")
                if written.version:  # the runtime shows its street
                    hold(written.snapshot)
            assert written.result == "started", written.result
            hands += 1
            count("deal")
            hold(written.snapshot)
            continue
        state = live.state
        assert state.actor is not None and not state.runs_due
        decided = RandomBot(rng).decide(state.view(state.actor))
        who = by_id[live.hand.seats[state.actor]["player_id"]]
        data: dict[str, Any] = {
            "op": "act",
            "hand": live.hand.pk,
            "version": live.version,
            "kind": str(decided.kind),
            "amount": decided.amount,
        }
        request = act_request(table.pk, who, data, live)
        with watched():
            written = written_and_read(
                table.pk, functools.partial(lease_fenced, table.pk, PROCESS, epoch, request),
                snapshot, live,
            )  # fmt: skip
        actions += 1
        if written.read:
            hold(written.snapshot)
        else:
            snapshot = written.snapshot
        over = live is None or not snapshot.running
        count("hand end" if over else "action")
        if over:
            live = None

    print(f"{connection.vendor}, {hands - WARM_HANDS} hands counted, {actions} actions in all")
    for kind in KINDS:
        number = events_of[kind]
        if not number:
            continue
        if args.time:
            print(f"{kind}: {number} timed, CPU {1000 * spent[kind] / number:.3f} ms each")
            continue
        total = sum(counts[kind].values()) / number
        print(f"\n{kind}: {number} counted, {total:.2f} statements each")
        for sql, times in counts[kind].most_common():
            text = full[sql] if args.sql else sql[:110]
            print(f"  {times / number:6.2f}  {text}")


if __name__ == "__main__":
    main()
