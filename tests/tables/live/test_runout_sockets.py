"""All-in run-outs over the table socket (``?state=json``): the frames a spectator receives
arrive street by street with both hands face up and the odds, each valid against the
published play-state schema; run it twice is answered over the socket; the rabbit hunt is a
socket op. The croupier is ticked at injected times (the stored ``next_hand_at``)."""

from __future__ import annotations

import asyncio
import json

import jsonschema
import pytest
from asgiref.sync import sync_to_async

from tables.croupier import Croupier
from tables.models import Table
from tables.presenters.play_state import PLAY_STATE
from tables.services import hand_start, seat_take
from tables.services.runouts import hands_awaiting_odds
from tests.tables.helpers import act, fresh
from tests.tables.wsclient import communicator, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def paced(settings):
    settings.POKER_CROUPIER = False
    settings.POKER_RUNOUT_PAUSE_SECONDS = 1.5


async def _json_socket(table, player):
    cookie = await sync_to_async(session_cookie)(player.user)
    comm = communicator(table.pk, cookie, query="state=json")
    assert (await comm.connect())[0]
    return comm


async def _frames(comm, until, timeout: float = 10) -> list[dict]:
    """Every frame up to the first that satisfies ``until``; each state frame's play state
    is checked against the published schema."""
    got = []

    async def loop():
        while True:
            frame = json.loads(await comm.receive_from(timeout=timeout))
            if frame["type"] == "state":
                jsonschema.validate(frame["state"], PLAY_STATE)
            got.append(frame)
            if until(frame):
                return got

    return await asyncio.wait_for(loop(), timeout)


def _state(until):
    """``until`` for state frames: their play state satisfies it."""
    return lambda frame: frame["type"] == "state" and until(frame["state"])


async def _no_odds_awaited() -> None:
    while await sync_to_async(hands_awaiting_odds)():
        await asyncio.sleep(0.05)


def _tick_when_due(table_id: int) -> list:
    return Croupier().tick(Table.objects.get(pk=table_id).next_hand_at)


async def test_a_spectator_receives_the_run_out_street_by_street(make_table, players):
    alice, bob, carol = players
    table = await sync_to_async(make_table)(name="Sockets")
    for player in (alice, bob):
        await sync_to_async(seat_take)(table=table, player=player, buy_in=100)
    await sync_to_async(hand_start)(table=table)
    spectator = await _json_socket(table, carol)
    await _frames(spectator, _state(lambda s: True))
    await sync_to_async(act)(table, "all_in")
    await sync_to_async(act)(table, "call")
    frames = await _frames(spectator, _state(lambda s: s["hand"] is None))
    over = frames[-1]["state"]
    # The action that ended the betting did not compute the chances: the croupier does.
    assert all(s["chances"] == [] for s in over["seats"])
    assert await sync_to_async(Croupier().tick)() == [(table.pk, "odds")]
    frames = await _frames(spectator, _state(lambda s, v=over["version"]: s["version"] > v))
    states = [frames[-1]["state"]]
    while states[-1]["result"] is None:
        assert await sync_to_async(_tick_when_due)(table.pk) == [(table.pk, "runout")]
        version = states[-1]["version"]
        frames = await _frames(spectator, _state(lambda s, v=version: s["version"] > v))
        states.append(frames[-1]["state"])
    assert [s["street"] for s in states] == ["preflop", "flop", "turn", "over"]
    assert [len(s["board"]) for s in states] == [0, 3, 4, 5]
    for state in states[:-1]:
        live = [s for s in state["seats"] if s["status"] != "empty"]
        assert len(live) == 2 and all(None not in s["cards"] for s in live)
        assert sum(s["chances"][0] for s in live) == pytest.approx(100, abs=0.2)
    await spectator.disconnect()


async def test_run_it_twice_and_the_rabbit_hunt_over_the_socket(make_table, players):
    alice, bob, carol = players
    table = await sync_to_async(make_table)(name="Twice", run_it_twice=True)
    for player in (alice, bob):
        await sync_to_async(seat_take)(table=table, player=player, buy_in=100)
    hand = await sync_to_async(hand_start)(table=table)
    sockets = [await _json_socket(table, p) for p in (alice, bob)]
    for comm in sockets:
        await _frames(comm, _state(lambda s: True))
    await sync_to_async(act)(table, "all_in")
    await sync_to_async(act)(table, "call")
    # A table read while the call commits shows it under the version before (a snapshot is
    # never older than its version, perhaps newer): a click on that frame would be stale. The
    # frame of the call's own version follows; the players click on that one.
    called = (await sync_to_async(fresh)(table)).version
    asked = [
        (await _frames(comm, _state(lambda s: s["runs_due"] and s["version"] >= called)))[-1]
        for comm in sockets
    ]
    for frame in asked:
        assert frame["state"]["legal"]["actions"] == ["run_thrice", "run_twice", "run_once"]
    first = sockets[0]
    request = {"op": "act", "hand": hand.pk, "version": asked[0]["state"]["version"]}
    await first.send_to(text_data=json.dumps({**request, "kind": "run_twice"}))
    await first.send_to(text_data=json.dumps({**request, "kind": "run_twice"}))  # again
    refusal = (await _frames(first, lambda f: f["type"] == "answer" and f["error"]))[-1]
    assert refusal["code"] == "already_answered"
    await sockets[1].send_to(text_data=json.dumps({**request, "kind": "run_twice"}))
    assert not (await _frames(sockets[1], lambda f: f["type"] == "answer"))[-1]["error"]
    done = await _frames(first, _state(lambda s: len(s["boards"]) == 2))
    assert done[-1]["state"]["hand"] is None  # the hand is over, its run-out being dealt
    # The answer was the table's runtime's write: it computes both runs' chances itself.
    await asyncio.wait_for(_no_odds_awaited(), 10)
    for _ in range(3):  # flop, turn, river
        assert await sync_to_async(_tick_when_due)(table.pk) == [(table.pk, "runout")]
    last = (await _frames(first, _state(lambda s: s["result"] is not None)))[-1]["state"]
    assert [len(board) for board in last["boards"]] == [5, 5]
    assert len(last["result"]["pots"]) == 2  # the pot, split between the runs
    await first.send_to(text_data=json.dumps({"op": "rabbit_hunt", "hand": hand.pk}))
    answer = (await _frames(first, lambda f: f["type"] == "answer"))[-1]
    assert answer["code"] == "no_rabbit"  # the board went to the river: nothing to hunt
    for comm in sockets:
        await comm.disconnect()


async def test_a_rabbit_hunt_after_a_fold_is_shown_to_everyone(make_table, players):
    alice, bob, carol = players
    table = await sync_to_async(make_table)(name="Rabbit")
    for player in (alice, bob):
        await sync_to_async(seat_take)(table=table, player=player, buy_in=100)
    hand = await sync_to_async(hand_start)(table=table)
    spectator, seated = await _json_socket(table, carol), await _json_socket(table, alice)
    for comm in (spectator, seated):
        await _frames(comm, _state(lambda s: True))
    await sync_to_async(act)(table, "fold")
    await spectator.send_to(text_data=json.dumps({"op": "rabbit_hunt", "hand": hand.pk}))
    answer = (await _frames(spectator, lambda f: f["type"] == "answer"))[-1]
    assert answer["code"] == "not_seated"  # only the players seated may ask
    await seated.send_to(text_data=json.dumps({"op": "rabbit_hunt", "hand": hand.pk}))
    shown = (await _frames(spectator, _state(lambda s: s["rabbit"] is not None)))[-1]["state"]
    assert len(shown["rabbit"]) == 5 and shown["board"] == []
    await seated.send_to(text_data=json.dumps({"op": "rabbit_hunt", "hand": hand.pk}))
    again = (await _frames(seated, lambda f: f["type"] == "answer" and f["error"]))[-1]
    assert again["code"] == "no_rabbit"  # once per hand
    for comm in (spectator, seated):
        await comm.disconnect()
