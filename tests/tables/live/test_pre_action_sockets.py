"""Acting in advance over real sockets (issue 50): a ticked choice is taken in the same step
as the action that brings the player's turn, and every socket sees both in one version; the
table's runtime then goes on acting on the hand it read again."""

import json

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from rest_framework.authtoken.models import Token

from tables.models import HandAction, Player
from tables.selectors.hands import hand_state
from tables.services import hand_start, seat_take
from tests.frames import FrameChecker
from tests.tables.helpers import act
from tests.tables.wsclient import CONNECT_SECONDS, communicator

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False


class Program:
    """A program's JSON socket, every frame checked against the published protocol."""

    def __init__(self, comm, checker: FrameChecker):
        self.comm, self.checker = comm, checker
        self.state: dict = {}
        self.answers: list[dict] = []
        self.next_id = 0

    async def receive(self) -> dict:
        data = self.checker.received_frame(await self.comm.receive_from(timeout=5))
        if data["type"] == "state":
            self.state = data["state"]
        else:
            self.answers.append(data)
        return data

    async def request(self, **data) -> dict:
        self.next_id += 1
        data["id"] = self.next_id
        self.checker.sent_frame(data)
        await self.comm.send_to(text_data=json.dumps(data))
        while not any(a.get("id") == self.next_id for a in self.answers):
            await self.receive()
        answer = next(a for a in self.answers if a.get("id") == self.next_id)
        assert answer["error"] is False, answer
        return answer

    async def reach(self, version: int) -> dict:
        while self.state.get("version", -1) < version:
            await self.receive()
        return self.state


@pytest.fixture
def document(db):
    return Client().get("/api/asyncapi.json").json()


async def program_of(table, player, checker) -> Program:
    """``player``'s ``?state=json`` socket on ``table``, logged in by a token, its first state
    read."""
    key = (await Token.objects.acreate(user_id=player.user_id)).key
    comm = communicator(
        table.pk, None, origin=None, query="state=json", headers={"Authorization": f"Token {key}"}
    )
    assert (await comm.connect(timeout=CONNECT_SECONDS))[0]
    program = Program(comm, checker)
    await program.receive()
    return program


async def test_a_ticked_choice_comes_with_the_action_that_brought_the_turn(
    document, players, table
):
    checker = FrameChecker(document)
    alice, bob, _ = players
    for seat, player in enumerate((alice, bob)):
        await sync_to_async(seat_take)(table=table, player=player, buy_in=200, seat_number=seat)
    hand = await sync_to_async(hand_start)(table=table)
    state = await sync_to_async(hand_state)(hand)
    button = await Player.objects.aget(pk=hand.seats[state.actor]["player_id"])  # small blind
    big = alice if button.pk == bob.pk else bob
    first, second = [await program_of(table, player, checker) for player in (button, big)]

    # The big blind (not to act) may tick check/fold, check or call any: it ticks call any.
    offers = second.state["pre_actions"]["offers"]
    assert [o["kind"] for o in offers] == ["check_fold", "check", "call_any"]
    assert first.state["pre_actions"] is None  # to act: it acts instead
    await second.request(op="pre_action", kind="call_any")
    ticked = await second.reach(second.state["version"] + 1)
    assert ticked["pre_actions"]["ticked"] == {"kind": "call_any", "amount": 0}
    seen = await first.reach(ticked["version"])
    assert seen["pre_actions"] is None  # nobody else sees the tick

    # The button raises: the big blind's call comes in the same version, the flop with it.
    await first.request(op="act", kind="raise", amount=6, hand=hand.pk, version=seen["version"])
    after = await first.reach(seen["version"] + 1)
    assert after["version"] == seen["version"] + 1
    assert after["street"] == "flop"
    mine = await second.reach(after["version"])
    assert mine["version"] == after["version"] and mine["street"] == "flop"
    assert mine["legal"] is not None  # the big blind acts first on the flop
    assert mine["pre_actions"] is None

    # The button ticks check/fold; the big blind bets: the button folds in the same version.
    await first.request(op="pre_action", kind="check_fold")
    ticked = await first.reach(after["version"] + 1)
    assert ticked["pre_actions"]["ticked"] == {"kind": "check_fold", "amount": 0}
    await second.reach(ticked["version"])
    await second.request(op="act", kind="raise", amount=10, hand=hand.pk, version=ticked["version"])
    over = await second.reach(ticked["version"] + 1)
    assert over["version"] == ticked["version"] + 1
    assert over["running"] is False
    assert (await first.reach(over["version"]))["running"] is False
    log = [
        (kind, source)
        async for kind, source in HandAction.objects.filter(hand=hand)
        .order_by("index")
        .values_list("kind", "source")
    ]
    assert log == [
        ("raise", "player"),
        ("call", "pre"),
        ("raise", "player"),
        ("fold", "pre"),
    ]
    for program in (first, second):
        await program.comm.disconnect()


async def test_a_tick_taken_while_the_street_goes_on_is_gone_from_the_next_state(
    document, players, table
):
    """The runtime builds its next version from memory after a plain action; after a step that
    took a tick it reads the table again, so nobody's screen keeps a tick already used."""
    checker = FrameChecker(document)
    for seat, player in enumerate(players):
        await sync_to_async(seat_take)(table=table, player=player, buy_in=200, seat_number=seat)
    hand = await sync_to_async(hand_start)(table=table)
    for kind in ("call", "call", "check"):  # everyone limps: the flop
        await sync_to_async(act)(table, kind)
    state = await sync_to_async(hand_state)(hand)
    small = await Player.objects.aget(pk=hand.seats[state.actor]["player_id"])
    big = await Player.objects.aget(pk=hand.seats[(state.actor + 1) % 3]["player_id"])
    first, second = [await program_of(table, player, checker) for player in (small, big)]
    await second.request(op="pre_action", kind="check")
    ticked = await second.reach(second.state["version"] + 1)
    assert ticked["pre_actions"]["ticked"] == {"kind": "check", "amount": 0}
    await first.reach(ticked["version"])
    await first.request(op="act", kind="check", hand=hand.pk, version=ticked["version"])
    after = await second.reach(ticked["version"] + 1)
    assert after["street"] == "flop"  # the button is still to act
    assert after["legal"] is None
    assert after["pre_actions"]["ticked"] is None  # used: not shown as ticked any more
    # the runtime goes on: the small blind ticks, the button acts
    await first.request(op="pre_action", kind="check")
    await first.reach(after["version"] + 1)
    log = [
        (kind, source)
        async for kind, source in HandAction.objects.filter(hand=hand)
        .order_by("index")
        .values_list("kind", "source")
    ]
    assert log[-2:] == [("check", "player"), ("check", "pre")]
    for program in (first, second):
        await program.comm.disconnect()
