"""The table socket with several users: everyone gets each update; refused actions change
nothing and only their sender hears why; unknown tables are closed with a code (logged-out
visitors watch: ``test_spectators.py``), foreign origins refused at the handshake; floods,
oversized and malformed frames are answered or closed while the table goes on. (More
attacks: ``test_socket_hardening.py``.)"""

import re

import pytest
from asgiref.sync import sync_to_async

from tables.models import HandAction, Table
from tables.selectors.hands import hand_state
from tables.services import hand_start, seat_take
from tests.tables.helpers import actor, current_hand
from tests.tables.wsclient import (
    Socket,
    closed_with,
    communicator,
    refused_with,
    session_cookie,
    version_of,
)

pytestmark = pytest.mark.django_db(transaction=True)

MESSAGE = re.compile(r'<div id="table-message"[^>]*>(.*?)</div>', re.S)


def message_of(frame: str) -> str | None:
    if 'id="table-seats"' in frame:  # a state frame, not an answer
        return None
    match = MESSAGE.search(frame)
    return match.group(1).strip() if match else None


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False  # the tests drive every change themselves


@pytest.fixture
def seated(players, table):
    alice, bob, carol = players
    seat_take(table=table, player=alice, buy_in=200, seat_number=0)
    seat_take(table=table, player=bob, buy_in=200, seat_number=1)
    cookies = {p.name: session_cookie(p.user) for p in players}
    return table, players, cookies


async def open_sockets(table, cookies):
    sockets = {}
    for name in ("alice", "bob", "carol"):
        sockets[name] = await Socket(name, communicator(table.pk, cookies[name])).connect()
    return sockets


async def close_all(sockets):
    for s in sockets.values():
        await s.close()


async def start_hand(table, sockets):
    hand = await sync_to_async(hand_start)(table=table)
    version = await sync_to_async(lambda: Table.objects.get(pk=table.pk).version)()
    for s in sockets.values():
        await s.until_version(version)
    return hand


async def who_acts(table):
    return await sync_to_async(lambda: actor(current_hand(table)).name)()


async def answer(socket) -> str:
    frame = await socket.until(lambda f: message_of(f) is not None)
    return message_of(frame)


async def test_everyone_gets_each_update(seated):
    table, players, cookies = seated
    sockets = await open_sockets(table, cookies)
    await start_hand(table, sockets)
    name = await who_acts(table)
    before = sockets[name].version
    await sockets[name].act("call")
    assert await answer(sockets[name]) == ""
    for s in sockets.values():
        frame = await s.until_version(before + 1)
        assert "calls" in frame  # the log line reached everyone
    assert {s.version for s in sockets.values()} == {before + 1}
    await close_all(sockets)


async def test_the_message_line_is_only_sent_to_say_or_clear_something(seated):
    table, players, cookies = seated
    sockets = await open_sockets(table, cookies)
    await start_hand(table, sockets)
    me = sockets[await who_acts(table)]
    await me.act("call", version=me.version - 1)  # stale: the sender is told
    assert "changed since you saw it" in await answer(me)
    before = me.version
    await me.act("call")
    assert await answer(me) == ""  # clears the error
    await me.until_version(before + 1)
    while sockets[await who_acts(table)] is not me:  # the other player: check or call
        other = sockets[await who_acts(table)]
        await other.until_version(me.version)
        seen = other.version
        await other.act("check" if await sync_to_async(_can_check)(table) else "call")
        await me.until_version(seen + 1)
    before, seen = me.version, len(me.frames)
    await me.act("check" if await sync_to_async(_can_check)(table) else "call")
    await me.until_version(before + 1)  # taken: the update says so, no empty message line
    await me.drain()
    assert [message_of(f) for f in me.frames[seen:]] == [None] * len(me.frames[seen:])
    await close_all(sockets)


def _can_check(table) -> bool:
    return hand_state(current_hand(table)).legal.check


async def test_stale_and_repeated_actions_change_nothing_and_only_the_sender_is_told(seated):
    table, players, cookies = seated
    sockets = await open_sockets(table, cookies)
    await start_hand(table, sockets)
    name = await who_acts(table)
    me = sockets[name]
    seen = me.version
    await me.act("call", version=seen - 1)  # stale
    assert "changed since you saw it" in await answer(me)
    await me.act("call", version=seen)
    await me.until_version(seen + 1)
    await me.act("call", version=seen)  # the same frame again: repeated
    assert "changed since you saw it" in await answer(me)
    count = await sync_to_async(HandAction.objects.count)()
    assert count == 1
    others = [s for n, s in sockets.items() if n != name]
    for s in others:
        await s.until_version(seen + 1)
        assert all(message_of(f) is None for f in await s.drain())
    await close_all(sockets)


async def test_out_of_turn_and_foreign_seat_actions_are_refused(seated):
    table, players, cookies = seated
    sockets = await open_sockets(table, cookies)
    await start_hand(table, sockets)
    name = await who_acts(table)
    other = "bob" if name == "alice" else "alice"
    version = sockets[other].version
    await sockets[other].act("call")
    assert "not your turn" in await answer(sockets[other])
    # a frame naming the actor's seat or player still acts as the sender only
    await sockets[other].send(
        op="act",
        kind="call",
        hand=str(sockets[other].hand),
        version=str(version),
        seat="0",
        player=name,
    )
    assert "not your turn" in await answer(sockets[other])
    await sockets["carol"].act("call")  # a spectator, not in the hand
    assert "not in hand" in await answer(sockets["carol"])
    assert await sync_to_async(HandAction.objects.count)() == 0
    assert await sync_to_async(lambda: Table.objects.get(pk=table.pk).version)() == version
    await close_all(sockets)


async def test_illegal_amounts_are_refused_with_the_rule(seated):
    table, players, cookies = seated
    sockets = await open_sockets(table, cookies)
    await start_hand(table, sockets)
    me = sockets[await who_acts(table)]
    await me.act("raise", 3)
    assert "below the minimum" in await answer(me)
    await me.act("raise", None)
    assert "whole number" in await answer(me)
    assert await sync_to_async(HandAction.objects.count)() == 0
    await close_all(sockets)


async def test_seat_requests_over_the_socket(seated):
    table, players, cookies = seated
    sockets = await open_sockets(table, cookies)
    carol = sockets["carol"]
    await carol.send(op="take_seat", seat="4", buy_in="1")
    assert "Buy in for" in await answer(carol)
    await carol.send(op="take_seat", seat="4", buy_in="100")
    assert "sat down" in await answer(carol)
    frame = await carol.until(
        lambda f: 'id="seat-4"' in f and "carol" in f.split('id="seat-4"')[1][:900]
    )
    assert "Sit out" in frame
    await carol.send(op="sit_out")
    assert "sitting out" in await answer(carol)
    await carol.send(op="sit_in")
    assert "Welcome back" in await answer(carol)
    await carol.send(op="top_up", amount="50")
    assert "Chips added" in await answer(carol)
    await carol.send(op="leave")
    assert "left the table" in await answer(carol)
    await carol.send(op="dance")
    assert "Unknown request" in await answer(carol)
    await close_all(sockets)


async def test_foreign_origins_are_refused(seated):
    table, players, cookies = seated
    comm = communicator(table.pk, cookies["alice"], origin="http://evil.example")
    connected, _ = await comm.connect()
    assert not connected
    ok = communicator(table.pk, cookies["alice"])
    connected, _ = await ok.connect()
    assert connected
    await ok.disconnect()


async def test_unknown_table_is_closed_with_4404(seated):
    table, players, cookies = seated
    assert await refused_with(communicator(table.pk + 999, cookies["alice"])) == 4404


async def test_malformed_oversized_and_flooding_sockets_while_the_table_goes_on(seated):
    table, players, cookies = seated
    sockets = await open_sockets(table, cookies)
    await start_hand(table, sockets)
    carol = sockets["carol"]
    await carol.comm.send_to(text_data="{not json")
    assert "Malformed" in await answer(carol)
    await carol.comm.send_to(text_data="[1, 2]")
    assert "JSON object" in await answer(carol)
    await carol.comm.send_to(bytes_data=b"\x00\x01")
    assert "Binary" in await answer(carol)
    # a flood: answered once with "slow down", then closed
    for _ in range(60):
        await carol.send(op="sit_out")
    frames = []
    while True:
        output = await carol.comm.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            assert output["code"] == 4008
            break
        frames.append(output["text"])
    assert sum("slow down" in f for f in frames) == 1
    # oversized: closed at once
    big = await Socket("bob2", communicator(table.pk, cookies["bob"])).connect()
    await big.comm.send_to(text_data="x" * 10000)
    assert await closed_with(big.comm) == 4009
    # the table goes on: the actor still acts and everyone still connected hears it
    name = await who_acts(table)
    before = sockets[name].version
    await sockets[name].act("call")
    for n in ("alice", "bob"):
        await sockets[n].until_version(before + 1)
    await sockets["alice"].close()
    await sockets["bob"].close()


async def test_reconnecting_shows_the_same_state(seated):
    table, players, cookies = seated
    sockets = await open_sockets(table, cookies)
    await start_hand(table, sockets)
    first = sockets["alice"].frames[-1]
    await sockets["alice"].close()
    again = await Socket("alice", communicator(table.pk, cookies["alice"])).connect()
    assert version_of(again.frames[-1]) == version_of(first)
    assert again.frames[-1] == first
    await again.close()
    await sockets["bob"].close()
    await sockets["carol"].close()


async def test_a_watchers_bankroll_is_not_read_on_every_change(seated, monkeypatch):
    from tables.live import consumer

    reads = []
    real = consumer.player_bankroll
    monkeypatch.setattr(consumer, "player_bankroll", lambda pk: reads.append(pk) or real(pk))
    table, players, cookies = seated
    alice, bob, carol = players
    sockets = await open_sockets(table, cookies)
    assert reads.count(carol.pk) == 1  # carol watches: read once at connect
    await start_hand(table, sockets)
    for _ in range(2):
        name = await who_acts(table)
        seen = await sync_to_async(lambda: Table.objects.get(pk=table.pk).version)()
        if sockets[name].version < seen:
            await sockets[name].until_version(seen)
        await sockets[name].act("call" if not await sync_to_async(_can_check)(table) else "check")
        await sockets["carol"].until_version(seen + 1)
    assert reads.count(carol.pk) == 1 and alice.pk not in reads  # seated: with the snapshot
    await close_all(sockets)


async def test_a_json_socket_answers_each_request_with_its_id(seated):
    """Two requests in flight on a ``?state=json`` socket: each answer names its request."""
    import json

    table, players, cookies = seated
    sockets = await open_sockets(table, cookies)
    await start_hand(table, sockets)
    name = await who_acts(table)
    seen = sockets[name].version
    comm = communicator(table.pk, cookies[name], query="state=json")
    assert (await comm.connect())[0]
    hand = json.loads(await comm.receive_from())["hand"]
    for request_id in ("first", 2):  # the second is stale once the first is applied
        await comm.send_to(
            text_data=json.dumps(
                {"op": "act", "hand": hand, "version": seen, "kind": "call", "id": request_id}
            )
        )
    for request_id in (["x" * 65], True, "x" * 65):  # not echoed: not a short id
        await comm.send_to(text_data=json.dumps({"op": "nothing", "id": request_id}))
    answers = []
    while len(answers) < 5:
        frame = json.loads(await comm.receive_from())
        if frame["type"] == "answer":
            answers.append(frame)
    assert [(a.get("id"), a["error"]) for a in answers] == [
        ("first", False),
        (2, True),
        (None, True),
        (None, True),
        (None, True),
    ]
    assert "changed since you saw it" in answers[1]["message"]
    await comm.disconnect()
    await close_all(sockets)
