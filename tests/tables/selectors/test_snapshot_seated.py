"""The version a table's runtime builds after a socket's ``take_seat`` (``snapshot_after_seat``,
from what the write noted) is exactly what a whole read of the table gives, down to the
frames every viewer gets, for each kind of sit-down; a refused one changes nothing."""

from __future__ import annotations

import functools
import json
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tables.live.frames import SocketFrames
from tables.live.runtime import Written, written_and_read
from tables.models import LedgerEntry, Player, Seat, Table
from tables.operations import run_op
from tables.selectors.snapshot import Snapshot, load_snapshot
from tables.selectors.snapshot_seated import snapshot_after_seat
from tables.services import hand_act, seat_leave, seat_take
from tables.services.clock import clock_tick
from tables.services.errors import ServiceError
from tables.services.events import lease_fenced
from tables.services.hosting import table_create
from tables.services.leases import PROCESS, lease_take
from tables.text import BadFrame
from tests.tables.selectors.test_snapshot_made import assert_same

pytestmark = pytest.mark.django_db(transaction=True)  # the writes publish on commit


def without_clock(data: Any) -> Any:
    """A frame's JSON but for the seconds left on its clocks (counted from now), whole or in
    a patch (``[path, value]``)."""
    if isinstance(data, dict):
        return {k: None if "seconds" in k else without_clock(v) for k, v in data.items()}
    if isinstance(data, list):
        if len(data) == 2 and isinstance(data[0], str) and "seconds" in data[0]:
            return [data[0], None]
        return [without_clock(item) for item in data]
    return data


class Viewers:
    """Each viewer's sockets of every kind, holding the version before the sit-down."""

    KINDS = ("page", "diff", "json")

    def __init__(self, viewers: list[Player | None], before: Snapshot) -> None:
        self.viewers = viewers
        self.sockets = [(viewer, SocketFrames(kind)) for viewer in viewers for kind in self.KINDS]
        self.frames(before)

    def frames(self, snapshot: Snapshot, fresh: bool = False) -> list[Any]:
        """The frame each socket gets of ``snapshot`` (``fresh``: a new socket's, the first)."""
        out = []
        for viewer, socket in self.sockets:
            if fresh:
                socket = SocketFrames(socket.kind)
            seated = viewer is not None and snapshot.seat_of(viewer.pk) is not None
            bankroll = None
            if viewer is not None and not seated:
                bankroll = Player.objects.get(pk=viewer.pk).bankroll
            frame = socket.next_frame(snapshot, viewer, bankroll)
            out.append(without_clock(json.loads(frame)) if socket.kind != "page" else frame)
        return out


class Runtime:
    """A table's runtime as far as its writes go: each command in its lease's transaction,
    the table after it built or read in the same trip."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.epoch = lease_take(table.pk, PROCESS, "test") or 0
        self.snapshot = load_snapshot(table.pk)
        self.now = timezone.now()

    def trip(self, work: Any) -> Written[Any]:
        fenced = functools.partial(lease_fenced, self.table.pk, PROCESS, self.epoch, work)
        written = written_and_read(self.table.pk, fenced, self.snapshot, None)
        if written.version:
            self.snapshot = written.snapshot or load_snapshot(self.table.pk)
        return written

    def command(self, player: Player, data: dict[str, Any]) -> Written[str]:
        op = functools.partial(
            run_op, table_id=self.table.pk, user=player.user, data=data, player=player
        )
        return self.trip(op)

    def deal(self) -> None:
        for _ in range(10):
            self.now += timedelta(minutes=1)
            self.trip(functools.partial(clock_tick, table=self.table.pk, now=self.now))
            if self.snapshot is not None and self.snapshot.running:
                return
        raise AssertionError("no deal")

    def fold_to_the_end(self, by_id: dict[int, Player]) -> None:
        """The running hand played out: everyone folds to the last one (not through here)."""
        snapshot = self.snapshot
        assert snapshot is not None and snapshot.running
        while snapshot.running:
            state, hand = snapshot.state, snapshot.hand
            assert state is not None and hand is not None and state.actor is not None
            who = by_id[hand.seats[state.actor]["player_id"]]
            move = {"kind": "fold" if state.legal.fold else "check", "amount": None}
            hand_act(table=self.table.pk, player=who, hand_id=hand.pk, version=snapshot.version,
                     action=move)  # fmt: skip
            snapshot = load_snapshot(self.table.pk)
            assert snapshot is not None
        self.snapshot = snapshot


def sit_and_compare(runtime: Runtime, viewers: list[Player | None], player: Player,
                    data: dict[str, Any]) -> Written[str]:  # fmt: skip
    """``player``'s ``take_seat`` (``data``) through the runtime: built, not read, and what a
    read gives, to every frame."""
    before = runtime.snapshot
    assert before is not None
    sockets, again = Viewers(viewers, before), Viewers(viewers, before)
    with CaptureQueriesContext(connection) as queries:
        written = runtime.command(player, {"op": "take_seat", **data})
    assert written.version == before.version + 1
    assert not written.read and written.snapshot is not None
    # nothing read after the commit: the last statements are the write's
    assert not any(q["sql"].startswith("SELECT") for q in queries.captured_queries[-2:])
    read = load_snapshot(runtime.table.pk)
    assert read is not None
    assert_same(written.snapshot, read)
    assert sockets.frames(written.snapshot, fresh=True) == sockets.frames(read, fresh=True)
    assert sockets.frames(written.snapshot) == again.frames(read)
    return written


@pytest.fixture
def seated(make_table, make_player):
    """A table with three players seated (and their runtime), and a newcomer."""
    table = make_table(max_seats=6)
    players = [make_player(f"seated{n}") for n in range(3)]
    for player in players:
        seat_take(table=table, player=player, buy_in=100)
    return table, players, make_player("newcomer")


@pytest.mark.parametrize(
    "data",
    [{"buy_in": 100}, {"buy_in": 150, "seat": 6}, {"buy_in": 100, "post_now": 1}],
    ids=["free seat", "chosen seat", "post now"],
)
@pytest.mark.parametrize("when", ["before the first hand", "during a hand", "between hands"])
def test_a_sit_down_builds_what_a_read_gives(seated, data, when):
    table, players, newcomer = seated
    runtime = Runtime(table)
    if when != "before the first hand":
        runtime.deal()
    if when == "between hands":
        runtime.fold_to_the_end({player.pk: player for player in players})
    written = sit_and_compare(runtime, [None, newcomer, *players], newcomer, data)
    seat = Seat.objects.get(player=newcomer)
    assert written.snapshot is not None
    row = written.snapshot.seat_of(newcomer.pk)
    assert row is not None and row.number == seat.number and row.stack == data["buy_in"]
    if "seat" in data:
        assert seat.number == data["seat"] - 1
    going = when != "before the first hand"
    assert row.waiting_for_big_blind == (going and "post_now" not in data)
    assert seat.owes_blinds == (Seat.Owes.BIG if going and "post_now" in data else "")
    assert written.result.startswith("You sat down")


def test_a_bot_account_and_a_mixed_game_build_what_a_read_gives(make_table, make_player):
    # The badge comes from the player's row as the sit-down locked it, not from the socket's
    # copy; a rotation's next game counts the players seated.
    table = make_table(name="Horse", game="horse", small_bet=4, ante=1, bring_in=1)
    assert not table.rotation_hands  # a round of each game: as many hands as players
    players = [make_player(f"horse{n}") for n in range(2)]
    for player in players:
        seat_take(table=table, player=player, buy_in=table.effective_min_buy_in)
    runtime = Runtime(table)
    runtime.deal()  # the rotation under way: its hands go round the players
    newcomer = make_player("programmer")
    Player.objects.filter(pk=newcomer.pk).update(bot_account=True)  # since the socket opened
    written = sit_and_compare(
        runtime, [None, *players], newcomer, {"buy_in": table.effective_min_buy_in}
    )
    assert written.snapshot is not None
    row = written.snapshot.seat_of(newcomer.pk)
    assert row is not None and row.player.is_bot and not row.player.croupier_bot
    assert runtime.snapshot is not None and runtime.snapshot.facts.next_game is not None


def test_a_request_to_the_host_and_the_hosts_own_seat_build_what_a_read_gives(make_player):
    host, guest = make_player("host"), make_player("guest")
    table = table_create(host=host, name="Ask first", seat_approval=True)
    runtime = Runtime(table)
    asked = sit_and_compare(runtime, [None, host, guest], guest, {"buy_in": 100})
    assert asked.result.startswith("Asked the host")
    assert asked.snapshot is not None and not asked.snapshot.seats  # only the version moved
    sat = sit_and_compare(runtime, [None, host, guest], host, {"buy_in": 100})
    assert sat.result.startswith("You sat down")


def test_only_the_version_before_is_built_on(seated, settings):
    settings.POKER_RESEAT_WAIT_SECONDS = 0
    table, players, newcomer = seated
    runtime = Runtime(table)
    before = runtime.snapshot
    assert before is not None
    written = runtime.command(newcomer, {"op": "take_seat", "buy_in": 100})
    built = written.snapshot
    assert built is not None and not written.read
    row = built.seat_of(newcomer.pk)
    locked = built.table
    assert snapshot_after_seat(before, built.version + 1, locked, row) is None  # skipped one
    assert snapshot_after_seat(built, built.version + 1, locked, row) is None  # row's version
    assert snapshot_after_seat(built, built.version, locked, row) is None
    # the write found the seat free, the version before says it was taken: read instead
    taken = load_snapshot(table.pk)
    assert taken is not None and taken.version == built.version
    moved = Table.objects.get(pk=table.pk)
    moved.version += 1
    assert snapshot_after_seat(taken, moved.version, moved, row) is None
    # a change the runtime did not make in between: its next sit-down is read, not built
    seat_leave(table=table, player=players[0])
    written = runtime.command(players[0], {"op": "take_seat", "buy_in": 100, "seat": 6})
    assert written.read


@pytest.mark.parametrize(
    "data, error",
    [
        ({"buy_in": 100, "seat": 1}, "Seat 1 is taken"),
        ({"buy_in": 100, "seat": 7}, "has seats 1 to 6"),
        ({"buy_in": 1000}, "Buy in for"),
        ({"buy_in": 10**9}, "Buy in for"),
        ({"buy_in": 0}, "at least 1"),
        ({"buy_in": 100, "post_now": "maybe"}, "post_now is 1"),
        ({"buy_in": 100, "seat": 6}, "Not enough chips: your bankroll is 50, this needs 100"),
        ({"buy_in": 100}, "You already have a seat"),
        ({"buy_in": 100}, "moments ago"),
    ],
    ids=[
        "taken",
        "no such seat",
        "over",
        "far over",
        "none",
        "bad post_now",
        "short",
        "seated",
        "too soon",
    ],  # fmt: skip
)
def test_a_refused_sit_down_changes_nothing(
    seated, make_player, settings, data, error, assert_chips_conserved
):
    table, players, newcomer = seated
    settings.POKER_RESEAT_WAIT_SECONDS = 30
    who = newcomer
    if error.startswith("Not enough"):
        settings.POKER_STARTING_GRANT = 50
        who = make_player("short")
    if error.startswith("You already"):
        who = players[0]
    if error == "moments ago":
        seat_leave(table=table, player=players[0])
        who = players[0]
    runtime = Runtime(table)
    runtime.deal()
    before = runtime.snapshot
    assert before is not None
    bankroll = Player.objects.get(pk=who.pk).bankroll
    entries, seats = LedgerEntry.objects.count(), Seat.objects.count()
    with pytest.raises((ServiceError, BadFrame, ValueError), match=error):
        runtime.command(who, {"op": "take_seat", **data})
    assert Table.objects.get(pk=table.pk).version == before.version
    assert Player.objects.get(pk=who.pk).bankroll == bankroll
    assert (LedgerEntry.objects.count(), Seat.objects.count()) == (entries, seats)
    assert_chips_conserved()
    # the runtime goes on: the next sit-down is built on the same version
    written = runtime.command(newcomer, {"op": "take_seat", "buy_in": 100})
    assert not written.read and written.version == before.version + 1
    read = load_snapshot(table.pk)
    assert read is not None and written.snapshot is not None
    assert_same(written.snapshot, read)
    assert_chips_conserved()
