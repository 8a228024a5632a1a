"""A version made in memory after an action builds every viewer's shared screen and JSON state
from the version before (its log's lines, the new events' after them): exactly what a
snapshot without a version before builds whole, at every version of many hands."""

import dataclasses
import functools
import operator
import random
from typing import Any

import pytest

from engine.bots import RandomBot
from tables.live.frames import _shared_json
from tables.models import Hand, Table
from tables.presenters.shared_screen import shared_screen
from tables.selectors.snapshot import Snapshot, load_snapshot, snapshot_after_action
from tables.services import hand_act, hand_start, seat_take
from tables.services.errors import BuyInOutOfRange
from tables.services.events import lease_fenced
from tables.services.leases import PROCESS, lease_take
from tables.services.live_hand import LiveHand

pytestmark = pytest.mark.django_db

GAMES = [
    {"game": "holdem"},
    {"game": "omaha", "betting": "pot-limit"},
    {"game": "stud", "betting": "fixed-limit", "ante": 1, "bring_in": 2, "small_bet": 4},
    {"game": "27-triple-draw", "betting": "fixed-limit"},
]


def whole(snapshot: Snapshot) -> Snapshot:
    """An equal snapshot without a version before: its screens are built whole."""
    out = Snapshot(
        snapshot.table,
        snapshot.seats.values(),
        snapshot.hand,
        list(snapshot.decisions),
        snapshot.recent,
        snapshot.state,
        snapshot.banner,
        snapshot.notices,
        snapshot.seating_closed,
        snapshot.facts,
        snapshot.hand_facts,
    )
    out.street_times = snapshot.street_times
    return out


def timeless(data: dict[str, Any]) -> dict[str, Any]:
    """The shared JSON state but for its clock's seconds left (counted from now)."""
    clock = {**data["state"]["clock"], "seconds_left": None}
    return {**data, "state": {**data["state"], "clock": clock}}


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g["game"])
def test_every_version_equals_its_whole_build(make_table, players, game):
    table = make_table(max_seats=6, **game)
    epoch = lease_take(table.pk, PROCESS, "test") or 0
    rng = random.Random(7)
    extended = kept = 0
    for _ in range(12):  # hands
        seated = set(table.seats.values_list("player_id", flat=True))
        for player in players:
            if player.pk not in seated:  # short stacks: all-ins and run-outs
                now = Table.objects.get(pk=table.pk)
                low, high = now.effective_min_buy_in, now.effective_max_buy_in
                try:
                    seat_take(table=now, player=player, buy_in=rng.choice([low, low, high]))
                except BuyInOutOfRange:  # who left short comes back with as much
                    seat_take(table=now, player=player, buy_in=high)
        hand_start(table=Table.objects.get(pk=table.pk))
        snapshot = load_snapshot(table.pk)
        while snapshot is not None and snapshot.running and snapshot.state is not None:
            shared_screen(snapshot)  # as the frames of its sockets did
            state = snapshot.state
            assert snapshot.hand is not None and state.actor is not None
            live = LiveHand(
                snapshot.version,
                snapshot.hand,
                list(snapshot.decisions),
                state,
                snapshot.table.action_deadline,
            )
            action = RandomBot(rng).decide(state.view(state.actor))
            who = next(p for p in players if p.pk == snapshot.hand.seats[state.actor]["player_id"])
            act = functools.partial(
                hand_act,
                table=table.pk,
                player=who,
                hand_id=snapshot.hand.pk,
                version=live.version,
                action={"kind": str(action.kind), "amount": action.amount, "cards": []},
                live=live,
            )
            lease_fenced(table.pk, PROCESS, epoch, act)
            built = None
            if not live.spent and live.version == snapshot.version + 1:
                built = snapshot_after_action(
                    snapshot, live.version, live.deadline, live.decisions, live.state
                )
            if built is None:
                snapshot = load_snapshot(table.pk)
                continue
            before = shared_screen(snapshot)
            assert built.previous is snapshot and snapshot.previous is None  # one step back
            now = shared_screen(built)
            assert built.previous is None  # dropped once used
            extended += now.log_lines[0] is before.log_lines[0]
            kept += any(map(operator.is_, now.seats.seats, before.seats.seats))
            rebuilt = whole(built)
            assert now == shared_screen(rebuilt)
            assert timeless(_shared_json(built)[0].data) == timeless(_shared_json(rebuilt)[0].data)
            snapshot = built
        assert not Hand.objects.filter(table=table, status=Hand.Status.RUNNING).exists()
    assert extended > 20  # the log went on from the version before
    assert kept > 20  # and a seat as it was is the very panel


def test_a_panel_is_taken_from_the_version_before_only_where_its_inputs_are_the_same(
    make_table, players
):
    """A seat's panel is the version before's where every input of it is the same: a seat row
    that changed (leaving after the hand, its time bank, its stack) while its seat in the
    hand did not makes a new panel, as a whole build does."""
    table = make_table(max_seats=6, time_bank_seconds=30)
    for player in players:
        seat_take(table=Table.objects.get(pk=table.pk), player=player, buy_in=200)
    hand_start(table=Table.objects.get(pk=table.pk))
    first = load_snapshot(table.pk)
    assert first is not None and first.running
    before = shared_screen(first)
    number, row = next(iter(first.seats.items()))
    changes = [
        ({"leave_after_hand": True}, True),
        ({"time_bank": row.time_bank - 5}, True),
        ({"sitting_out": True}, True),
        ({"stack": row.stack + 1}, False),  # the plate shows the engine's while the hand runs
    ]
    for change, shown in changes:
        seats = [dataclasses.replace(s, **change) if s is row else s for s in first.seats.values()]
        later = Snapshot(
            first.table,
            seats,
            first.hand,
            list(first.decisions),
            first.recent,
            first.state,
            first.banner,
            first.notices,
            first.seating_closed,
            first.facts,
            first.hand_facts,
        )
        later.previous = first
        now = shared_screen(later)
        assert now == shared_screen(whole(later)), change
        kept = [old is new for old, new in zip(before.seats.seats, now.seats.seats, strict=True)]
        assert all(kept[n] for n in range(len(kept)) if n != number), change  # the others'
        assert (now.seats.seats[number] != before.seats.seats[number]) is shown, change
