"""The ``?state=json`` socket speaks the play API's language: its state frames carry the play
state (valid against the published schema) and its refusals the same stable codes."""

from __future__ import annotations

import json

import jsonschema
import pytest
from asgiref.sync import sync_to_async

from tables.presenters.play_state import PLAY_STATE
from tables.services import hand_start, seat_take
from tests.tables.live.test_socket_hardening import answer_frame
from tests.tables.wsclient import communicator, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False


async def test_state_frames_carry_the_play_state_and_refusals_the_rules_codes(players, table):
    alice, bob, _ = players
    await sync_to_async(seat_take)(table=table, player=alice, buy_in=200, seat_number=0)
    await sync_to_async(seat_take)(table=table, player=bob, buy_in=200, seat_number=1)
    hand = await sync_to_async(hand_start)(table=table)
    sockets = {}
    for player in (alice, bob):
        cookie = await sync_to_async(session_cookie)(player.user)
        comm = communicator(table.pk, cookie, query="state=json")
        assert (await comm.connect())[0]
        frame = json.loads(await comm.receive_from())
        jsonschema.validate(frame["state"], PLAY_STATE)
        sockets[player.name] = (comm, frame["state"])
    actor = next(name for name, (_, state) in sockets.items() if state["legal"])
    other = next(name for name in sockets if name != actor)
    comm, state = sockets[actor]
    request = {"op": "act", "hand": hand.pk, "version": state["version"]}
    await comm.send_to(text_data=json.dumps({**request, "kind": "raise", "amount": 3}))
    assert (await answer_frame(_Socket(comm)))["code"] == "below_min_raise"
    await comm.send_to(text_data=json.dumps({**request, "kind": "check"}))
    assert (await answer_frame(_Socket(comm)))["code"] == "check_facing_bet"
    their = sockets[other][0]
    await their.send_to(text_data=json.dumps({**request, "kind": "call"}))
    assert (await answer_frame(_Socket(their)))["code"] == "not_your_turn"
    for comm, _ in sockets.values():
        await comm.disconnect()


class _Socket:
    """What ``answer_frame`` reads from."""

    def __init__(self, comm):
        self.comm = comm

    async def receive(self):
        return await self.comm.receive_from()
