"""Server CPU of one action, in process, split: the write, the snapshot, the frames.

    .venv/bin/python bench/bench_action_cpu.py [--actions 400] [--tables 1] [--seed 1] [--profile]
        [--pre-actions] [--runtime]

Six players at each of ``--tables`` no-limit tables (a fresh SQLite file; the tables take
turns, one action each, as in a busy room, so what a process keeps between two versions of
one table must outlast every other table's versions in between) play random legal actions
through the services (``hand_act``, as the socket's operation does); after each, the
table's snapshot is loaded as the live path loads it (from the previous one) and the frames
of six players' and a spectator's ``frames=diff`` sockets are made. Prints the CPU
milliseconds per action of each step (``time.process_time``; the change's publication is
left out: the server hands it to its event loop). No transport, no clock:
``bench/bench_load.py`` measures the whole
server. It measures the tree it is run from, so run it in two checkouts to compare: the decks
come from seeds fixed by ``--seed``, so both play the same hands. ``--pre-actions``: before
each action every other player in the hand ticks a choice to act in advance (issue 50; the
ticking is its own request, not timed), which the server takes within the actions timed; it
also prints the CPU per decision (each action's and those taken in advance).
``--bots``: the six players are the croupier's bots, and each action is the clock's tick
(``clock_tick``, the bot's decision timed apart) in the runtime's trip, on the hand the runtime
holds in memory (with ``--clock-reads``: given no hand, so the tick reads and replays the hand
and the version after it is read, as the clock did before it acted on the runtime's hand).
``--runtime``: as a table's runtime does it (``tables.live.runtime``): each action on the
engine hand held in memory (``LiveHand``: no read, no replay), in the transaction that renews
the table's lease (``lease_fenced``), and the next version built or read after it as the
runtime does, in the same trip (``written_and_read``: the write is timed up to its commit,
the snapshot from there); each deal is the croupier's clock tick (``clock_tick``) in the same
kind of trip, timed apart and printed as its own figure (per deal, and spread over the
actions), the players who went bust having bought in again first (unmeasured: a change the
runtime reads). Without it, each action is the REST call's (the hand read and replayed),
each version is read and the deals (``hand_start``) are not timed.
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import itertools
import os
import pstats
import random
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

# BENCH_TREE: measure another checkout's code with this script (one whose copy lacks a figure).
ROOT = Path(os.environ.get("BENCH_TREE") or Path(__file__).resolve().parents[1])
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--tables", type=int, default=1, help="tables taking turns (each six players)"
    )
    parser.add_argument("--profile", action="store_true", help="profile the frames")
    parser.add_argument(
        "--pre-actions",
        action="store_true",
        help="before each action every other player in the hand ticks a choice in advance "
        "(not timed: its own request); the server takes them within the actions timed",
    )
    parser.add_argument(
        "--runtime",
        action="store_true",
        help="act on the hand in memory and build the next version from it, as a table's "
        "runtime does",
    )
    parser.add_argument(
        "--bots",
        action="store_true",
        help="bots play, each action the clock's tick in the runtime's trip (implies --runtime)",
    )
    parser.add_argument(
        "--clock-reads",
        action="store_true",
        help="with --bots: the tick given no hand in memory (it reads and replays the hand)",
    )
    args = parser.parse_args()
    args.runtime = args.runtime or args.bots
    with tempfile.TemporaryDirectory() as folder:
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
        os.environ["POKER_CROUPIER"] = "0"
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokersite.settings")
        run(args)


class Room:
    """One table of the benchmark: its six players, their sockets and a spectator's, and the
    snapshot the live path holds."""

    def __init__(self, table: Any, players: list[Any], sockets: list[tuple[Any, Any]]) -> None:
        self.table, self.players, self.sockets = table, players, sockets
        self.by_id = {player.pk: player for player in players}
        self.snapshot: Any = None
        self.live: Any = None  # --runtime: the hand in memory (``LiveHand``)
        self.epoch = 0  # --runtime: the table's lease


def run(args: argparse.Namespace) -> None:
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from django.conf import settings

    # Six accounts a table: a slow password hash would make the set-up the longest part.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    import tables.services.events as events
    import tables.services.hands as hands_service
    from engine.bots import RandomBot
    from engine.pre_actions import offers
    from tables.live.frames import SocketFrames
    from tables.live.runtime import written_and_read
    from tables.models import Hand, HandAction, Seat, Table
    from tables.selectors.hands import hand_state
    from tables.selectors.snapshot import load_snapshot
    from tables.services import (
        hand_act,
        hand_start,
        player_grant,
        player_sign_up,
        pre_action_set,
        seat_take,
        table_save,
    )
    from tables.services.clock import clock_tick
    from tables.services.events import lease_fenced
    from tables.services.leases import PROCESS, lease_take, leases_renew
    from tables.services.live_hand import held_hand

    def publish_runtime_writes(event: dict[str, Any], group: str = "") -> None:
        """A runtime's write publishes into its outbox (how ``written_and_read`` learns the
        new version); every other write, nowhere."""
        waiting = events.outbox.get()
        if waiting is not None:
            waiting.append(event)

    events._publish = publish_runtime_writes  # type: ignore[assignment]
    # decks from fixed seeds: two checkouts measured play the same hands
    dealt = itertools.count(1)
    hands_service.new_seed = lambda: f"{args.seed:032x}{next(dealt):032x}"  # type: ignore[assignment]
    rng = random.Random(args.seed)
    spent = {"write": 0.0, "snapshot": 0.0, "frames": 0.0}
    thinking = [0.0]  # --bots: the bots' decisions, apart from the tick's write
    if args.bots:
        import tables.services.clock as clock_service
        from tables.services import hooks

        class TimedBot(clock_service.SensibleBot):
            def decide(self, view: Any) -> Any:
                start = time.process_time()
                try:
                    return super().decide(view)
                finally:
                    thinking[0] += time.process_time() - start

        clock_service.SensibleBot = TimedBot  # type: ignore[misc]
        # bots deal among themselves, as at a tournament's table
        hooks.register(hooks.table_rules, lambda table, now: hooks.TableRules(bots_alone=True))
    deals, dealt_cpu = 0, 0.0  # --runtime: the clock's deals
    clock = datetime.now(UTC)  # --runtime: the clock's time, moved past every pause
    profile = cProfile.Profile() if args.profile else None
    rooms = []
    for number in range(args.tables):
        table = table_save(table=Table(name=f"Bench {number}", max_seats=6))
        players = [
            player_sign_up(username=f"p{number}-{n}", password="pw-Bench-Secret1") for n in range(6)
        ]
        for player in players:
            player_grant(player=player, amount=10**7, reason="bench")
            if args.bots:
                player.is_bot = True
                player.save(update_fields=["is_bot"])
        # six players' sockets and a spectator's
        sockets = [(player, SocketFrames("diff")) for player in [*players, None]]
        rooms.append(Room(table, players, sockets))

    def hold(room: Room) -> None:
        """The table's lease taken or renewed (unmeasured, at each deal)."""
        if args.runtime:
            room.epoch = lease_take(room.table.pk, PROCESS, f"bench-{room.table.pk}") or 0

    renewed = [time.monotonic()]

    def keep_up() -> None:
        """The leases held renewed, unmeasured, as a runtime's clock renews them every second
        (an action checks its lease without renewing it): a slow set-up or a loaded machine
        never lets one lapse between two actions."""
        if args.runtime and time.monotonic() - renewed[0] > 0.5:
            leases_renew([room.table.pk for room in rooms if room.epoch], PROCESS)
            renewed[0] = time.monotonic()

    def read(room: Room) -> None:
        """The table read (the runtime's ``_read``), and its hand held in memory."""
        room.snapshot = snapshot = load_snapshot(room.table.pk, room.snapshot)
        room.live = held_hand(snapshot) if args.runtime else None

    def show(room: Room, snapshot: Any, live: Any) -> None:
        """What the runtime holds after one of its writes: the version built or read, and its
        hand in memory (the one acted on, where that hand goes on)."""
        if snapshot is None:  # the read failed: the next change shows it
            read(room)
            return
        room.snapshot = snapshot
        going_on = (
            live is not None
            and snapshot.running
            and not live.spent
            and live.version == snapshot.version
            and live.hand.pk == snapshot.hand.pk
        )
        if not going_on:
            room.live = held_hand(snapshot)

    def deal(room: Room) -> None:
        """The clock's ticks until it deals (a run-out's streets first, unmeasured), the deal
        timed: the tick and the table after it, in one trip as the runtime makes it."""
        nonlocal deals, dealt_cpu, clock
        for _ in range(20):
            clock = max(datetime.now(UTC), clock) + timedelta(seconds=6)
            tick = functools.partial(clock_tick, table=room.table.pk, now=clock, skip_busy=True)
            fenced = functools.partial(lease_fenced, room.table.pk, PROCESS, room.epoch, tick)
            start = time.process_time()
            written = written_and_read(room.table.pk, fenced, room.snapshot, None)
            took = time.process_time() - start
            if written.version:
                show(room, written.snapshot, None)
            if written.result == "started":
                deals += 1
                dealt_cpu += took
                return
        raise AssertionError(f"no deal at table {room.table.pk}")

    marks = {"committed": 0.0}

    def until_commit(marks: dict[str, float], work: Any) -> Any:
        """``work`` (which commits before it returns), noting when it returned."""
        try:
            return work()
        finally:
            marks["committed"] = time.process_time()

    def frames(room: Room) -> None:
        for player, socket in room.sockets:
            seated = player is None or room.snapshot.seat_of(player.pk) is not None
            socket.next_frame(room.snapshot, player, None if seated else 1000)

    def seat_pre_action(player: Any, table: Any) -> str | None:
        return (
            Seat.objects.filter(table=table, player=player)
            .values_list("pre_action", flat=True)
            .first()
            or None
        )

    actions = decisions = 0
    while actions < args.actions:
        room = rooms[actions % len(rooms)]  # the tables take turns, as in a busy room
        keep_up()
        table = Table.objects.get(pk=room.table.pk)
        hand = table.hands.filter(status=Hand.Status.RUNNING).first()
        if hand is None:  # whoever went bust buys in again
            seated = set(table.seats.values_list("player_id", flat=True))
            bought = [player for player in room.players if player.pk not in seated]
            for player in bought:
                seat_take(table=table, player=player, buy_in=200)
            if args.runtime:
                hold(room)
                if bought or room.snapshot is None:  # a change it did not make: read
                    read(room)
                deal(room)
            else:
                hand_start(table=Table.objects.get(pk=table.pk))
                read(room)
            frames(room)
            continue
        state = hand_state(hand)
        assert state.actor is not None and not state.runs_due  # no run twice at this table
        if args.pre_actions:
            for index, seat in enumerate(hand.seats):
                choices = offers(state, index)
                ticked = room.by_id[seat["player_id"]]
                if choices and seat_pre_action(ticked, table) is None:
                    pick = rng.choice(choices)
                    pre_action_set(table=table, player=ticked, kind=pick.kind, amount=pick.amount)
            table = Table.objects.get(pk=room.table.pk)
        logged = HandAction.objects.filter(hand=hand).count()
        action = RandomBot(rng).decide(state.view(state.actor))
        who = room.by_id[hand.seats[state.actor]["player_id"]]
        move: dict[str, Any] = {"kind": str(action.kind), "amount": action.amount, "cards": []}
        live, before = room.live, room.snapshot
        start = time.process_time()
        if args.bots:  # the clock's tick, after the bot's thinking time
            thought = thinking[0]
            turn = room.snapshot.table.action_deadline
            clock = max(clock, turn)
            held = None if args.clock_reads else live
            given = {} if held is None else {"live": held}  # (a checkout before ``live``)
            tick = functools.partial(clock_tick, table=table.pk, now=clock, skip_busy=True, **given)
            fenced = functools.partial(lease_fenced, table.pk, PROCESS, room.epoch, tick)
            write = functools.partial(until_commit, marks, fenced)
            written = written_and_read(table.pk, write, before, held)
            assert written.result == "bot", written.result
            wrote = marks["committed"]
            start += thinking[0] - thought  # the bot's thinking is not the server's path
            show(room, written.snapshot, held)
        elif live is None:
            hand_act(table=table, player=who, hand_id=hand.pk, version=table.version, action=move)
            wrote = time.process_time()
            read(room)
        else:
            act = functools.partial(
                hand_act,
                table=table.pk,
                player=who,
                hand_id=hand.pk,
                version=live.version,
                action=move,
                live=live,
            )
            fenced = functools.partial(lease_fenced, table.pk, PROCESS, room.epoch, act)
            write = functools.partial(until_commit, marks, fenced)
            written = written_and_read(table.pk, write, before, live)
            wrote = marks["committed"]
            show(room, written.snapshot, live)
        loaded = time.process_time()
        if profile is not None:
            profile.enable()
        frames(room)
        if profile is not None:
            profile.disable()
        decisions += HandAction.objects.filter(hand=hand).count() - logged
        spent["write"] += wrote - start
        spent["snapshot"] += loaded - wrote
        spent["frames"] += time.process_time() - loaded
        actions += 1
    total = sum(spent.values())
    parts = ", ".join(f"{name} {1000 * cpu / actions:.2f}" for name, cpu in spent.items())
    in_all = 1000 * total / actions
    head = f"{ROOT}: {args.tables} tables, {actions} actions"
    if args.pre_actions:
        head += f" ({decisions} decisions: each action's and the choices ticked in advance)"
    if args.bots:
        head += " by bots" + (
            " (the clock given no hand: read and replayed)" if args.clock_reads else ""
        )
    print(f"{head}, CPU ms per action: {parts}; in all {in_all:.2f}")
    if args.bots:
        print(f"the bots' decisions (not counted above): {1000 * thinking[0] / actions:.2f}")
    if args.pre_actions:
        print(f"in all per decision: {1000 * total / decisions:.2f}")
    if deals:
        print(
            f"{deals} deals (the clock's tick and the table after it), CPU ms per deal: "
            f"{1000 * dealt_cpu / deals:.2f}; spread over the actions: "
            f"{1000 * dealt_cpu / actions:.2f}"
        )
    if profile is not None:
        pstats.Stats(profile).sort_stats(os.environ.get("BENCH_SORT", "cumulative")).print_stats(30)


if __name__ == "__main__":
    main()
