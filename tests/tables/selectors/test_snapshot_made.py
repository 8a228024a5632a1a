"""The version a table's runtime builds after a deal or a hand's end, from what its write made
(``snapshot_after_hand``), is exactly what a whole read of the table gives, over many seeded
hands of several games: short stacks (players busting out), all-ins and their run-outs."""

import functools
import random
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from engine.bots import RandomBot
from tables.live.written import Written, held_hand, written_and_read
from tables.models import Hand, Table
from tables.operations import run_op
from tables.selectors.snapshot import Snapshot, load_snapshot
from tables.services import seat_take
from tables.services.clock import clock_tick
from tables.services.errors import BuyInOutOfRange
from tables.services.hands import LiveHand
from tables.services.leases import PROCESS, lease_fenced, lease_take

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
            state = snapshot.state
            decided = RandomBot(rng).decide(state.view(state.actor))
            who = by_id[snapshot.hand.seats[state.actor]["player_id"]]
            data = {
                "op": "act",
                "hand": snapshot.hand.pk,
                "version": snapshot.version,
                "kind": str(decided.kind),
                "amount": decided.amount,
            }
            request = functools.partial(
                run_op, table_id=table.pk, user=who.user, data=data, player=who, live=live
            )
            after = written(request, live)
            snapshot = after.snapshot
            assert snapshot is not None
            if not snapshot.running:
                assert not after.read and not after.same_hand  # built from the hand's end
                assert_same(snapshot, load_snapshot(table.pk))
                built["end"] += 1
    assert built == {"deal": 10, "end": 10}
    assert Hand.objects.filter(table=table, status=Hand.Status.FINISHED).count() == 10
