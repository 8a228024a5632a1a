"""A process told to stop (``TableRuntime.drain``, on SIGTERM: ``pokersite.draining``) hands its
tables over between hands: the lease given up, the sockets closed with 4013 so that their
clients reconnect to another process; a hand still running when the wait is over is handed over
as it is. Meanwhile no socket joins and no lease is taken. On a listening socket the process
does not own (systemd's ``poker@.socket``), every socket is kept until no table is in a hand,
and meanwhile no new hand is dealt: then all go at once, to the next process on that socket."""

import asyncio

import pytest

from tables.live import ownership as runtime_module
from tables.live.consumer import TableConsumer
from tables.live.in_turn import tick_in_turn
from tables.live.protocol import SERVER_BUSY
from tables.live.runtime import TableRuntime
from tables.models import Hand, TableLease
from tests.tables.live.test_table_runtime import dealt
from tests.tables.wsclient import Socket, closed_with, communicator, refused_with

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False


@pytest.fixture(autouse=True)
def not_draining(monkeypatch):
    """Each test's process starts serving (a drain leaves the class flag set)."""
    monkeypatch.setattr(TableRuntime, "draining", False)


@pytest.fixture
def looks(monkeypatch):
    """How many times the drain has looked at each table (``_hand_over`` in its turn)."""
    seen: list[int] = []
    real = TableRuntime._hand_over

    async def counted(self, mid_hand):
        seen.append(self.table_id)
        return await real(self, mid_hand)

    monkeypatch.setattr(TableRuntime, "_hand_over", counted)
    monkeypatch.setattr(runtime_module, "DRAIN_LOOK_SECONDS", 0.01)
    return seen


async def until(condition, timeout: float = 10) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


async def test_a_table_is_handed_over_once_its_hand_is_over(table, players, cookies, looks):
    sockets = await dealt(table, players, cookies)
    runtime = TableRuntime.following(table.pk)
    assert runtime.owner
    drain = asyncio.ensure_future(TableRuntime.drain(wait_seconds=3600))
    await until(lambda: len(looks) >= 2)  # looked twice while the hand goes on: kept
    lease = await TableLease.objects.aget(table_id=table.pk)
    assert not drain.done() and lease.owner != "" and runtime.owner
    # A new socket is refused meanwhile: its client reconnects (to another process).
    assert await refused_with(communicator(table.pk, cookies[2])) == SERVER_BUSY

    hand = await Hand.objects.filter(table=table).alatest("number")
    for socket in sockets:  # whoever's turn it is folds: the hand is over
        await socket.act("fold", version=runtime.version, hand=hand.pk)
    await asyncio.wait_for(drain, 10)

    for socket in sockets:
        assert await closed_with(socket.comm) == SERVER_BUSY
    lease = await TableLease.objects.aget(table_id=table.pk)
    assert lease.owner == ""  # another process takes it at once
    assert TableRuntime.following(table.pk) is None
    assert (await Hand.objects.aget(pk=hand.pk)).status == Hand.Status.FINISHED


async def test_a_hand_still_running_when_the_wait_is_over_goes_as_it_is(
    table, players, cookies, looks
):
    sockets = await dealt(table, players, cookies)
    await asyncio.wait_for(TableRuntime.drain(wait_seconds=0), 10)
    for socket in sockets:
        assert await closed_with(socket.comm) == SERVER_BUSY
    assert (await TableLease.objects.aget(table_id=table.pk)).owner == ""
    assert await Hand.objects.filter(table=table, status=Hand.Status.RUNNING).aexists()


async def test_a_draining_runtime_takes_no_lease(table, players, cookies):
    sockets = await dealt(table, players, cookies)
    runtime = TableRuntime.following(table.pk)
    TableRuntime.draining = True
    await runtime.call(lambda: runtime._hand_over(mid_hand=True))
    assert not await runtime._take_if_free()
    assert (await TableLease.objects.aget(table_id=table.pk)).owner == ""
    for socket in sockets:
        await socket.close()


async def test_on_a_held_socket_every_table_waits_for_the_last_hand_then_all_go_at_once(
    table, players, cookies, make_table, monkeypatch
):
    monkeypatch.setattr(runtime_module, "DRAIN_LOOK_SECONDS", 0.01)
    sockets = await dealt(table, players, cookies)
    playing = TableRuntime.following(table.pk)
    side = await asyncio.to_thread(make_table, name="Side")  # between hands: no hand dealt
    watcher = await Socket("watcher", communicator(side.pk, cookies[2])).connect()
    waiting = TableRuntime.following(side.pk)
    assert playing.owner and waiting.owner and not waiting.mid_hand

    drain = asyncio.ensure_future(TableRuntime.drain(wait_seconds=3600, socket_held=True))
    await asyncio.sleep(0.2)  # many looks of the drain: the hand at the first table goes on
    assert not drain.done()
    # The table between hands keeps its socket and its lease, and is dealt no new hand.
    assert waiting.sockets and waiting.epoch is not None
    dealt_here: list[int] = []
    await tick_in_turn(side.pk, lambda live: dealt_here.append(side.pk))
    assert dealt_here == []

    hand = await Hand.objects.filter(table=table).alatest("number")
    for socket in sockets:  # whoever's turn it is folds: the last hand is over
        await socket.act("fold", version=playing.version, hand=hand.pk)
    await asyncio.wait_for(drain, 10)
    for comm in [s.comm for s in sockets] + [watcher.comm]:
        assert await closed_with(comm) == SERVER_BUSY
    leases = [lease.owner async for lease in TableLease.objects.all()]
    assert leases == ["", ""]  # the next process takes them at once


async def test_on_a_held_socket_no_player_goes_before_every_table_is_handed_over(
    table, players, cookies, make_table, monkeypatch
):
    """The players wait in the held socket's backlog from the moment they go: none go while
    another table's hand-over (a write, slow on a loaded host) is still to come."""
    monkeypatch.setattr(runtime_module, "DRAIN_LOOK_SECONDS", 0.01)
    first = await asyncio.to_thread(make_table, name="First")
    second = await asyncio.to_thread(make_table, name="Second")
    watchers = [  # kept: a socket nobody holds is collected, and its runtime ends
        await Socket("watcher", communicator(side.pk, cookie)).connect()
        for side, cookie in ((first, cookies[0]), (second, cookies[1]))
    ]
    events: list[tuple[str, int]] = []
    hand_over, close = TableRuntime._hand_over, TableConsumer.close

    async def slow_hand_over(self, mid_hand):
        if self.table_id == second.pk:
            await asyncio.sleep(0.3)  # the second table's write comes late
        going = await hand_over(self, mid_hand)
        events.append(("handed over", self.table_id))
        return going

    async def recorded_close(self, code=None, reason=None):
        events.append(("closed", self.table_id))
        await close(self, code=code, reason=reason)

    monkeypatch.setattr(TableRuntime, "_hand_over", slow_hand_over)
    monkeypatch.setattr(TableConsumer, "close", recorded_close)
    await asyncio.wait_for(TableRuntime.drain(wait_seconds=3600, socket_held=True), 10)
    kinds = [kind for kind, _ in events]
    assert sorted(events) == sorted(
        [("handed over", first.pk), ("handed over", second.pk), ("closed", first.pk)]
        + [("closed", second.pk)]
    )
    assert kinds == ["handed over", "handed over", "closed", "closed"], events
    for watcher in watchers:
        assert await closed_with(watcher.comm) == SERVER_BUSY
