"""Protocol version 1 of the table socket: every frame sent and received over a long game, and
every request and refusal kind, validates against the published AsyncAPI document
(``/api/asyncapi.json``, ``tables.live.asyncapi``)."""

import json
import random

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from jsonschema import ValidationError
from rest_framework.authtoken.models import Token

from engine.bots import RandomBot
from tables.live import protocol
from tables.live.schemas import REQUESTS
from tables.models import Table
from tables.operations import OPERATIONS
from tables.services import hand_start, seat_take
from tests.frames import FrameChecker
from tests.tables.wsclient import communicator

pytestmark = pytest.mark.django_db(transaction=True)

HANDS = 30


@pytest.fixture(autouse=True)
def no_croupier(settings, monkeypatch):
    settings.POKER_CROUPIER = False
    settings.POKER_RESEAT_WAIT_SECONDS = 0
    # The game below sends as fast as the server answers (the rate limit has its own tests).
    monkeypatch.setattr("tables.live.consumer.RATE_BURST", 10_000)


@pytest.fixture
def document(db):
    response = Client().get("/api/asyncapi.json")
    assert response.status_code == 200
    return response.json()


class Program:
    """A program's socket (no Origin, no cookie, logged in by token) checking every frame."""

    def __init__(self, name, comm, checker: FrameChecker, seat: int):
        self.name, self.comm, self.checker, self.seat = name, comm, checker, seat
        self.state: dict = {}
        self.answers: list[dict] = []
        self.next_id = 0

    async def send(self, checked=True, **data) -> int:
        self.next_id += 1
        data["id"] = self.next_id
        if checked:
            self.checker.sent_frame(data)
        await self.comm.send_to(text_data=json.dumps(data))
        return self.next_id

    async def receive(self) -> dict:
        data = self.checker.received_frame(await self.comm.receive_from(timeout=5))
        if data["type"] == "state":
            assert data["version"] > self.state.get("version", -1), "versions only grow"
            self.state = data
        else:
            self.answers.append(data)
        return data

    async def request(self, checked=True, **data) -> dict:
        request_id = await self.send(checked, **data)
        while not any(a.get("id") == request_id for a in self.answers):
            await self.receive()
        return next(a for a in self.answers if a.get("id") == request_id)

    async def reach(self, version: int) -> dict:
        while self.state.get("version", -1) < version:
            await self.receive()
        return self.state


async def table_version(table) -> int:
    return (await Table.objects.aget(pk=table.pk)).version


async def test_a_long_game_speaks_the_published_protocol(document, players, table):
    checker = FrameChecker(document)
    alice, bob, _ = players
    for seat, player in enumerate((alice, bob)):
        await sync_to_async(seat_take)(table=table, player=player, buy_in=200, seat_number=seat)
    keys = [(await Token.objects.acreate(user=p.user)).key for p in (alice, bob)]

    by_header = communicator(
        table.pk,
        None,
        origin=None,
        query="state=json",
        headers={"Authorization": f"Token {keys[0]}"},
    )
    by_frame = communicator(table.pk, None, origin=None, query="state=json")
    assert (await by_header.connect())[0] and (await by_frame.connect())[0]
    a = Program("alice", by_header, checker, 0)
    b = Program("bob", by_frame, checker, 1)
    login = await b.request(op="auth", token=keys[1])
    assert login["error"] is False
    clients = (a, b)
    rng = random.Random(18)
    bot = RandomBot(random.Random(7))

    # Refusals of every kind, each answered with a documented code.
    assert (await a.request(checked=False, op="dance"))["code"] == "bad_request"
    assert (await a.request(checked=False, op="top_up", amount="-5"))["code"] == "invalid_number"
    assert (await a.request(op="take_seat", buy_in=100))["code"] == "already_seated"
    assert (await a.request(op="act", kind="check", hand=1, version=0))["error"] is True
    await a.comm.send_to(text_data="{not json")
    while not a.answers or a.answers[-1]["code"] != "bad_request" or "id" in a.answers[-1]:
        await a.receive()

    played = 0
    while played < HANDS:
        # Between hands: players top up or sit down again; now and then someone steps away.
        for client in clients:
            await client.reach(await table_version(table))
            if not client.state["me"]["seated"]:  # went broke: the seat went with the chips
                answer = await client.request(op="take_seat", buy_in=200)
                assert answer["error"] is False, answer
            elif client.state["me"]["stack"] < 200:
                answer = await client.request(op="top_up", amount=200 - client.state["me"]["stack"])
                assert answer["error"] is False, answer
        if played == 5:  # chat: every socket gets the line as a chat frame
            assert (await a.request(op="chat", text="gl <b>all</b>"))["error"] is False
            answer = await b.request(op="chat_mute", player=alice.pk, muted=1)
            assert answer["code"] == "not_host"  # only the host mutes
        if played == 10:
            assert (await b.request(op="sit_out"))["error"] is False
            assert (await b.request(op="sit_in"))["error"] is False
        if played == 20:
            left_with = b.state["me"]["stack"]
            assert (await b.request(op="leave"))["error"] is False
            # Back within the hour: at least what bob left with (as text, as a form sends it).
            answer = await b.request(op="take_seat", buy_in=str(left_with), seat="")
            assert answer["error"] is False, answer
        await sync_to_async(hand_start)(table=table)
        played += 1
        while True:
            version = await table_version(table)
            states = [await client.reach(version) for client in clients]
            if not states[0]["running"]:
                break
            actor = next((c for c in clients if c.state["view"]["legal"] is not None), None)
            assert actor is not None, "a running hand has someone to act"
            other = b if actor is a else a
            if rng.random() < 0.1:  # out of turn: refused, nothing changes
                answer = await other.request(
                    op="act", kind="call", hand=other.state["hand"], version=version
                )
                assert answer["error"] is True
            action = bot.decide(actor.state["view"])
            fields = {"kind": str(action.kind), "hand": actor.state["hand"], "version": version}
            if action.amount is not None:
                fields["amount"] = action.amount
            if rng.random() < 0.3:  # as a form sends them: numbers as text
                fields = {k: str(v) if k != "kind" else v for k, v in fields.items()}
            answer = await actor.request(op="act", **fields)
            assert answer["error"] is False, answer
            if rng.random() < 0.05:  # the same frame again: stale now
                stale = await actor.request(op="act", **fields)
                assert stale["error"] is True

    for client in clients:
        await client.comm.disconnect()
    assert played == HANDS
    assert checker.sent > HANDS * 2 and checker.received > HANDS * 4
    assert {"state", "chat", "answer:ok", "answer:bad_request", "answer:invalid_number"} <= set(
        checker.kinds
    )
    assert any(
        kind.startswith("answer:")
        and kind[7:] in ("stale_version", "not_your_turn")
        or kind == "answer:refused"
        for kind in checker.kinds
    ), checker.kinds


def test_every_operation_and_close_code_is_published(document):
    names = {ref["$ref"].rsplit("/", 1)[1] for ref in document["operations"]["request"]["messages"]}
    requests = (*protocol.SOCKET_REQUESTS, *OPERATIONS)
    assert names == {f"{op}Request" for op in requests}
    assert set(REQUESTS) == set(requests)
    assert {int(code) for code in document["x-close-codes"]} == {
        protocol.NOT_LOGGED_IN,
        protocol.NO_SUCH_TABLE,
        protocol.TOO_MANY_SOCKETS,
        protocol.FLOODING,
        protocol.FRAME_TOO_BIG,
        protocol.SERVER_TROUBLE,
        protocol.SERVER_BUSY,
    }
    assert document["asyncapi"].startswith("3.") and document["info"]["version"] == "1"


@pytest.mark.parametrize(
    "frame",
    [
        {"op": "act", "kind": "raise", "hand": 1, "version": 3},  # a raise without its amount
        {"op": "act", "kind": "bet", "hand": 1, "version": 3},
        {"op": "act", "kind": "call", "version": 3},
        {"op": "top_up", "amount": "1e3"},
        {"op": "take_seat", "buy_in": 100, "seat": 99},
        {"op": "auth"},
        {"op": "dance"},
        {"kind": "call"},
    ],
)
def test_the_published_schemas_refuse_what_the_server_refuses(document, frame):
    with pytest.raises(ValidationError):
        FrameChecker(document).sent_frame(frame)


@pytest.mark.parametrize(
    "frame",
    [
        {"type": "answer", "message": "No.", "error": True},  # a refusal without its code
        {"type": "answer", "message": "No.", "error": True, "code": "Not a code!"},
        {"type": "state", "version": 1},
    ],
)
def test_the_published_schemas_refuse_malformed_server_frames(document, frame):
    with pytest.raises(ValidationError):
        FrameChecker(document).received_frame(json.dumps(frame))


def test_the_api_docs_link_the_protocol(db):
    schema = Client().get("/api/schema/?format=json").json()
    assert schema["externalDocs"]["url"] == "/api/asyncapi.json"
