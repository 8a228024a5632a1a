"""A table's runtime in a process that does not own the table (a follower), and the owner
serving it. A follower builds the owner's plain actions instead of reading the table: the
owner's ``table.changed`` says which action made a version it built in memory (never a
discard's cards), and a follower holding the version before builds the very same version on
its own engine hand; anything else (a message missed, an action it cannot take) it reads.
The owner reads a forwarded request's player once while it runs the table, and a process's
clock reads the leases of every table it follows in one query."""

import asyncio
import functools
import random
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.utils import timezone

from tables.live import ownership
from tables.live.refresh import acted_members
from tables.live.runtime import TableRuntime, written_and_read
from tables.models import Hand, Table, TableLease
from tables.selectors.snapshot import Snapshot, load_snapshot
from tables.services import hand_act, hand_start, seat_take
from tables.services.events import table_changed_event, table_group
from tables.services.live_hand import held_hand
from tests.tables.wsclient import Socket, communicator

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False


async def followed_hand(table, players, cookies) -> list[Socket]:
    """Three players seated, a hand dealt, the table's lease held by another process: every
    player's socket on this process's follower runtime, at the hand's version."""
    owner = await get_channel_layer().new_channel()  # the owner elsewhere
    await TableLease.objects.acreate(
        table=table, owner="elsewhere", channel=owner, until=timezone.now() + timedelta(minutes=1)
    )
    for number, player in ((1, players[1]), (2, players[2])):
        await sync_to_async(seat_take)(table=table, player=player, buy_in=200, seat_number=number)
    sockets = [
        await Socket(f"s{i}", communicator(table.pk, cookie)).connect()
        for i, cookie in enumerate(cookies)
    ]
    await sync_to_async(hand_start)(table=table)
    version = (await Table.objects.aget(pk=table.pk)).version
    for socket in sockets:
        await socket.until_version(version)
    runtime = TableRuntime.following(table.pk)
    assert runtime is not None and runtime.epoch is None  # a follower
    return sockets


def owner_acts(owner: Snapshot, players, choose) -> tuple[Snapshot, dict]:
    """One action of the player to act, as the owner's runtime makes it (``written_and_read``
    on its own hand in memory), and the ``table.changed`` it publishes to its followers."""
    state = owner.state
    assert state is not None and state.actor is not None
    index = state.actor
    player = next(p for p in players if owner.hand_index_of(p.pk) == index)
    live = held_hand(owner)
    write = functools.partial(
        hand_act,
        table=owner.table.pk,
        player=player,
        hand_id=owner.hand.pk,
        version=owner.version,
        action=choose(state),
        live=live,
    )
    written = written_and_read(owner.table.pk, write, owner, live)
    assert written.snapshot is not None
    event = table_changed_event(owner.table.pk, written.version)
    if written.same_hand:  # as ``TableRuntime._publish_and_show`` says it
        event.update(acted_members(written.snapshot))
    return written.snapshot, event


def a_legal_action(rng: random.Random):
    """Each time, one of the actor's legal actions (a raise to its least), drawn by ``rng``;
    a fold one time in eight."""

    def choose(state):
        legal = state.legal
        kinds = ["check"] if legal.check else ["call"]
        if legal.min_raise_to is not None:
            kinds.append("raise")
        if legal.fold and rng.random() < 0.125:
            return {"kind": "fold", "amount": None}
        kind = rng.choice(kinds)
        return {"kind": kind, "amount": legal.min_raise_to if kind == "raise" else None}

    return choose


def same_table(built: Snapshot, read: Snapshot) -> None:
    """Everything a screen is made of, the same in both."""
    assert built.version == read.version
    assert built.decisions == read.decisions
    assert built.table.action_deadline == read.table.action_deadline
    assert built.table.hand_version == read.table.hand_version
    assert {p: s.stack for p, s in built.seats.items()} == {
        p: s.stack for p, s in read.seats.items()
    }
    assert built.view_dict(None) == read.view_dict(None)
    for index in range(len(read.hand.seats)):
        assert built.view_dict(index) == read.view_dict(index)


async def test_a_follower_builds_the_owners_actions_and_reads_only_the_rest(
    table, players, cookies
):
    sockets = await followed_hand(table, players, cookies)
    runtime = TableRuntime.following(table.pk)
    layer = get_channel_layer()
    owner = await sync_to_async(load_snapshot)(table.pk)  # the owner's own, apart
    rng = random.Random(5)
    built_before = TableRuntime.totals["built"]
    built = reads = 0
    hands = 0
    while hands < 3:
        reads_before = runtime.reads
        owner, event = await sync_to_async(owner_acts)(owner, players, a_legal_action(rng))
        await layer.group_send(table_group(table.pk), event)
        for socket in sockets:
            await socket.until_version(event["version"])
        read = await sync_to_async(load_snapshot)(table.pk)
        if "acted" in event:
            assert runtime.reads == reads_before  # built on its own hand: nothing read
            built += 1
            same_table(runtime.snapshot, read)
        else:  # a hand's end or the betting over: read, as the owner did
            assert runtime.reads == reads_before + 1
            reads += 1
        if not owner.running:
            hands += 1
            await sync_to_async(hand_start)(table=table)
            version = (await Table.objects.aget(pk=table.pk)).version
            for socket in sockets:
                await socket.until_version(version)
            owner = await sync_to_async(load_snapshot)(table.pk)
    assert built >= 6 and reads >= 3
    assert TableRuntime.totals["built"] - built_before == built
    for socket in sockets:
        await socket.close()


async def test_a_follower_reads_what_it_cannot_build(table, players, cookies):
    """A message it missed (the version before is not the one it holds) and an action that
    is not the owner's hand's (never met: the hands are one log) are read."""
    sockets = await followed_hand(table, players, cookies)
    runtime = TableRuntime.following(table.pk)
    layer = get_channel_layer()
    owner = await sync_to_async(load_snapshot)(table.pk)
    rng = random.Random(1)
    owner, missed = await sync_to_async(owner_acts)(owner, players, a_legal_action(rng))
    owner, event = await sync_to_async(owner_acts)(owner, players, a_legal_action(rng))
    assert "acted" in missed and "acted" in event
    reads = runtime.reads
    await layer.group_send(table_group(table.pk), event)  # the one before never came
    for socket in sockets:
        await socket.until_version(event["version"])
    assert runtime.reads == reads + 1
    same_table(runtime.snapshot, await sync_to_async(load_snapshot)(table.pk))

    hand = await Hand.objects.filter(table=table).alatest("number")
    version = runtime.version
    owner, event = await sync_to_async(owner_acts)(owner, players, a_legal_action(rng))
    wrong = {**event, "acted": ["raise", 10**9, "player", event["acted"][3]]}
    await layer.group_send(table_group(table.pk), wrong)
    for socket in sockets:
        await socket.until_version(version + 1)
    assert runtime.reads == reads + 2
    same_table(runtime.snapshot, await sync_to_async(load_snapshot)(table.pk))
    assert runtime.snapshot.hand.pk == hand.pk
    await asyncio.sleep(0)
    for socket in sockets:
        await socket.close()


async def test_the_owner_reads_a_forwarded_requests_player_once(
    table, players, cookies, monkeypatch
):
    socket = await Socket("alice", communicator(table.pk, cookies[0])).connect()
    runtime = TableRuntime.following(table.pk)
    assert runtime.owner
    await sync_to_async(seat_take)(table=table, player=players[1], buy_in=200, seat_number=1)
    reads = []
    read = ownership.player_by_id

    def counted(player_id):
        reads.append(player_id)
        return read(player_id)

    monkeypatch.setattr(ownership, "player_by_id", counted)
    layer = get_channel_layer()
    elsewhere = await layer.new_channel()  # the follower's runtime in another process
    for n, op in enumerate(("sit_out", "sit_in"), start=1):
        request = {"op": op}
        await layer.send(
            runtime.channel,
            {
                "type": "runtime.request",
                "id": n,
                "reply_to": elsewhere,
                "player_id": players[1].pk,
                "data": request,
            },
        )
        reply = await asyncio.wait_for(layer.receive(elsewhere), 5)
        assert reply["id"] == n and "refused" not in reply, reply
        seat = await table.seats.aget(player=players[1])
        assert seat.sitting_out is (op == "sit_out")
    assert reads == [players[1].pk]
    await socket.close()


async def test_a_processs_clock_reads_the_leases_of_the_tables_it_follows_at_once(
    make_table, players, monkeypatch
):
    from tests.tables.wsclient import session_cookie

    tables = [await sync_to_async(make_table)(name=f"T{n}") for n in range(3)]
    owner = await get_channel_layer().new_channel()
    sockets = []
    for table in tables:
        await TableLease.objects.acreate(
            table=table,
            owner="elsewhere",
            channel=owner,
            until=timezone.now() + timedelta(minutes=1),
        )
        cookie = await sync_to_async(session_cookie)(players[0].user)
        sockets.append(await Socket(table.name, communicator(table.pk, cookie)).connect())
    asked = []
    owners = ownership.lease_owners

    def counted(table_ids, now=None):
        asked.append(sorted(table_ids))
        return owners(table_ids, now)

    monkeypatch.setattr(ownership, "lease_owners", counted)
    await TableRuntime.keep_up()
    assert asked == [sorted(table.pk for table in tables)]
    for table in tables:
        runtime = TableRuntime.following(table.pk)
        assert runtime.epoch is None and runtime.owner_channel == owner
    for socket in sockets:
        await socket.close()
