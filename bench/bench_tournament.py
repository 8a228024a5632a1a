"""Tournaments through the services: a 1,000-entrant bot tournament, and how many tournament
tables one croupier keeps running.

    .venv/bin/python bench/bench_tournament.py [--entrants 1000] [--tables 10,25,50,100]
        [--seconds 20] [--threshold 1.0] [--skip-tournament] [--skip-croupier]

Creates a throw-away test database (SQLite in memory unless ``DATABASE_URL`` says otherwise).

1. **A whole tournament**: ``--entrants`` bots, 9 seats a table, a fast structure (blinds
   doubling every 2 hands, the tests' ``FAST``), played one hand at a time at every open table
   in turn through ``clock_tick`` and ``hand_act`` (the services a server runs, with fake
   time: no waiting for clocks), with push-or-fold bots; balancing, breaking, hand-for-hand,
   places and prizes as they happen. Prints hands per second and the time to a winner, and
   checks at the end: prizes paid == the pool, every place given, the chips where they were.
2. **One croupier, N tables**: a multi-table tournament of N × 6 bots (deep stacks, slow
   levels), driven in real time by one ``Croupier`` loop (``--interval`` s between passes, as
   in a server process) with the engine's ``SensibleBot`` deciding after a 0.2–0.6 s
   "thinking" delay. For each N: actions per second and the delay of each bot action past the
   moment it was due (turn start + its thinking time), p50 and p99; the table count at which
   the p99 passes ``--threshold`` seconds is where one process stops keeping up.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokersite.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

FAST = [{"small_blind": 25 * 2**n, "big_blind": 50 * 2**n, "hands": 2} for n in range(20)]


def organiser(name: str):
    from django.contrib.auth import get_user_model

    from tables.services.players import player_create

    user = get_user_model().objects.create_user(username=name, password="bench-not-used-123")
    return player_create(user=user, grant=0)


def whole_tournament(entrants: int) -> None:
    from django.utils import timezone

    from tables.selectors.chips import chips_conserved, chips_total
    from tables.tournaments.models import Tournament
    from tables.tournaments.selectors import (
        chips_issued,
        prizes_paid,
        table_counts,
        tournament_chips as chips_in_play,
    )
    from tables.tournaments.services import tournament_create, tournament_start
    from tests.tables.tournaments.helpers import play_hand

    made = time.perf_counter()
    host = organiser("bench_organiser")
    tournament = tournament_create(
        organiser=host,
        name="Bench thousand",
        format="multi-table",
        seats_per_table=9,
        entry_fee=10,
        starting_stack=1000,
        levels=FAST,
        bot_entrants=entrants,
    )
    tournament_start(tournament=tournament, by=host, rng=random.Random(1))
    tables_at_start = len(table_counts(tournament))
    print(
        f"set-up: {entrants} bots entered, {tables_at_start} tables seated "
        f"in {time.perf_counter() - made:.1f} s"
    )
    rng = random.Random(7)
    now = timezone.now() + timedelta(days=1)
    hands = 0
    start, cpu = time.perf_counter(), time.process_time()
    while True:
        tournament.refresh_from_db()
        if tournament.status == Tournament.Status.FINISHED:
            break
        for table_id in sorted(table_counts(tournament)):
            if play_hand(table_id, now, rng):
                hands += 1
                if hands % 500 == 0:  # a spot check as it plays (the tests check every hand)
                    tournament.refresh_from_db()
                    if tournament.status == Tournament.Status.RUNNING:
                        assert chips_in_play(tournament) == chips_issued(tournament)
        now += timedelta(seconds=30)
    took, cpu = time.perf_counter() - start, time.process_time() - cpu
    tournament.refresh_from_db()
    places = sorted(p for p in tournament.entries.values_list("place", flat=True))
    assert prizes_paid(tournament) == tournament.prize_pool == 10 * entrants
    assert places[0] == 1 and len(places) == entrants and None not in places
    assert chips_conserved(chips_total())
    print(
        f"{entrants}-entrant tournament to its winner: {hands} hands in {took:.1f} s "
        f"= {hands / took:.0f} hands/s (fake time; {tables_at_start} tables at the start)"
    )
    print(f"  this process's CPU time: {cpu:.1f} s = {hands / cpu:.0f} hands per CPU second")


def croupier_tables(count: int, seconds: float, interval: float) -> dict:
    from django.db.models import F, Window
    from django.db.models.functions import Lag
    from django.utils import timezone

    from tables.croupier import Croupier
    from tables.models import Hand, HandAction
    from tables.services.clock import bot_delay
    from tables.tournaments.models import Tournament
    from tables.tournaments.selectors import table_counts
    from tables.tournaments.services import tournament_create, tournament_start

    host = organiser(f"bench_host_{count}")
    tournament = tournament_create(
        organiser=host,
        name=f"Bench {count} tables",
        format="multi-table",
        seats_per_table=6,
        starting_stack=1_000_000,  # nobody busts: N tables all the time
        levels=[{"small_blind": 5, "big_blind": 10, "minutes": 600}],
        bot_entrants=count * 6,
    )
    tournament_start(tournament=tournament, by=host, rng=random.Random(count))
    tables = list(table_counts(tournament))
    assert len(tables) == count
    croupier = Croupier(interval=interval)
    started = timezone.now()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        pass_start = time.monotonic()
        croupier.tick()
        rest = interval - (time.monotonic() - pass_start)
        if rest > 0:
            time.sleep(rest)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    # Each bot action's delay past its due time: the turn began when the previous action (or
    # the deal) was written, and the bot was due after its thinking time.
    rows = (
        HandAction.objects.filter(hand__table_id__in=tables, created_at__gte=started)
        .annotate(previous=Window(Lag("created_at"), partition_by=[F("hand_id")], order_by="index"))
        .values_list("hand_id", "index", "created_at", "previous", "source")
    )
    dealt = dict(Hand.objects.filter(table_id__in=tables).values_list("pk", "started_at"))
    delays = []
    for hand_id, index, created_at, previous, source in rows:
        if source != HandAction.Source.BOT:
            continue
        turn = previous or dealt[hand_id]
        due = turn + timedelta(seconds=bot_delay(hand_id, index))
        delays.append(max(0.0, (created_at - due).total_seconds()))
    delays.sort()
    p = (lambda q: delays[min(len(delays) - 1, int(q * len(delays)))]) if delays else (lambda q: 0)
    return {
        "tables": count,
        "actions": len(delays),
        "per_second": len(delays) / seconds,
        "p50": p(0.50),
        "p99": p(0.99),
        "mean": statistics.fmean(delays) if delays else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=1000)
    parser.add_argument("--tables", default="10,25,50,100")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--interval", type=float, default=0.1)
    parser.add_argument("--threshold", type=float, default=1.0)
    parser.add_argument("--skip-tournament", action="store_true")
    parser.add_argument("--skip-croupier", action="store_true")
    args = parser.parse_args()
    print(f"database: {connection.vendor}")
    if not args.skip_tournament:
        whole_tournament(args.entrants)
    if args.skip_croupier:
        return
    settings.POKER_BOT_DELAY = (0.2, 0.6)
    settings.POKER_HAND_PAUSE_SECONDS = 1
    print(
        f"one croupier (a pass every {args.interval} s), bots think 0.2-0.6 s, "
        f"{args.seconds:.0f} s per size; delay = bot action written minus when it was due"
    )
    print("tables  actions  actions/s  delay p50  delay p99")
    limit = None
    for count in [int(n) for n in args.tables.split(",")]:
        figures = croupier_tables(count, args.seconds, args.interval)
        print(
            f"{figures['tables']:6d}  {figures['actions']:7d}  {figures['per_second']:9.1f}"
            f"  {figures['p50'] * 1000:7.0f} ms  {figures['p99'] * 1000:7.0f} ms"
        )
        if limit is None and figures["p99"] > args.threshold:
            limit = count
    if limit is None:
        print(f"p99 stayed under {args.threshold} s at every size tried")
    else:
        print(f"p99 passed {args.threshold} s at {limit} tables")


if __name__ == "__main__":
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, keepdb=False)
    try:
        main()
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
