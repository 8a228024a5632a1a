"""Seat churn over the socket (issue 15, item 6): an outsider looping take-seat/leave moves the
table's version on, but the players' actions, made on the state where their turn came, are
still taken; and with the reseat wait on, the loop stops after one round."""

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async

from tables.models import Hand, HandAction, Table
from tables.services import hand_start, seat_take
from tests.tables.helpers import actor, current_hand
from tests.tables.wsclient import communicator, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False  # the tests drive every change themselves


class JsonSocket:
    """A ``?state=json`` socket: state frames and answers (matched by request id)."""

    def __init__(self, table_id: int, user):
        self.table_id, self.user = table_id, user
        self.comm = None
        self.requests = 0
        self.answers: dict = {}
        self.state: dict | None = None

    async def connect(self):
        cookie = await sync_to_async(session_cookie)(self.user)
        self.comm = communicator(self.table_id, cookie, query="state=json")
        assert (await self.comm.connect())[0]
        await self.next_state(lambda state: True)
        return self

    async def _receive(self) -> None:
        frame = json.loads(await self.comm.receive_from(timeout=10))
        if frame["type"] == "answer":
            self.answers[frame.get("id")] = frame
        elif frame["type"] == "state":
            self.state = frame

    async def next_state(self, accept, timeout: float = 10) -> dict:
        """The first state frame from now on that ``accept`` takes."""

        async def loop():
            while True:
                await self._receive()
                if self.state is not None and accept(self.state):
                    return self.state

        self.state = None
        return await asyncio.wait_for(loop(), timeout)

    async def request(self, **data) -> dict:
        """Send one request and wait for its answer."""
        self.requests += 1
        request_id = self.requests
        await self.comm.send_to(text_data=json.dumps({**data, "id": request_id}))

        async def loop():
            while request_id not in self.answers:
                await self._receive()
            return self.answers.pop(request_id)

        return await asyncio.wait_for(loop(), 10)

    async def close(self):
        await self.comm.disconnect()


@sync_to_async
def to_act(table) -> tuple[str, int, int] | None:
    """(who is to act, the hand, the version at which it last moved), None once it is over."""
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    if not hand.is_running:
        return None
    return actor(current_hand(table)).name, hand.pk, Table.objects.get(pk=table.pk).hand_version


async def test_a_griefer_looping_take_seat_and_leave_does_not_make_actions_stale(
    players, table, settings, assert_chips_conserved
):
    settings.POKER_RESEAT_WAIT_SECONDS = 0  # churn at full speed: the wait is tested below
    alice, bob, carol = players
    await sync_to_async(seat_take)(table=table, player=alice, buy_in=200, seat_number=0)
    await sync_to_async(seat_take)(table=table, player=bob, buy_in=200, seat_number=1)
    victims = {p.name: await JsonSocket(table.pk, p.user).connect() for p in (alice, bob)}
    griefer = await JsonSocket(table.pk, carol.user).connect()
    await sync_to_async(hand_start)(table=table)

    stop = asyncio.Event()
    churned = []

    async def churn():
        while not stop.is_set():
            for op in ({"op": "take_seat", "buy_in": 100}, {"op": "leave"}):
                answer = await griefer.request(**op)
                churned.append(not answer["error"])
                await asyncio.sleep(0.2)  # the attack: a request every 0.2 s

    loop = asyncio.create_task(churn())
    answers = []
    for _ in range(20):  # a passive heads-up hand takes 8 actions
        if (turn := await to_act(table)) is None:
            break
        name, hand_id, moved_at = turn
        me = victims[name]
        # The frame on which the player's turn came; they think while the griefer churns.
        seen = await me.next_state(
            lambda s, moved_at=moved_at: s["version"] >= moved_at and s["view"]["legal"]
        )
        # the table moved on
        await me.next_state(lambda s, seen=seen: s["version"] > seen["version"])
        legal = seen["view"]["legal"]
        kind = "check" if legal["check"] else "call"
        answers.append(await me.request(op="act", hand=hand_id, version=seen["version"], kind=kind))
    stop.set()
    await loop

    assert [a["message"] for a in answers if a["error"]] == []
    assert await to_act(table) is None  # played to its end
    assert await sync_to_async(HandAction.objects.count)() == len(answers)
    assert churned.count(True) >= len(answers)  # at least one change between view and action
    await sync_to_async(assert_chips_conserved)()
    for socket in (*victims.values(), griefer):
        await socket.close()


async def test_with_the_reseat_wait_the_griefer_gets_one_round(players, table, settings):
    settings.POKER_RESEAT_WAIT_SECONDS = 30
    carol = players[2]
    griefer = await JsonSocket(table.pk, carol.user).connect()
    version = await sync_to_async(lambda: Table.objects.get(pk=table.pk).version)()
    answers = [
        await griefer.request(**op)
        for op in (
            {"op": "take_seat", "buy_in": 100},
            {"op": "leave"},
            {"op": "take_seat", "buy_in": 100},
        )
    ]
    assert [a["error"] for a in answers] == [False, False, True]
    assert "you can sit down here again in" in answers[2]["message"]
    assert await sync_to_async(lambda: Table.objects.get(pk=table.pk).version)() == version + 2
    await griefer.close()
