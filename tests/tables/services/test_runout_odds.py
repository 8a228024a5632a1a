"""An all-in run-out's chances are computed off the write path (the run-out must never block
other tables): the action that ends the betting stores the run-out's streets with the
chances unknown; the croupier computes them outside any transaction, in a worker thread on
the server, and stores them through a locked service that writes them once, for the run-out
they were computed for. The streets wait for them, within a bound; a restart computes what
is missing. The croupier is ticked at injected times; no test sleeps.
"""

from __future__ import annotations

import ast
import asyncio
import threading
from datetime import timedelta
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from django.db import connection

from engine.runout import runout_odds
from tables.croupier import Croupier, runout_odds_compute
from tables.db.threads import write_async
from tables.models import Hand, HandAction, Table
from tables.services import hand_act, hand_start, seat_take
from tables.services.runouts import runout_odds_store, runout_odds_work
from tests.tables.helpers import act, current_hand, fresh, screen_of

PAUSE = 1.5
WAIT = 5.0
BOUND = 60  # seconds: every wait on another thread is bounded (a hang fails, never blocks)


@pytest.fixture(autouse=True)
def paced(settings):
    settings.POKER_RUNOUT_PAUSE_SECONDS = PAUSE
    settings.POKER_RUNOUT_ODDS_WAIT_SECONDS = WAIT
    settings.POKER_HAND_PAUSE_SECONDS = 4
    settings.POKER_CROUPIER = False


def _heads_up(make_table, players, name: str = "Odds", **options) -> Table:
    table = make_table(name=name, **options)
    for player in players[:2]:
        seat_take(table=table, player=player, buy_in=100)
    hand_start(table=table)
    return fresh(table)


def _all_in_called(table: Table) -> Hand:
    hand = current_hand(table)
    act(table, "all_in")
    act(table, "call")
    return Hand.objects.get(pk=hand.pk)


def _unknown(hand: Hand) -> int:
    """Streets of the stored run-out whose chances are not known."""
    return sum(step["chances"] is None for run in hand.runout["runs"] for step in run)


def _plates(table: Table, viewer) -> list:
    return [p.plate for p in screen_of(fresh(table), viewer).seats.seats if p.plate is not None]


@pytest.mark.django_db(transaction=True)
def test_the_action_ending_the_betting_leaves_the_odds_to_the_croupier_outside_any_transaction(
    make_table, players
):
    carol = players[2]
    table = _heads_up(make_table, players)
    hand = _all_in_called(table)
    assert hand.status == Hand.Status.FINISHED
    assert hand.odds_pending and _unknown(hand) == 4  # preflop, flop, turn, river
    plates = _plates(table, carol)
    assert [(p.chances, p.chances_pending) for p in plates] == [((), True), ((), True)]

    called_in_a_transaction = []

    def watched(state, board):
        called_in_a_transaction.append(connection.in_atomic_block)
        return runout_odds(state, board)

    assert Croupier(odds=watched).tick() == [(table.pk, "odds")]
    assert called_in_a_transaction == [False]  # one run, computed outside any transaction
    hand.refresh_from_db()
    assert not hand.odds_pending and _unknown(hand) == 0
    for step in hand.runout["runs"][0]:
        assert sum(step["chances"].values()) == pytest.approx(1)
    plates = _plates(table, carol)
    assert all(p.chances and not p.chances_pending for p in plates)
    assert sum(p.chances[0] for p in plates) == pytest.approx(100, abs=0.2)


@pytest.mark.django_db(transaction=True)
async def test_another_tables_action_goes_on_while_a_run_outs_odds_are_computed(
    make_table, players
):
    first = await sync_to_async(_heads_up)(make_table, players, "First")
    second = await sync_to_async(_heads_up)(make_table, players, "Second")
    hand = await sync_to_async(_all_in_called)(first)
    started, release = threading.Event(), threading.Event()
    computed_on = []

    def slow(state, board):
        computed_on.append(threading.get_ident())
        started.set()
        assert release.wait(BOUND), "the test never released the computation"
        return runout_odds(state, board)

    croupier = Croupier(odds=slow)
    try:
        await croupier.tick_async()  # starts the computation and returns
        assert await asyncio.to_thread(started.wait, BOUND), "the odds were never computed"
        # The first table's odds are being computed (held until released): the second
        # table's action, on the thread of the writes, goes through meanwhile.
        moved = await asyncio.wait_for(write_async(second.pk, act)(second, "call"), BOUND)
        assert await sync_to_async(HandAction.objects.filter(hand=moved).count)() == 1
        writes_on = await write_async(second.pk, threading.get_ident)()
        pending = await sync_to_async(Hand.objects.filter(pk=hand.pk, odds_pending=True).exists)()
        assert pending  # still computing: the action did not wait for it
        assert computed_on and computed_on[0] != writes_on
    finally:
        release.set()
    await asyncio.wait_for(croupier.odds_settled(), BOUND)
    hand = await sync_to_async(Hand.objects.get)(pk=hand.pk)
    assert not hand.odds_pending and _unknown(hand) == 0


@pytest.mark.django_db
def test_two_processes_computing_the_same_odds_write_them_once(make_table, players):
    table = _heads_up(make_table, players)
    hand = _all_in_called(table)
    # Both processes' croupiers read the hand and compute before either stores.
    mine, theirs = (runout_odds_compute(runout_odds_work(hand.pk)) for _ in range(2))
    version = fresh(table).version
    now = fresh(table).next_hand_at - timedelta(seconds=1)
    assert runout_odds_store(hand_id=hand.pk, runs=mine, now=now)
    stored = Hand.objects.get(pk=hand.pk).runout
    assert not runout_odds_store(hand_id=hand.pk, runs=theirs, now=now)
    assert Hand.objects.get(pk=hand.pk).runout == stored
    assert fresh(table).version == version + 1  # one change, told once
    assert Croupier().tick(now) == []  # nothing left to compute


@pytest.mark.django_db
def test_odds_computed_for_the_run_it_twice_question_are_not_written_over_the_runs(
    make_table, players
):
    alice, bob, _ = players
    table = _heads_up(make_table, players, run_it_twice=True)
    hand = _all_in_called(table)
    assert hand.is_running and len(hand.runout["runs"][0]) == 1  # asked: one street so far
    asked = runout_odds_compute(runout_odds_work(hand.pk))  # a croupier, mid-computation
    for player in (alice, bob):
        hand_act(
            table=fresh(table),
            player=player,
            hand_id=hand.pk,
            version=fresh(table).version,
            action="run_twice",
        )
    hand.refresh_from_db()
    assert hand.status == Hand.Status.FINISHED and len(hand.runout["runs"]) == 2
    now = fresh(table).next_hand_at - timedelta(seconds=1)
    assert not runout_odds_store(hand_id=hand.pk, runs=asked, now=now)  # another run-out now
    hand.refresh_from_db()
    assert hand.odds_pending and _unknown(hand) == 8
    assert Croupier().tick(now) == [(table.pk, "odds")]
    hand.refresh_from_db()
    assert _unknown(hand) == 0
    first_street = [run[0]["chances"] for run in hand.runout["runs"]]
    assert first_street[0] == first_street[1] == asked[0][0]["chances"]  # the same board


@pytest.mark.django_db
def test_chances_known_while_the_runs_are_asked_stay_known_once_they_are_decided(
    make_table, players
):
    alice, bob, _ = players
    table = _heads_up(make_table, players, run_it_twice=True)
    hand = _all_in_called(table)
    assert Croupier().tick() == [(table.pk, "odds")]
    asked = Hand.objects.get(pk=hand.pk).runout["runs"][0][0]["chances"]
    for player in (alice, bob):
        hand_act(
            table=fresh(table),
            player=player,
            hand_id=hand.pk,
            version=fresh(table).version,
            action="run_twice",
        )
    hand.refresh_from_db()
    assert [run[0]["chances"] for run in hand.runout["runs"]] == [asked, asked]
    assert _unknown(hand) == 6  # flop, turn and river of both runs: still to compute


@pytest.mark.django_db
def test_a_street_waits_for_its_chances_within_a_bound_and_a_restart_computes_them(
    make_table, players, caplog
):
    table = _heads_up(make_table, players)
    hand = _all_in_called(table)

    def broken(state, board):
        raise RuntimeError("the odds could not be computed")

    croupier = Croupier(odds=broken)
    due = fresh(table).next_hand_at
    # The flop's time has come, but the preflop chances are unknown: the street waits...
    assert croupier.tick(due) == []
    assert "the odds could not be computed" in caplog.text  # logged, not raised
    assert croupier.tick(due + timedelta(seconds=1)) == []
    # ... up to the bound after the betting ended; then the run-out goes on without them.
    bound = hand.finished_at + timedelta(seconds=WAIT)
    assert croupier.tick(bound) == [(table.pk, "runout")]
    assert [p.chances_pending for p in _plates(table, players[2])] == [True, True]
    # A restarted server computes what is missing; come after their street's time, they
    # stay on screen a pause before the next street.
    restarted = Croupier()
    later = fresh(table).next_hand_at + timedelta(seconds=0.5)
    assert restarted.tick(later) == [(table.pk, "odds")]
    assert fresh(table).next_hand_at == later + timedelta(seconds=PAUSE)
    plates = _plates(table, players[2])
    assert all(p.chances and not p.chances_pending for p in plates)
    assert restarted.tick(later + timedelta(seconds=PAUSE)) == [(table.pk, "runout")]


def test_no_service_computes_run_out_odds():
    """The services run in transactions holding a table row: none may compute odds or the
    all-in EV (exact enumeration, up to about a second) — only the croupier, off the write
    path. The run-out's streets alone (``runout_streets``) are cheap."""
    services = Path(__file__).resolve().parents[3] / "tables" / "services"
    computing = ("engine.runout", "engine.equity", "engine.allin_ev")
    found = {}
    for path in services.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module in computing:
                names = {alias.name for alias in node.names} - {"runout_streets"}
                if names:
                    found[path.name] = names
            elif isinstance(node, ast.Import) and any(
                alias.name in computing for alias in node.names
            ):
                found[path.name] = {"the module"}
    assert found == {}
