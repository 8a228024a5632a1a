"""``TableRuntime``'s trips to the database threads: the table after a write the runtime
cannot build in memory (a hand's end, a deal, any command but an action) is read in the
write's own trip to its thread, right after it committed (``tables.live.runtime``); the
clock's tick of a table it runs is fenced by its lease, not preceded by a look at who
holds it."""

from collections import Counter
from datetime import datetime

import pytest
from asgiref.sync import sync_to_async
from django.db import OperationalError
from django.utils import timezone

from tables import croupier
from tables.croupier import _tick_owned_table, _tick_table
from tables.db.threads import work_cpu
from tables.live import ownership, refresh, runtime as runtime_module
from tables.live.runtime import TableRuntime
from tables.models import Hand, Table, TableLease
from tables.services import hand_start, seat_take
from tables.timers import write_tick
from tests.tables.wsclient import Socket, communicator, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False


@pytest.fixture(autouse=True)
def no_keep_up(monkeypatch):
    """The loop's clock (lease renewals, catch-up) stays out of the way: what a test sees
    is its own write's doing."""
    monkeypatch.setattr(ownership, "KEEP_UP_SECONDS", 3600)


@pytest.fixture
def trips(monkeypatch) -> Counter[str]:
    """The runtime's trips to the database threads, by kind: each call of the real
    ``write_async`` and ``read_async`` it makes (the wrapped functions run as ever)."""
    made: Counter[str] = Counter()

    def counted(kind, real):
        def start(*args, **kwargs):
            made[kind] += 1
            return real(*args, **kwargs)

        return start

    monkeypatch.setattr(runtime_module, "write_async", counted("write", runtime_module.write_async))
    monkeypatch.setattr(refresh, "read_async", counted("read", refresh.read_async))
    return made


@pytest.fixture
def lease_looks(monkeypatch) -> list[int]:
    """The tables the croupier asked who holds the lease of (``held_elsewhere``)."""
    looked: list[int] = []
    real = croupier.held_elsewhere

    def held_elsewhere(table_id: int) -> bool:
        looked.append(table_id)
        return real(table_id)

    monkeypatch.setattr(croupier, "held_elsewhere", held_elsewhere)
    return looked


async def seated(table, players) -> list[Socket]:
    """Alice and Bob seated and watching, no hand dealt yet: their sockets."""
    for number, player in enumerate(players[:2]):
        await sync_to_async(seat_take)(table=table, player=player, buy_in=200, seat_number=number)
    cookies = [await sync_to_async(session_cookie)(p.user) for p in players[:2]]
    return [
        await Socket(f"s{i}", communicator(table.pk, cookie)).connect()
        for i, cookie in enumerate(cookies)
    ]


async def clock_tick(table_id: int, now: datetime) -> str | None:
    """The table's clock, as the croupier's timers run it (in the runtime's turn here)."""
    return await write_tick(_tick_table, _tick_owned_table)(table_id, now)


async def test_a_deal_is_built_in_the_ticks_own_trip(table, players, trips, lease_looks):
    sockets = await seated(table, players)
    runtime = TableRuntime.following(table.pk)
    reads, version = runtime.reads, runtime.version
    trips.clear()
    ticks = work_cpu.calls["clock"]
    assert await clock_tick(table.pk, timezone.now()) == "started"
    assert work_cpu.calls["clock"] == ticks + 1  # its CPU time counted as the clock's
    stored = await Table.objects.aget(pk=table.pk)
    assert stored.version > version
    for socket in sockets:
        await socket.until_version(stored.version)
    assert runtime.snapshot.version == stored.version and runtime.snapshot.running
    assert runtime.reads == reads  # the new hand as the deal made it, not read...
    assert trips == {"write": 1}  # ...in the tick's own trip
    assert lease_looks == []  # the lease fences the tick: nobody asked who holds it
    for socket in sockets:
        await socket.close()


async def test_a_hand_that_ends_is_built_in_the_actions_own_trip(table, players, trips):
    sockets = await seated(table, players)
    await sync_to_async(hand_start)(table=table)
    stored = await Table.objects.aget(pk=table.pk)
    for socket in sockets:
        await socket.until_version(stored.version)
    runtime = TableRuntime.following(table.pk)
    hand = await Hand.objects.filter(table=table).alatest("number")
    actor = runtime.snapshot.hand.seats[runtime.snapshot.state.actor]["player_id"]
    acting = sockets[[p.pk for p in players].index(actor)]
    reads = runtime.reads
    trips.clear()
    acts, frames = work_cpu.calls["command act"], work_cpu.calls["frames"]
    await acting.act("fold", version=stored.version, hand=hand.pk)
    for socket in sockets:
        await socket.until_version(stored.version + 1)
    assert not runtime.snapshot.running  # the hand is over: as the action left it, not read
    assert runtime.reads == reads
    assert trips == {"write": 1}
    assert work_cpu.calls["command act"] == acts + 1  # its CPU time counted by its operation
    assert work_cpu.calls["frames"] >= frames + 2  # and each socket's frame of the new version
    for socket in sockets:
        await socket.close()


async def test_an_owner_whose_lease_was_taken_deals_nothing(table, players, lease_looks):
    sockets = await seated(table, players)
    runtime = TableRuntime.following(table.pk)
    assert runtime.epoch is not None
    await TableLease.objects.filter(table_id=table.pk).aupdate(
        owner="elsewhere", channel="nobody.listens", epoch=runtime.epoch + 1
    )
    before = await Table.objects.aget(pk=table.pk)
    assert await clock_tick(table.pk, timezone.now()) is None
    after = await Table.objects.aget(pk=table.pk)
    assert after.version == before.version  # nothing written
    assert not await Hand.objects.filter(table=table).aexists()
    assert runtime.epoch is None  # it no longer runs the table
    assert lease_looks == []
    lease = await TableLease.objects.aget(table_id=table.pk)
    assert lease.owner == "elsewhere"
    for socket in sockets:
        await socket.close()


async def test_a_read_failing_after_a_committed_write_leaves_the_request_done(
    table, players, monkeypatch
):
    sockets = await seated(table, players)
    runtime = TableRuntime.following(table.pk)
    before = await Table.objects.aget(pk=table.pk)
    real_load = runtime_module.load_snapshot

    def database_away(*args, **kwargs):
        raise OperationalError("the database went away")

    monkeypatch.setattr(runtime_module, "load_snapshot", database_away)
    alice = players[0]
    message = await runtime.request(alice.user, alice, {"op": "sit_out"})
    assert message  # answered as done, not refused
    after = await Table.objects.aget(pk=table.pk)
    assert after.version == before.version + 1  # done
    assert runtime.version == after.version and runtime.snapshot is None
    monkeypatch.setattr(runtime_module, "load_snapshot", real_load)  # the database is back
    await runtime.request(alice.user, alice, {"op": "sit_in"})  # the next change shows it
    stored = await Table.objects.aget(pk=table.pk)
    for socket in sockets:
        await socket.until_version(stored.version)
    for socket in sockets:
        await socket.close()
