"""The REST play API's moves and state go to the table's runtime in this process
(``tables.live.in_turn``), through the real ASGI application: an action is taken in the
runtime's turn on the hand it holds (nothing read, nothing replayed) and its next version
built and shown to the sockets, and the answer's state is made from the runtime's table, as a
read of the database would make it; a stale one is refused and changes nothing; a move with
an ``Idempotency-Key`` is carried out in the key's transaction, and the runtime reads it; a
runtime that follows the table forwards the move, its fields parsed, to the owner and answers
with the owner's refusal's status, and leaves the state to a read."""

import asyncio
import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import HttpCommunicator
from django.utils import timezone
from rest_framework.authtoken.models import Token

from tables.api import play
from tables.live.runtime import TableRuntime
from tables.models import HandAction, TableLease
from tables.selectors import held as held_reads
from tables.selectors.held import held_runners
from tables.selectors.snapshot import load_snapshot
from tables.services import hand_start, hands, seat_take
from tests.tables.helpers import Calls
from tests.tables.wsclient import Socket, communicator, owned_hand

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False


def as_read(table_id: int, player) -> dict:
    """The player's state as the play API makes it from a read of the database."""
    runners = list(held_runners)
    held_runners.clear()
    try:
        return play.state_for(table_id, player.user)
    finally:
        held_runners.extend(runners)


def timeless(state: dict) -> dict:
    return {**state, "clock": {**state["clock"], "seconds_left": None}}


async def post(table_id: int, player, body: dict, key: str | None = None):
    """``POST /api/tables/<id>/actions/`` with the player's token, through the ASGI app:
    (status, body, headers)."""
    from pokersite.asgi import application

    token = (await Token.objects.aget_or_create(user_id=player.user_id))[0].key
    data = json.dumps(body).encode()
    headers = [
        (b"host", b"testserver"),
        (b"content-length", str(len(data)).encode()),
        (b"authorization", f"Token {token}".encode()),
        (b"content-type", b"application/json"),
    ]
    if key is not None:
        headers.append((b"idempotency-key", key.encode()))
    http = HttpCommunicator(
        application,
        "POST",
        f"/api/tables/{table_id}/actions/",
        body=data,
        headers=headers,
    )
    response = await http.get_response(timeout=30)
    sent = {name.decode().lower(): value.decode() for name, value in response["headers"]}
    return response["status"], json.loads(response["body"]), sent


def a_call(snapshot) -> dict:
    return {"hand": snapshot.hand.pk, "version": snapshot.version, "action": "call"}


async def test_a_rest_action_is_taken_in_the_runtimes_turn_on_its_hand(
    table, players, cookies, monkeypatch
):
    socket, runtime, snapshot, actor = await owned_hand(table, players, cookies)
    replays = Calls(monkeypatch, hands, "hand_state")  # hand_act replaying a hand
    loads = Calls(monkeypatch, held_reads, "load_snapshot")  # the play API loading the table
    commands, reads = runtime.commands, runtime.reads
    try:
        status, state, _ = await post(table.pk, actor, a_call(snapshot))
        assert status == 200, state
        assert state["version"] == snapshot.version + 1
        assert runtime.commands == commands + 1  # the runtime's own command
        assert runtime.reads == reads  # the next version built from its hand
        assert replays.count == 0, "the action read and replayed the hand the runtime holds"
        assert loads.count == 0, "the answer's state was read, not made from the runtime's"
        assert timeless(state) == timeless(await sync_to_async(as_read)(table.pk, actor))
        await socket.until_version(state["version"])  # and shown to the sockets
        read = await sync_to_async(load_snapshot)(table.pk)
        assert runtime.snapshot.decisions == read.decisions
        # the same request again is stale: refused, nothing done
        status, refusal, _ = await post(table.pk, actor, a_call(snapshot))
        assert (status, refusal["code"]) == (409, "stale_version")
        assert await HandAction.objects.filter(hand_id=snapshot.hand.pk).acount() == 1
    finally:
        await socket.close()


async def test_a_rest_action_with_an_idempotency_key_is_done_in_the_keys_transaction(
    table, players, cookies, monkeypatch
):
    socket, runtime, snapshot, actor = await owned_hand(table, players, cookies)
    loads = Calls(monkeypatch, held_reads, "load_snapshot")  # the play API loading the table
    commands, reads = runtime.commands, runtime.reads
    try:
        status, state, _ = await post(table.pk, actor, a_call(snapshot), key="k-1")
        assert status == 200, state
        assert runtime.commands == commands  # by its service, in the key's transaction
        assert loads.count == 1  # and its state read there
        await socket.until_version(state["version"])
        assert runtime.reads == reads + 1  # a change the runtime did not make: read
        status, again, sent = await post(table.pk, actor, a_call(snapshot), key="k-1")
        assert (status, again, sent.get("idempotent-replayed")) == (200, state, "true")
        assert await HandAction.objects.filter(hand_id=snapshot.hand.pk).acount() == 1
    finally:
        await socket.close()


async def test_a_following_runtime_forwards_the_move_to_the_owner(table, players, cookies):
    layer = get_channel_layer()
    owner = await layer.new_channel()  # the owner, in another process
    await TableLease.objects.acreate(
        table=table, owner="elsewhere", channel=owner, until=timezone.now() + timedelta(minutes=1)
    )
    await sync_to_async(seat_take)(table=table, player=players[1], buy_in=200, seat_number=1)
    socket = await Socket("alice", communicator(table.pk, cookies[0])).connect()
    runtime = TableRuntime.following(table.pk)
    assert runtime is not None and runtime.epoch is None  # a follower
    await sync_to_async(hand_start)(table=table)
    snapshot = await sync_to_async(load_snapshot)(table.pk)
    try:
        for reply, expected in (
            ({"refused": "It is not your turn.", "code": "not_your_turn"}, 409),
            ({"message": ""}, 200),
        ):
            sent = asyncio.ensure_future(post(table.pk, players[1], a_call(snapshot)))
            while True:  # the owner hears the move (besides the follower's "I follow")
                request = await asyncio.wait_for(layer.receive(owner), 10)
                if request["type"] == "runtime.request":
                    break
            assert request["data"] == {"op": "act"}
            assert request["fields"] == {
                "hand_id": snapshot.hand.pk,
                "version": snapshot.version,
                "action": {"kind": "call", "amount": None},
            }
            await layer.send(
                request["reply_to"], {"type": "runtime.reply", "id": request["id"], **reply}
            )
            status, body, _ = await sent
            assert status == expected, body
            if expected == 409:
                assert body["code"] == "not_your_turn"
            else:  # a follower's table may be behind the owner's: the state is read
                assert body == {**body, "version": snapshot.version}
    finally:
        await socket.close()


async def test_the_state_is_made_from_the_owners_table_in_memory(
    table, players, cookies, monkeypatch
):
    socket, runtime, snapshot, actor = await owned_hand(table, players, cookies)
    loads = Calls(monkeypatch, held_reads, "load_snapshot")  # the play API loading the table
    try:
        for player in players:  # the two seated (one of them to act) and one watching
            status, state = await get_state(table.pk, player)
            assert status == 200, state
            assert loads.count == 0, "the state was read, not made from the runtime's"
            assert state["version"] == runtime.version
            expected = await sync_to_async(as_read)(table.pk, player)
            assert timeless(state) == timeless(expected)
            loads.count = 0  # (as_read's own)
        status, state = await get_state(table.pk, None)  # a visitor
        assert status == 200 and state["you"] is None and loads.count == 0
    finally:
        await socket.close()


async def get_state(table_id: int, player):
    """``GET /api/tables/<id>/state/`` (with the player's token; None: a visitor)."""
    from pokersite.asgi import application

    headers = [(b"host", b"testserver")]
    if player is not None:
        token = (await Token.objects.aget_or_create(user_id=player.user_id))[0].key
        headers.append((b"authorization", f"Token {token}".encode()))
    http = HttpCommunicator(application, "GET", f"/api/tables/{table_id}/state/", headers=headers)
    response = await http.get_response(timeout=30)
    await http.wait(timeout=30)
    return response["status"], json.loads(response["body"])


async def test_a_view_on_the_shared_sync_thread_reads_the_state_instead_of_waiting(
    table, players, cookies, monkeypatch
):
    """A view called by ``sync_to_async`` outside a request (a test's, a command's) runs on
    asgiref's one shared sync thread, which the runtime's SQLite work needs too: it reads the
    table instead of waiting for the runtime (which would wait out its limit)."""
    socket, runtime, snapshot, actor = await owned_hand(table, players, cookies)
    held = Calls(monkeypatch, TableRuntime, "held")
    loads = Calls(monkeypatch, held_reads, "load_snapshot")
    try:
        state = await sync_to_async(play.state_for)(table.pk, actor.user)
        assert state["version"] == runtime.version
        assert (held.count, loads.count) == (0, 1)  # read, the runtime not asked
        # A request has a thread of its own: the same state is made by the runtime.
        status, state = await get_state(table.pk, actor)
        assert status == 200 and (held.count, loads.count) == (1, 1)
    finally:
        await socket.close()
