"""A run-out's odds computed by its table's runtime (``tables.croupier.RunoutOdds``) from the hand
it holds: the version after their store is built from the one before (nothing read back) and
is what a read gives to every viewer; the odds stored are the croupier's for the same hand;
the croupier leaves alone a hand the runtime computes and still fills one it did not. The
decks are fixed (``fixed_deck_seeds``); every wait is bounded."""

from __future__ import annotations

import asyncio
import functools
import threading
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext

from engine.runout import runout_odds
from tables import croupier as runtime_odds
from tables.croupier import (
    Croupier,
    RunoutOdds,
    allin_ev_compute,
    odds_under_way,
    runout_odds_compute,
)
from tables.live.runtime import TableRuntime, Written, written_and_read
from tables.models import Hand, Player, PlayerHand, Table
from tables.selectors.snapshot import Snapshot, load_snapshot
from tables.services import hand_start, seat_take
from tables.services.events import lease_fenced
from tables.services.leases import PROCESS, lease_take
from tables.services.live_hand import LiveHand, held_hand
from tables.services.runouts import hands_awaiting_odds, runout_odds_work
from tests.tables.helpers import act_request, actor, current_hand, fresh
from tests.tables.selectors.test_snapshot_made import assert_same, frames
from tests.tables.wsclient import communicator, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

BOUND = 60  # seconds: every wait on another thread is bounded (a hang fails, never blocks)

#: (table options, players all in)
GAMES: dict[str, tuple[dict[str, Any], int]] = {
    "holdem": ({}, 2),
    "holdem-twice": ({"run_it_twice": True}, 2),
    "omaha-hilo": ({"game": "omaha-hilo", "betting": "pot-limit"}, 2),
    "three-way": ({}, 3),  # three stacks: a side pot
}


@pytest.fixture(autouse=True)
def paced(settings):
    settings.POKER_CROUPIER = False
    settings.POKER_RUNOUT_PAUSE_SECONDS = 1.5


def _seated(make_table, make_player, options: dict[str, Any], count: int) -> Table:
    table = make_table(max_seats=6, **options)
    for n in range(count):
        row = fresh(table)
        low, high = row.effective_min_buy_in, row.effective_max_buy_in
        buy_in = (low, high, (low + high) // 2)[n]
        seat_take(table=row, player=make_player(f"odds{n}"), buy_in=buy_in)
    make_player("watcher")
    hand_start(table=fresh(table))
    return fresh(table)


def _decision(snapshot: Snapshot) -> tuple[int, str, int]:
    """The next decision toward the all-in: raise as far as allowed, else call; run it twice."""
    state = snapshot.state
    assert snapshot.hand is not None and state is not None
    if state.runs_due:
        answers = snapshot.hand.run_answers or {}
        seat = next(s for s in range(state.seats) if not state.folded[s] and str(s) not in answers)
        return seat, "run_twice", 0
    legal = state.legal
    assert state.actor is not None and legal is not None
    if legal.max_raise_to is not None:
        return state.actor, "raise", legal.max_raise_to
    return state.actor, "check" if legal.check else "call", 0


def _viewers(snapshot: Snapshot) -> list[Any]:
    """A spectator, a watcher signed in, and every player seated."""
    seated = [seat.player_id for seat in snapshot.seats.values()]
    watcher = Player.objects.exclude(pk__in=seated).first()
    return [None, watcher, *Player.objects.filter(pk__in=seated).order_by("pk")]


def _the_croupiers(hand_id: int) -> tuple[Any, dict[int, float] | None]:
    """What the croupier's path computes for the hand as stored: read, replayed, computed."""
    work = runout_odds_work(hand_id)
    assert work is not None
    runs = runout_odds_compute(work)
    return runs, allin_ev_compute(work, runs)


def _ev_stored(hand_id: int) -> dict[int, float]:
    rows = PlayerHand.objects.filter(hand_id=hand_id).exclude(ev_net=None)
    return dict(rows.values_list("seat", "ev_net"))


@pytest.mark.parametrize("game", GAMES)
async def test_the_runtimes_odds_build_what_a_read_gives_and_are_the_croupiers(
    make_table, make_player, game
):
    # Acted on as the runtime does (its engine hand in place, each version built or read on
    # the write's thread); at each run-out with unknown chances its odds start from the
    # version it holds and are stored in its turn: built, nothing read after the commit.
    options, count = GAMES[game]
    table = await sync_to_async(_seated)(make_table, make_player, options, count)
    epoch = await sync_to_async(lease_take)(table.pk, PROCESS, "test") or 0
    held: dict[str, Any] = {"snapshot": await sync_to_async(load_snapshot)(table.pk)}
    held["live"] = held_hand(held["snapshot"])
    reads_after_commit: list[int] = []

    def written(work: Any, live: LiveHand | None) -> Written[Any]:
        assert lease_take(table.pk, PROCESS, "test") == epoch  # renewed, as the runtime's clock
        marks: list[int] = []

        def marked() -> Any:
            out = lease_fenced(table.pk, PROCESS, epoch, work)
            marks.append(len(queries.captured_queries))  # committed: what follows is a read
            return out

        with CaptureQueriesContext(connection) as queries:
            after = written_and_read(table.pk, marked, held["snapshot"], live)
        reads_after_commit.append(len(queries.captured_queries) - marks[0])
        return after

    async def in_turn(work: Any, name: str) -> Any:
        assert name == "odds"
        after = await sync_to_async(written)(functools.partial(work, None), None)
        assert after.version and not after.read and reads_after_commit[-1] == 0
        held["snapshot"], held["live"] = after.snapshot, held_hand(after.snapshot)
        return after.result

    async def turn(work: Any) -> None:
        await work()

    odds = RunoutOdds(table.pk, in_turn, turn, lambda: held["snapshot"])
    stored = 0
    while True:
        snapshot = held["snapshot"]
        assert snapshot is not None and snapshot.hand is not None
        if snapshot.hand.odds_pending:
            before = snapshot
            odds.after(snapshot)
            assert odds.task is not None and snapshot.hand.pk in odds_under_way
            await asyncio.wait_for(odds.task, BOUND)
            assert snapshot.hand.pk not in odds_under_way
            built, hand_id = held["snapshot"], snapshot.hand.pk
            assert built.version == before.version + 1 and not built.hand.odds_pending
            read = await sync_to_async(load_snapshot)(table.pk)
            assert_same(built, read)
            viewers = await sync_to_async(_viewers)(read)
            seen = sync_to_async(frames)
            assert await seen(built, viewers) == await seen(read, viewers)
            runs, ev_net = await sync_to_async(_the_croupiers)(hand_id)
            assert read.hand.runout["runs"] == runs  # every street's chances, every run
            if read.hand.status == Hand.Status.FINISHED:
                assert ev_net and await sync_to_async(_ev_stored)(hand_id) == ev_net
            assert hand_id not in dict(await sync_to_async(hands_awaiting_odds)())
            stored += 1
            odds.after(built)  # nothing more to compute
            assert odds.task.done() and hand_id not in odds_under_way
        if not held["snapshot"].running:
            break
        snapshot = held["snapshot"]
        seat, kind, amount = _decision(snapshot)
        who = Player.objects.select_related("user")
        player = await who.aget(pk=snapshot.hand.seats[seat]["player_id"])
        data = {
            "op": "act",
            "hand": snapshot.hand.pk,
            "version": snapshot.version,
            "kind": kind,
            "amount": amount,
        }
        live = held["live"]
        request = act_request(table.pk, player, data, live)
        after = await sync_to_async(written)(request, live)
        assert after.snapshot is not None
        held["snapshot"] = after.snapshot
        held["live"] = live if after.same_hand else held_hand(after.snapshot)
    # run it twice: the question's chances (the hand running), then both runs'
    assert stored == (2 if game == "holdem-twice" else 1)
    hand = await sync_to_async(Hand.objects.get)(pk=held["snapshot"].hand.pk)
    assert hand.status == Hand.Status.FINISHED and not hand.odds_pending
    assert len(hand.runout["runs"]) == (2 if game == "holdem-twice" else 1)
    if game == "three-way":
        assert len(hand.runout["runs"][0][0]["chances"]) == 3


# --- the runtime itself -------------------------------------------------------------------


def _heads_up(make_table, players, **options: Any) -> tuple[Table, Hand]:
    table = make_table(name="Runtime odds", **options)
    for player in players[:2]:
        seat_take(table=table, player=player, buy_in=100)
    hand = hand_start(table=table)
    return fresh(table), hand


async def _runtime(table: Table, spectator) -> tuple[TableRuntime, Any]:
    """The table's runtime here, made by a spectator's socket."""
    cookie = await sync_to_async(session_cookie)(spectator.user)
    comm = communicator(table.pk, cookie, query="state=json")
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=BOUND)  # its first frame: it follows the runtime
    runtime = TableRuntime.following(table.pk)
    assert runtime is not None and runtime.owner
    return runtime, comm


async def _all_in_and_call(runtime: TableRuntime, table: Table, hand: Hand) -> None:
    """The two players' all-in and call, through the runtime (as their sockets would)."""
    for kind in ("all_in", "call"):
        who = await sync_to_async(actor)(await sync_to_async(current_hand)(table))
        user = await sync_to_async(lambda w=who: w.user)()
        version = runtime.version
        data = {"op": "act", "hand": hand.pk, "version": version, "kind": kind, "amount": 0}
        await runtime.request(user, who, data)


async def test_the_runtime_stores_the_odds_once_and_the_croupier_leaves_them_to_it(
    make_table, players, monkeypatch
):
    table, hand = await sync_to_async(_heads_up)(make_table, players)
    runtime, comm = await _runtime(table, players[2])
    started, release = threading.Event(), threading.Event()

    def slow(state, board):
        started.set()
        assert release.wait(BOUND), "the test never released the computation"
        return runout_odds(state, board)

    monkeypatch.setattr(runtime_odds, "engine_odds", slow)
    try:
        await _all_in_and_call(runtime, table, hand)
        assert runtime.odds.task is not None and hand.pk in odds_under_way
        assert await asyncio.to_thread(started.wait, BOUND), "the runtime computed nothing"
        ended, reads = runtime.version, runtime.reads
        # the croupier's pass finds the hand waiting, and leaves it to the runtime
        croupier = Croupier()
        assert (hand.pk, table.pk) in await sync_to_async(hands_awaiting_odds)()
        await croupier.housekeeping_async()
        assert croupier.odds_tasks == {}
    finally:
        release.set()
    await asyncio.wait_for(runtime.odds.task, BOUND)
    assert hand.pk not in odds_under_way
    assert runtime.version == ended + 1  # stored once, one version
    assert runtime.reads == reads  # built from the version before
    row = await sync_to_async(fresh)(table)
    assert row.version == ended + 1
    read = await sync_to_async(load_snapshot)(table.pk)
    assert_same(runtime.snapshot, read)
    stored = await sync_to_async(Hand.objects.get)(pk=hand.pk)
    assert not stored.odds_pending
    runs, ev_net = await sync_to_async(_the_croupiers)(hand.pk)
    assert stored.runout["runs"] == runs and await sync_to_async(_ev_stored)(hand.pk) == ev_net
    assert await sync_to_async(hands_awaiting_odds)() == []  # nothing left to compute
    await comm.disconnect()


async def test_odds_of_the_runs_chosen_while_one_runs_odds_were_computed_are_computed_next(
    make_table, players, monkeypatch
):
    """The all-in at a run-it-twice table starts one run's odds at the call (the players
    asked whether to run it twice); their answers make a new run-out while those are
    computed, whose odds the runtime computes once the first computation ends (its store
    writes nothing: not the run-out stored). No croupier here to fill them instead."""
    table, hand = await sync_to_async(_heads_up)(make_table, players, run_it_twice=True)
    runtime, comm = await _runtime(table, players[2])
    started, release = threading.Event(), threading.Event()
    computed: list[int] = []

    def slow_first(state, board):
        if not computed:
            started.set()
            assert release.wait(BOUND), "the test never released the computation"
        computed.append(len(board))
        return runout_odds(state, board)

    monkeypatch.setattr(runtime_odds, "engine_odds", slow_first)
    try:
        await _all_in_and_call(runtime, table, hand)
        assert await asyncio.to_thread(started.wait, BOUND), "the runtime computed nothing"
        first = runtime.odds.task
        for player in players[:2]:  # both answer: run it twice
            user = await sync_to_async(lambda p=player: p.user)()
            data = {"op": "act", "hand": hand.pk, "version": runtime.version, "kind": "run_twice"}
            await runtime.request(user, player, data)
        assert runtime.odds.task is first  # the two runs wait for the one run's odds to end
    finally:
        release.set()
    await asyncio.wait_for(first, BOUND)
    assert runtime.odds.task is not first, "the two runs' odds were not started"
    await asyncio.wait_for(runtime.odds.task, BOUND)
    stored = await sync_to_async(Hand.objects.get)(pk=hand.pk)
    assert not stored.odds_pending and len(stored.runout["runs"]) == 2
    runs, _ = await sync_to_async(_the_croupiers)(hand.pk)
    assert stored.runout["runs"] == runs
    assert await sync_to_async(hands_awaiting_odds)() == []
    await comm.disconnect()


async def test_the_croupier_fills_a_run_out_whose_runtime_did_not(
    make_table, players, monkeypatch, caplog
):
    table, hand = await sync_to_async(_heads_up)(make_table, players)
    runtime, comm = await _runtime(table, players[2])

    def broken(state, board):
        raise RuntimeError("the odds could not be computed")

    monkeypatch.setattr(runtime_odds, "engine_odds", broken)
    await _all_in_and_call(runtime, table, hand)
    assert runtime.odds.task is not None
    await asyncio.wait_for(runtime.odds.task, BOUND)
    assert "the odds could not be computed" in caplog.text  # logged, not raised
    assert hand.pk not in odds_under_way
    waiting = await sync_to_async(Hand.objects.get)(pk=hand.pk)
    assert waiting.odds_pending
    croupier = Croupier()
    await croupier.housekeeping_async()
    assert list(croupier.odds_tasks) == [hand.pk]
    await asyncio.wait_for(croupier.odds_settled(), BOUND)
    filled = await sync_to_async(Hand.objects.get)(pk=hand.pk)
    assert not filled.odds_pending
    runs, _ = await sync_to_async(_the_croupiers)(hand.pk)
    assert filled.runout["runs"] == runs
    await comm.disconnect()
