"""The version a table's runtime builds after a deal or a hand's end, from what its write made
(``snapshot_after_hand``), is exactly what a whole read of the table gives, over many seeded
hands of several games: short stacks (players busting out), all-ins and their run-outs."""

import functools
import json
import random
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from engine.bots import RandomBot
from tables.live.frames import SocketFrames
from tables.live.runtime import Written, written_and_read
from tables.models import BroadcastConsent, Hand, Table
from tables.selectors.snapshot import Snapshot, load_snapshot
from tables.selectors.snapshot_made import snapshot_after_street
from tables.services import seat_take
from tables.services.clock import clock_tick
from tables.services.errors import BuyInOutOfRange
from tables.services.events import lease_fenced
from tables.services.leases import PROCESS, lease_take, leases_renew
from tables.services.live_hand import LiveHand, held_hand
from tests.tables.helpers import act_request, bot_act_request

pytestmark = pytest.mark.django_db(transaction=True)  # the writes publish on commit

GAMES = [
    {"game": "holdem"},
    {"game": "omaha", "betting": "pot-limit"},
    {"game": "stud", "betting": "fixed-limit", "ante": 1, "bring_in": 2, "small_bet": 4},
    {"game": "27-triple-draw", "betting": "fixed-limit"},
]


def columns(row: Any) -> dict[str, Any]:
    values = {field.attname: getattr(row, field.attname) for field in row._meta.concrete_fields}
    if hasattr(row, "secret_deck"):
        values["secret_deck"] = row.secret_deck
    return values


def assert_same(built: Snapshot, read: Snapshot) -> None:
    assert built.version == read.version
    assert columns(built.table) == columns(read.table)
    assert built.seats == read.seats
    assert (built.hand is None) == (read.hand is None)
    if read.hand is not None:
        assert columns(built.hand) == columns(read.hand)
    assert built.decisions == read.decisions
    assert built.recent == read.recent
    assert built.notices == read.notices
    assert built.banner == read.banner
    assert built.seating_closed == read.seating_closed
    assert built.facts == read.facts
    assert built.hand_facts == read.hand_facts
    assert built.running == read.running
    assert built.street_times == read.street_times
    if read.hand is not None:
        for index in [None, *range(len(read.hand.seats))]:
            assert built.view_dict(index) == read.view_dict(index)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g["game"])
def test_a_deal_and_a_hands_end_build_what_a_read_gives(make_table, make_player, game):
    table = make_table(max_seats=6, **game)
    players = [make_player(f"made{n}") for n in range(5)]
    by_id = {player.pk: player for player in players}
    epoch = lease_take(table.pk, PROCESS, "test") or 0
    rng = random.Random(11)
    now = timezone.now()
    snapshot: Snapshot | None = load_snapshot(table.pk)
    built = {"deal": 0, "end": 0}

    def written(work: Any, live: LiveHand | None) -> Written[Any]:
        leases_renew([table.pk], PROCESS)  # as the runtime's clock does: a slow run keeps it
        fenced = functools.partial(lease_fenced, table.pk, PROCESS, epoch, work)
        return written_and_read(table.pk, fenced, snapshot, live)

    for _ in range(10):  # hands
        row = Table.objects.get(pk=table.pk)
        seated = set(row.seats.values_list("player_id", flat=True))
        for player in players:
            if player.pk not in seated:  # short stacks: all-ins, run-outs, busts
                low, high = row.effective_min_buy_in, row.effective_max_buy_in
                try:
                    seat_take(table=row, player=player, buy_in=rng.choice([low, low, high]))
                except BuyInOutOfRange:
                    seat_take(table=row, player=player, buy_in=high)
                row = Table.objects.get(pk=table.pk)
        snapshot = load_snapshot(table.pk)  # the runtime reads a change it did not make
        for _ in range(20):  # a run-out's streets, each at its time, then the deal
            now += timedelta(minutes=1)
            tick = functools.partial(clock_tick, table=table.pk, now=now)
            after = written(tick, None)
            if after.version:
                snapshot = after.snapshot
            if after.result == "started":
                break
        assert after.result == "started" and snapshot is not None
        assert not after.read  # built from the deal
        assert_same(snapshot, load_snapshot(table.pk))
        built["deal"] += 1
        live = held_hand(snapshot)
        while snapshot.running:
            request = bot_act_request(snapshot, rng, by_id, live)
            after = written(request, live)
            snapshot = after.snapshot
            assert snapshot is not None
            if not snapshot.running:
                assert not after.read and not after.same_hand  # built from the hand's end
                assert_same(snapshot, load_snapshot(table.pk))
                built["end"] += 1
    assert built == {"deal": 10, "end": 10}
    assert Hand.objects.filter(table=table, status=Hand.Status.FINISHED).count() == 10


STREET_GAMES = {
    "holdem": {},
    "holdem-twice": {"run_it_twice": True},
    "omaha": {"game": "omaha", "betting": "pot-limit"},
    # hole cards shown to spectators minutes later: the streets' times go on
    "holdem-broadcast": {"broadcast": "minutes"},
}


def without_clock(data: Any) -> Any:
    """A frame's JSON but for the seconds left on its clocks (counted from now)."""
    if isinstance(data, dict):
        return {k: None if "seconds" in k else without_clock(v) for k, v in data.items()}
    if isinstance(data, list):
        return [without_clock(item) for item in data]
    return data


def frames(snapshot: Snapshot, viewers: list[Any]) -> list[Any]:
    """The first frame each viewer's socket (a page's, a JSON one's) would get of it."""
    out = []
    for viewer in viewers:
        seated = viewer is not None and snapshot.seat_of(viewer.pk) is not None
        bankroll = None if viewer is None or seated else viewer.bankroll
        for kind in ("page", "diff"):
            frame = SocketFrames(kind).next_frame(snapshot, viewer, bankroll)
            out.append(without_clock(json.loads(frame)) if kind == "diff" else frame)
    return out


@pytest.mark.parametrize("game", STREET_GAMES)
def test_a_runouts_streets_build_what_a_read_gives(make_table, make_player, settings, game):
    # Every street of a run-out, shown by the clock one after the other, is built from the
    # version before (nothing read after the street's write): what a read gives, to the frames
    # every viewer gets.
    settings.POKER_RUNOUT_PAUSE_SECONDS = 1.5
    options = dict(STREET_GAMES[game])
    broadcast = options.pop("broadcast", None)
    table = make_table(max_seats=6, **options)
    players = [make_player(f"street{n}") for n in range(4)]
    if broadcast is not None:
        Table.objects.filter(pk=table.pk).update(broadcast_proposed=True, broadcast_delay=broadcast)
        for player in players:
            BroadcastConsent.objects.create(table=table, player=player)
    watcher = make_player("watcher")
    viewers = [None, watcher, *players]
    by_id = {player.pk: player for player in players}
    epoch = lease_take(table.pk, PROCESS, "test") or 0
    rng = random.Random(5)
    now = timezone.now()
    snapshot: Snapshot | None = None
    streets = runs = 0
    marks: list[int] = []

    def written(work: Any, live: LiveHand | None) -> tuple[Written[Any], int]:
        """The write and the table after it, and how many statements ran after its commit."""

        def marked() -> Any:
            out = lease_fenced(table.pk, PROCESS, epoch, work)
            marks.append(len(queries.captured_queries))  # committed: what follows is a read
            return out

        leases_renew([table.pk], PROCESS)  # as the runtime's clock does: a slow run keeps it
        marks.clear()
        with CaptureQueriesContext(connection) as queries:
            after = written_and_read(table.pk, marked, snapshot, live)
        return after, len(queries.captured_queries) - marks[0]

    for _ in range(16):  # hands
        row = Table.objects.get(pk=table.pk)
        seated = set(row.seats.values_list("player_id", flat=True))
        for player in players:
            if player.pk not in seated:  # short stacks: all-ins and their run-outs
                seat_take(table=row, player=player, buy_in=row.effective_min_buy_in)
                row = Table.objects.get(pk=table.pk)
        snapshot = load_snapshot(table.pk)  # the runtime reads a change it did not make
        for _ in range(20):  # a run-out's streets, each at its time, then the deal
            now += timedelta(minutes=1)
            before = snapshot
            after, reads = written(functools.partial(clock_tick, table=table.pk, now=now), None)
            if after.version:
                snapshot = after.snapshot
            if after.result == "runout":
                assert snapshot is not None and not after.read
                assert reads == 0  # built: nothing read after the street's commit
                read = load_snapshot(table.pk)
                assert read is not None and read.hand is not None and before is not None
                assert_same(snapshot, read)
                # not from a version that is not the one before the street: read instead
                street = (read.hand.runout, read.table.next_hand_at)
                assert (
                    snapshot_after_street(before, read.version + 1, read.hand.pk, *street) is None
                )
                assert (
                    snapshot_after_street(before, read.version, read.hand.pk + 1, *street) is None
                )
                assert snapshot_after_street(read, read.version + 1, read.hand.pk, *street) is None
                assert frames(snapshot, viewers) == frames(read, viewers)
                streets += 1
                assert snapshot.hand is not None and snapshot.hand.runout is not None
                runs = max(runs, len(snapshot.hand.runout["runs"]))
            if after.result == "started":
                break
        assert after.result == "started" and snapshot is not None
        if broadcast is not None:
            assert snapshot.hand is not None and snapshot.hand.broadcast.startswith("m")
        live = held_hand(snapshot)
        while snapshot.running:
            state = snapshot.state
            assert snapshot.hand is not None and state is not None
            if state.runs_due:  # run it twice: each live hand answers
                answers = snapshot.hand.run_answers or {}
                seat = next(
                    s for s in range(state.seats) if not state.folded[s] and str(s) not in answers
                )
                kind, amount = "run_twice", 0
            else:
                seat = state.actor
                decided = RandomBot(rng).decide(state.view(seat))
                kind, amount = str(decided.kind), decided.amount
            who = by_id[snapshot.hand.seats[seat]["player_id"]]
            data = {
                "op": "act",
                "hand": snapshot.hand.pk,
                "version": snapshot.version,
                "kind": kind,
                "amount": amount,
            }
            request = act_request(table.pk, who, data, live)
            after, _ = written(request, live)
            snapshot = after.snapshot
            assert snapshot is not None
            live = live if after.same_hand else held_hand(snapshot)
    assert streets >= 4
    if game == "holdem-twice":
        assert runs == 2
