"""``?state=json&answers=inline``: a request carried out is answered inside the state or update
frame it brings its sender (``"answer"``), with no answer frame of its own; the other sockets'
frames carry no answer; a refusal, and a success that sends the sender no frame, are answered
alone as without the flag (whose own answers the other socket tests cover). Every frame is
checked against the published protocol (``/api/asyncapi.json``)."""

from __future__ import annotations

import asyncio
import itertools
import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.test import Client
from django.utils import timezone
from prometheus_client import REGISTRY

from tables.models import Table, TableLease
from tables.services import hand_start, seat_take
from tests.frames import FrameChecker
from tests.tables.helpers import actor, current_hand
from tests.tables.wsclient import communicator, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

INLINE = "answers=inline"


@pytest.fixture(autouse=True)
def quiet_table(settings, monkeypatch):
    settings.POKER_CROUPIER = False  # the tests deal themselves
    seeds = itertools.count(1)
    monkeypatch.setattr("tables.services.hands.new_seed", lambda: f"{next(seeds):064x}")


@pytest.fixture
def checker(db) -> FrameChecker:
    return FrameChecker(Client().get("/api/asyncapi.json").json())


@pytest.fixture
def dealt(players, table):
    """alice and bob seated and dealt in (carol watches); every viewer's session cookie."""
    alice, bob, _ = players
    seat_take(table=table, player=alice, buy_in=200, seat_number=0)
    seat_take(table=table, player=bob, buy_in=200, seat_number=1)
    hand_start(table=table)
    return table, {p.name: session_cookie(p.user) for p in players}


class Program:
    """A ``?state=json`` socket keeping every frame it received, each checked."""

    def __init__(self, table_id: int, cookie: str, query: str, checker: FrameChecker) -> None:
        self.comm = communicator(table_id, cookie, query=query)
        self.checker = checker
        self.frames: list[dict] = []

    async def open(self) -> Program:
        assert (await self.comm.connect(timeout=10))[0]
        await self.until(lambda frame: frame["type"] == "state")
        return self

    async def until(self, found) -> dict:
        while True:
            frame = self.checker.received_frame(await self.comm.receive_from(timeout=5))
            self.frames.append(frame)
            if found(frame):
                return frame

    async def send(self, **request) -> None:
        await self.comm.send_to(text_data=json.dumps(self.checker.sent_frame(request)))

    async def nothing_more(self) -> None:
        assert await self.comm.receive_nothing(timeout=0.3), "a frame nobody expected"


def table_frame_at(version: int):
    return lambda frame: frame["type"] in ("state", "update") and frame["version"] >= version


async def table_version(table) -> int:
    return (await Table.objects.aget(pk=table.pk)).version


async def to_act(table) -> str:
    return await sync_to_async(lambda: actor(current_hand(table)).name)()


def accepted() -> float:
    return REGISTRY.get_sample_value("poker_actions_total", {"result": "accepted"}) or 0.0


@pytest.mark.parametrize("diff", ["&frames=diff", ""], ids=["updates", "whole states"])
async def test_an_action_is_answered_in_the_frame_it_brings_its_sender(dealt, checker, diff):
    table, cookies = dealt
    name = await to_act(table)
    other = "bob" if name == "alice" else "alice"
    sender = await Program(table.pk, cookies[name], f"state=json{diff}&{INLINE}", checker).open()
    # The sender's second socket (its frames the very same texts), another player's with the
    # flag, and a spectator's without it: no answer for them.
    others = [
        await Program(table.pk, cookies[name], f"state=json{diff}&{INLINE}", checker).open(),
        await Program(table.pk, cookies[other], f"state=json{diff}&{INLINE}", checker).open(),
        await Program(table.pk, cookies["carol"], f"state=json{diff}", checker).open(),
    ]
    version = await table_version(table)
    hand = (await sync_to_async(current_hand)(table)).pk
    before = accepted()

    await sender.send(op="act", hand=hand, version=version, kind="call", id=7)
    frame = await sender.until(table_frame_at(version + 1))

    assert frame["type"] == ("update" if diff else "state")
    assert frame["answer"] == {"message": "", "error": False, "id": 7}
    assert not [f for f in sender.frames if f["type"] == "answer" and f.get("id") == 7]
    await sender.nothing_more()  # nor after it
    assert accepted() == before + 1
    for program in others:
        seen = await program.until(table_frame_at(version + 1))
        assert "answer" not in seen
        assert not [f for f in program.frames if f["type"] == "answer"]
    for program in (sender, *others):
        await program.comm.disconnect()


async def test_a_refusal_is_still_an_answer_frame_of_its_own(dealt, checker):
    table, cookies = dealt
    name = "bob" if await to_act(table) == "alice" else "alice"  # not their turn
    query = f"state=json&frames=diff&{INLINE}"
    program = await Program(table.pk, cookies[name], query, checker).open()
    hand = (await sync_to_async(current_hand)(table)).pk

    await program.send(op="act", hand=hand, version=await table_version(table), kind="call", id=3)
    answer = await program.until(lambda frame: frame["type"] == "answer")

    assert answer["id"] == 3 and answer["error"] is True and answer["code"]
    await program.nothing_more()  # nothing changed: no update
    await program.comm.disconnect()


async def test_a_success_that_sends_its_sender_no_frame_is_answered_alone(dealt, checker):
    """A chat line changes no version of the table: no state or update goes out, so the
    answer goes alone once the request is done."""
    table, cookies = dealt
    query = f"state=json&frames=diff&{INLINE}"
    program = await Program(table.pk, cookies["alice"], query, checker).open()
    before = accepted()

    await program.send(op="chat", text="gl", id="hello")
    answer = await program.until(lambda frame: frame["type"] == "answer")

    assert answer == {"type": "answer", "message": "", "error": False, "id": "hello"}
    assert not [f for f in program.frames if f["type"] in ("state", "update")][1:]
    assert accepted() == before + 1
    await program.comm.disconnect()


async def test_a_request_forwarded_to_the_owner_elsewhere_is_answered_alone(dealt, checker):
    """A process that does not run the table forwards the request to the owner's channel and
    relays the owner's answer: no frame of the new version goes out here meanwhile (it comes
    once the owner publishes it), so the answer goes alone, with the request's id."""
    table, cookies = dealt
    layer = get_channel_layer()
    owner = await layer.new_channel()  # the owner's runtime, in another process
    await TableLease.objects.acreate(
        table=table, owner="elsewhere", channel=owner, until=timezone.now() + timedelta(minutes=1)
    )
    query = f"state=json&frames=diff&{INLINE}"
    program = await Program(table.pk, cookies["alice"], query, checker).open()

    await program.send(op="chat", text="gl", id=5)
    forwarded = await asyncio.wait_for(layer.receive(owner), 5)
    while forwarded["type"] != "runtime.request":  # a follower says it follows first
        forwarded = await asyncio.wait_for(layer.receive(owner), 5)
    assert forwarded["data"]["op"] == "chat"
    reply = {"type": "runtime.reply", "id": forwarded["id"], "message": "Said elsewhere."}
    await layer.send(forwarded["reply_to"], reply)
    answer = await program.until(lambda frame: frame["type"] == "answer")

    assert answer == {"type": "answer", "message": "Said elsewhere.", "error": False, "id": 5}
    assert not [f for f in program.frames if f["type"] != "answer" and "answer" in f]
    await program.comm.disconnect()
