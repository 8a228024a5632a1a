"""Server CPU of one action, in process, split: the write, the snapshot, the frames.

    .venv/bin/python bench/bench_action_cpu.py [--actions 400] [--seed 1] [--profile]

Six players at a no-limit table (a fresh SQLite file) play random legal actions through the
services (``hand_act``, as the socket's operation does); after each, the table's snapshot
is loaded as the live path loads it (from the previous one) and the frames of six players'
and a spectator's ``frames=diff`` sockets are made. Prints the CPU milliseconds per action of
each step (``time.process_time``; the change's publication is left out: the server hands it
to its event loop). No transport, no clock: ``bench/bench_load.py`` measures the whole
server. It measures the tree it is run from, so run it in two checkouts to compare.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="profile the frames")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
        os.environ["POKER_CROUPIER"] = "0"
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokersite.settings")
        run(args)


def run(args: argparse.Namespace) -> None:
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    import tables.services.events as events
    from engine.bots import RandomBot
    from tables.live.frames import SocketFrames
    from tables.models import Hand, Table
    from tables.selectors.hands import hand_state
    from tables.selectors.snapshot import Snapshot, load_snapshot
    from tables.services import (
        hand_act,
        hand_start,
        player_grant,
        player_sign_up,
        seat_take,
        table_save,
    )

    events._publish = lambda event: None  # type: ignore[assignment]
    rng = random.Random(args.seed)
    table = table_save(table=Table(name="Bench", max_seats=6))
    players = [player_sign_up(username=f"p{n}", password="pw-Bench-Secret1") for n in range(6)]
    for player in players:
        player_grant(player=player, amount=10**7, reason="bench")
    by_id = {player.pk: player for player in players}
    sockets = [(player, SocketFrames("diff")) for player in [*players, None]]
    spent = {"write": 0.0, "snapshot": 0.0, "frames": 0.0}
    profile = cProfile.Profile() if args.profile else None

    def frames(snapshot: Snapshot) -> None:
        for player, socket in sockets:
            seated = player is None or snapshot.seat_of(player.pk) is not None
            socket.next_frame(snapshot, player, None if seated else 1000)

    snapshot = None
    actions = 0
    while actions < args.actions:
        table = Table.objects.get(pk=table.pk)
        hand = table.hands.filter(status=Hand.Status.RUNNING).first()
        if hand is None:  # whoever went bust buys in again
            seated = set(table.seats.values_list("player_id", flat=True))
            for player in players:
                if player.pk not in seated:
                    seat_take(table=table, player=player, buy_in=200)
            hand_start(table=Table.objects.get(pk=table.pk))
            snapshot = load_snapshot(table.pk, snapshot)
            assert snapshot is not None
            frames(snapshot)
            continue
        state = hand_state(hand)
        assert state.actor is not None and not state.runs_due  # no run twice at this table
        action = RandomBot(rng).decide(state.view(state.actor))
        who = by_id[hand.seats[state.actor]["player_id"]]
        move = {"kind": str(action.kind), "amount": action.amount, "cards": []}
        start = time.process_time()
        hand_act(table=table, player=who, hand_id=hand.pk, version=table.version, action=move)
        wrote = time.process_time()
        snapshot = load_snapshot(table.pk, snapshot)
        assert snapshot is not None
        loaded = time.process_time()
        if profile is not None:
            profile.enable()
        frames(snapshot)
        if profile is not None:
            profile.disable()
        spent["write"] += wrote - start
        spent["snapshot"] += loaded - wrote
        spent["frames"] += time.process_time() - loaded
        actions += 1
    total = sum(spent.values())
    parts = ", ".join(f"{name} {1000 * cpu / actions:.2f}" for name, cpu in spent.items())
    in_all = 1000 * total / actions
    print(f"{ROOT}: {actions} actions, CPU ms per action: {parts}; in all {in_all:.2f}")
    if profile is not None:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(30)


if __name__ == "__main__":
    main()
