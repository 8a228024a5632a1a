"""``TableRuntime``: a table's one home in a process. It subscribes once to the table's group
however many of its sockets watch the table, and ends with the last socket; a channel layer
failing under it closes the sockets so that browsers reconnect. It holds the lease of the
table, acts on its hand in memory, reads the table again only for a change it did not make,
and cannot write once another process took its lease."""

import asyncio
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.utils import timezone

from tables.live import ownership as runtime_module
from tables.live.runtime import TableRuntime
from tables.models import Hand, Table, TableLease
from tables.selectors.snapshot import load_snapshot
from tables.services import hand_start, seat_take
from tables.services.events import local_listeners, table_changed_event, table_group
from tables.services.leases import PROCESS
from tables.timers import TableTimers
from tests.tables.wsclient import Socket, communicator, handled_to_the_end

pytestmark = pytest.mark.django_db(transaction=True)

MINUTE = timedelta(minutes=1)


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False


@pytest.fixture
def asgi_loaded():
    """The ASGI application imported before the test runs: its first import configures
    logging anew, which takes pytest's log capture (``caplog``) off the test that made it."""
    import pokersite.asgi  # noqa: F401


def in_process(layer) -> bool:
    return isinstance(layer, InMemoryChannelLayer)


async def group_members(layer, group: str) -> int:
    """How many subscribers the group has: channels in the in-memory layer; on Redis, the
    connections subscribed to the group's pub/sub channel (one per process that follows it)."""
    if in_process(layer):
        return len(layer.groups.get(group, {}))
    from redis.asyncio import Redis

    prefix = settings.CHANNEL_LAYERS["default"]["CONFIG"].get("prefix", "asgi")
    client = Redis.from_url(settings.REDIS_URL)
    try:
        ((_, count),) = await client.pubsub_numsub(f"{prefix}__group__{group}")
    finally:
        await client.aclose()
    return count


async def until(condition, timeout: float = 5) -> None:
    """Wait for ``condition()`` to hold (it is about something this process does next)."""
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


async def test_one_subscription_per_process_for_all_its_sockets(table, cookies):
    layer = get_channel_layer()
    sockets = [
        await Socket(f"s{i}", communicator(table.pk, c)).connect() for i, c in enumerate(cookies)
    ]
    runtime = TableRuntime.following(table.pk)
    assert runtime is not None and len(runtime.sockets) == 3
    assert await group_members(layer, table_group(table.pk)) == 1
    # One message on the layer reaches every socket.
    changed = sockets[0].version + 1
    await Table.objects.filter(pk=table.pk).aupdate(version=changed)
    await layer.group_send(table_group(table.pk), table_changed_event(table.pk, changed))
    for socket in sockets:
        await socket.until_version(changed, timeout=5)
    await sockets[0].close()
    assert TableRuntime.following(table.pk) is runtime and len(runtime.sockets) == 2
    for socket in sockets[1:]:
        await socket.close()
    assert TableRuntime.following(table.pk) is None
    await asyncio.wait({runtime.listener})
    assert await group_members(layer, table_group(table.pk)) == 0


async def test_a_failing_channel_layer_closes_the_runtimes_sockets(table, cookies, monkeypatch):
    layer = get_channel_layer()
    comms = [communicator(table.pk, c) for c in cookies[:2]]
    for comm in comms:
        await Socket("s", comm).connect()
    runtime = TableRuntime.following(table.pk)
    real_receive = layer.receive

    async def broken(channel):
        if channel == runtime.channel:
            raise ConnectionError("the channel layer went away")
        return await real_receive(channel)

    monkeypatch.setattr(layer, "receive", broken)
    # The runtime is waiting on the layer: the next message it takes, it asks again and fails.
    await layer.group_send(table_group(table.pk), {"type": "table.changed", "version": 0})
    for comm in comms:
        closed = await comm.receive_output(timeout=5)
        while closed["type"] != "websocket.close":
            closed = await comm.receive_output(timeout=5)
        assert closed["code"] == 4011  # a code a server may send: browsers reconnect
    assert TableRuntime.following(table.pk) is None
    # Nothing of the runtime or its sockets is still reading when the test's database is
    # emptied (on SQLite a read under way locks its table against the teardown's flush).
    await asyncio.wait({runtime.listener}, timeout=5)
    for comm in comms:
        await handled_to_the_end(comm)


async def test_a_socket_joining_puts_the_runtime_back_in_a_group_the_layer_forgot(table, cookies):
    """Redis restarting forgets every group while the runtime goes on waiting; the sockets it
    cut off reconnect, and each join adds the runtime to the group again."""
    layer = get_channel_layer()
    first = await Socket("first", communicator(table.pk, cookies[0])).connect()
    runtime = TableRuntime.following(table.pk)
    await layer.group_discard(table_group(table.pk), runtime.channel)  # what a restart does
    second = await Socket("second", communicator(table.pk, cookies[1])).connect()
    assert TableRuntime.following(table.pk) is runtime
    assert await group_members(layer, table_group(table.pk)) == 1
    # A change now reaches both sockets through the one runtime.
    changed = first.version + 1
    await Table.objects.filter(pk=table.pk).aupdate(version=changed)
    await layer.group_send(table_group(table.pk), table_changed_event(table.pk, changed))
    for socket in (first, second):
        await socket.until_version(changed, timeout=5)
    await first.close()
    await second.close()


async def test_a_first_state_the_database_failed_closes_the_socket_to_reconnect(
    table, cookies, monkeypatch
):
    """The database fails at the connect's snapshot read (after the reads before it): the
    socket is closed with the code that asks its client to reconnect, not left open with
    nothing on screen until the table next changes."""
    from django.db import OperationalError

    real_read = TableRuntime._read
    failed = []

    async def failing_first_read(self):
        if not failed:
            failed.append(self.table_id)
            raise OperationalError("the database went away")
        return await real_read(self)

    monkeypatch.setattr(TableRuntime, "_read", failing_first_read)
    comm = communicator(table.pk, cookies[0])
    connected, _ = await comm.connect(timeout=10)
    assert connected
    frame = await comm.receive_output(timeout=5)
    while frame["type"] != "websocket.close":  # nothing but the close: no state was read
        assert frame["type"] != "websocket.send", frame
        frame = await comm.receive_output(timeout=5)
    assert frame["code"] == 4011 and failed == [table.pk]
    # Reconnecting, the socket gets its state.
    socket = await Socket("again", communicator(table.pk, cookies[0])).connect()
    assert socket.version == (await Table.objects.aget(pk=table.pk)).version
    await socket.close()


async def test_a_change_the_layer_never_brought_is_caught_up_from_the_database(table, cookies):
    """A lost message (pub/sub keeps nothing for a process that was not listening, e.g. while
    Redis restarted) leaves no socket behind: the catch-up hands the runtime the change."""
    socket = await Socket("alice", communicator(table.pk, cookies[0])).connect()
    runtime = TableRuntime.following(table.pk)
    assert await TableRuntime.catch_up([runtime]) == 0  # nothing missed yet
    missed = socket.version + 1
    await Table.objects.filter(pk=table.pk).aupdate(version=missed)  # committed, never sent
    # The first pass cannot tell a lost message from one on its way: it only notes the gap.
    assert await TableRuntime.catch_up([runtime]) == 0
    assert await socket.comm.receive_nothing(timeout=0)  # the pass handed nothing over
    assert await TableRuntime.catch_up([runtime]) == 1  # still missing a whole pass later
    await socket.until_version(missed, timeout=5)
    assert runtime.version == missed
    assert await TableRuntime.catch_up([runtime]) == 0  # once
    await socket.close()


async def test_the_clock_catches_up_with_another_process_writing_the_database(table, cookies):
    """A command run in another process (``manage.py``, a script) writes the database and
    tells nobody, whatever the channel layer (in one process too: the in-memory layer does not
    reach the other process): two passes of the runtimes' clock show it to the sockets."""
    socket = await Socket("alice", communicator(table.pk, cookies[0])).connect()
    missed = socket.version + 1
    await Table.objects.filter(pk=table.pk).aupdate(version=missed)  # committed, never sent
    await TableRuntime.keep_up()
    await TableRuntime.keep_up()
    await socket.until_version(missed, timeout=5)
    await socket.close()


async def test_a_change_heard_while_the_database_was_away_is_caught_up_once_it_is_back(
    table, cookies, monkeypatch
):
    """A change whose message came while the table could not be read (the process had lost
    the database) is not forgotten: the version it heard of is not the one its sockets show,
    and the catch-up reads it once the database is back, though nothing changes at the table
    any more (a player there might be waiting for their turn)."""
    from django.db import OperationalError

    socket = await Socket("alice", communicator(table.pk, cookies[0])).connect()
    runtime = TableRuntime.following(table.pk)
    real_read = TableRuntime._read

    async def database_away(self):
        raise OperationalError("the database went away")

    monkeypatch.setattr(TableRuntime, "_read", database_away)
    missed = socket.version + 1
    await Table.objects.filter(pk=table.pk).aupdate(version=missed)
    runtime.changed(missed)  # its message came (the listener's call)
    await runtime.call(_nothing)  # after the refresh it queued, which failed
    assert await socket.comm.receive_nothing(timeout=0)  # nothing was sent
    monkeypatch.setattr(TableRuntime, "_read", real_read)  # the database is back
    assert await TableRuntime.catch_up([runtime]) == 0
    assert await TableRuntime.catch_up([runtime]) == 1
    await socket.until_version(missed, timeout=5)
    assert await TableRuntime.catch_up([runtime]) == 0
    await socket.close()


async def _nothing() -> None:
    return None


async def test_a_change_whose_message_arrives_between_two_passes_is_not_sent_again(table, cookies):
    socket = await Socket("alice", communicator(table.pk, cookies[0])).connect()
    runtime = TableRuntime.following(table.pk)
    late = socket.version + 1
    await Table.objects.filter(pk=table.pk).aupdate(version=late)
    assert await TableRuntime.catch_up([runtime]) == 0
    await get_channel_layer().group_send(table_group(table.pk), table_changed_event(table.pk, late))
    await socket.until_version(late, timeout=5)
    assert runtime.version == late
    assert await TableRuntime.catch_up([runtime]) == 0
    await socket.close()


async def test_a_socket_that_leaves_without_its_first_state_says_where_it_waited(
    table, cookies, monkeypatch, caplog, asgi_loaded
):
    """A client that gives up before its first state came (a rush's stuck socket) leaves a
    warning naming where its join stood, to tell a stuck socket from a slow one."""
    from tables.live import joining

    never = asyncio.Event()

    async def first_read_never_comes(self, consumer):
        await never.wait()

    monkeypatch.setattr(joining, "SLOW_JOIN_SECONDS", 0.0)
    monkeypatch.setattr(TableRuntime, "show_latest", first_read_never_comes)
    comm = communicator(table.pk, cookies[0])
    connected, _ = await comm.connect(timeout=10)
    assert connected
    await until(lambda: TableRuntime.following(table.pk) is not None)
    with caplog.at_level("WARNING", logger="tables.live.joining"):
        await comm.disconnect()
    (record,) = [r for r in caplog.records if "without its first state" in r.getMessage()]
    assert f"table {table.pk}:" in record.getMessage()
    assert "(at: reading its first state)" in record.getMessage()
    assert "ended after" in record.getMessage()


async def test_one_clock_per_loop_runs_while_it_has_runtimes(table, cookies):
    socket = await Socket("alice", communicator(table.pk, cookies[0])).connect()
    clock = TableRuntime.clocks.get(asyncio.get_running_loop())
    assert clock is not None and not clock.done()
    await socket.close()
    await asyncio.wait_for(clock, 5)  # it ends with the last runtime here


async def dealt(table, players, cookies):
    """Two players seated, both watching, a hand dealt: their sockets, at its version."""
    await sync_to_async(seat_take)(table=table, player=players[1], buy_in=200, seat_number=1)
    sockets = [
        await Socket(f"s{i}", communicator(table.pk, c)).connect()
        for i, c in enumerate(cookies[:2])
    ]
    await sync_to_async(hand_start)(table=table)
    version = (await Table.objects.aget(pk=table.pk)).version
    for socket in sockets:
        await socket.until_version(version)
    return sockets


async def test_the_owner_acts_on_its_hand_in_memory_and_reads_nothing(table, players, cookies):
    sockets = await dealt(table, players, cookies)
    runtime = TableRuntime.following(table.pk)
    lease = await TableLease.objects.aget(table_id=table.pk)
    assert lease.owner == PROCESS and runtime.owner
    reads, commands = runtime.reads, runtime.commands
    for _ in range(2):  # the first and the second to act each call or check
        hand = await Hand.objects.filter(table=table).alatest("number")
        version = runtime.version
        for socket in sockets:
            await socket.act(
                "call" if socket is sockets[0] else "check", version=version, hand=hand.pk
            )
        for socket in sockets:
            await socket.until_version(version + 1)
    assert runtime.commands > commands
    assert runtime.reads == reads  # no read: the next versions were built in memory
    stored = await Table.objects.aget(pk=table.pk)
    assert runtime.snapshot.version == stored.version == runtime.version
    # what it worked out once of the table's settings and of the hand's row, carried from
    # version to version, is what a read works out
    read = await sync_to_async(load_snapshot)(table.pk)
    assert runtime.snapshot.facts == read.facts
    assert runtime.snapshot.hand_facts == read.hand_facts
    for socket in sockets:
        await socket.close()


async def test_a_change_another_writer_made_is_read_and_shown(table, players, cookies):
    socket = await Socket("alice", communicator(table.pk, cookies[0])).connect()
    runtime = TableRuntime.following(table.pk)
    reads = runtime.reads
    await sync_to_async(seat_take)(table=table, player=players[1], buy_in=200, seat_number=1)
    stored = await Table.objects.aget(pk=table.pk)
    await socket.until_version(stored.version)
    assert runtime.reads == reads + 1
    await socket.close()


async def test_an_owner_whose_lease_was_taken_writes_nothing(table, players, cookies, monkeypatch):
    """Another process took the table (the owner stalled past its lease): the old owner's
    next request is not written, and the sender is told to try again."""
    monkeypatch.setattr(runtime_module, "FORWARD_SECONDS", 0.2)
    socket = await Socket("alice", communicator(table.pk, cookies[0])).connect()
    runtime = TableRuntime.following(table.pk)
    assert runtime.owner
    await TableLease.objects.filter(table_id=table.pk).aupdate(
        owner="elsewhere", channel="nobody.listens", epoch=runtime.epoch + 1
    )
    before = await Table.objects.aget(pk=table.pk)
    await socket.send(op="sit_out")
    frame = await socket.until(lambda f: "try again" in f or "table-message" in f)
    assert "moving to another server" in frame
    after = await Table.objects.aget(pk=table.pk)
    assert after.version == before.version  # nothing written
    assert not runtime.owner
    await socket.close()


async def test_a_request_stuck_behind_the_tables_turn_is_answered_and_not_done_later(
    table, players, cookies, monkeypatch
):
    """Something holds the table's turn: the request waiting behind it is answered "try
    again" after ``REQUEST_SECONDS`` (a client is never left without an answer), and once the
    turn is free the request it gave up on is not carried out."""
    from tables.live import runtime as runtime_module
    from tables.live.ownership import TOO_SLOW
    from tables.models import HandAction

    monkeypatch.setattr(runtime_module, "REQUEST_SECONDS", 0.5)
    sockets = await dealt(table, players, cookies)
    runtime = TableRuntime.following(table.pk)
    held = asyncio.Event()

    async def holding() -> None:
        await held.wait()

    runtime.queue.put_nowait((holding, runtime.loop.create_future()))
    hand = await Hand.objects.filter(table=table).alatest("number")
    actions = await HandAction.objects.filter(hand=hand).acount()
    version = runtime.version
    await sockets[0].act("call", version=version, hand=hand.pk)
    await sockets[0].until(lambda frame: "may not have been done" in frame)
    assert TOO_SLOW.split(":")[0] in "".join(sockets[0].frames)
    held.set()
    await runtime.call(lambda: asyncio.sleep(0))  # the turn is free, all queued gone through
    assert await HandAction.objects.filter(hand=hand).acount() == actions
    assert (await Table.objects.aget(pk=table.pk)).version == version == runtime.version
    for socket in sockets:
        await socket.close()


async def test_a_runtime_taking_the_lease_has_the_tables_clock_run_here_at_once(table, cookies):
    """While another process held the table's lease, this process's timers left its clock
    alone; the runtime here that takes the lease once it has run out has the timers read
    the table again at once (``TABLE_OWNED``), not at their next resync."""
    await TableLease.objects.acreate(
        table=table, owner="elsewhere", channel="nobody.listens", until=timezone.now() + MINUTE
    )
    ticked: list[int] = []

    async def tick(table_id, now):
        ticked.append(table_id)
        return "acted"  # as if: its next moment is read again, not retried

    clocks = TableTimers(tick)
    local_listeners.append(clocks.changed)
    socket = None
    try:
        await clocks.resync()
        assert clocks.armed_at(table.pk) is None
        socket = await Socket("alice", communicator(table.pk, cookies[0])).connect()
        runtime = TableRuntime.following(table.pk)
        assert runtime is not None and runtime.epoch is None  # a follower
        await TableLease.objects.filter(table_id=table.pk).aupdate(until=timezone.now() - MINUTE)
        assert await runtime._take()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 3  # less than the timers' RESYNC_SECONDS
        while not ticked and loop.time() < deadline:
            await asyncio.sleep(0.02)
        assert ticked and ticked[0] == table.pk
    finally:
        local_listeners.remove(clocks.changed)
        clocks.close()
        if socket is not None:
            await socket.close()


async def test_an_owner_puts_its_changes_on_the_layer_only_while_another_process_follows(
    table, players, cookies
):
    """No other process follows the table (nginx sends a table's sockets to its owner): the
    owner's own changes stay off the channel layer. A process that says it follows is sent the
    version at once (it may have missed it), then each change the owner makes: a version it
    built one action later with that action (``acted``)."""
    sockets = await dealt(table, players, cookies)
    runtime = TableRuntime.following(table.pk)
    layer = get_channel_layer()
    elsewhere = await layer.new_channel()  # another process's runtime of the table
    await layer.group_add(table_group(table.pk), elsewhere)
    try:
        hand = await Hand.objects.filter(table=table).alatest("number")
        version = runtime.version
        await sockets[0].act("call", version=version, hand=hand.pk)
        await sockets[1].until_version(version + 1)
        assert not runtime.followed()
        with pytest.raises(TimeoutError):  # nothing of it on the layer
            await asyncio.wait_for(layer.receive(elsewhere), 0.5)

        await layer.send(runtime.channel, {"type": "runtime.follow", "table_id": table.pk})
        heard = await asyncio.wait_for(layer.receive(elsewhere), 5)
        assert heard == table_changed_event(table.pk, version + 1)
        assert runtime.followed()
        await sockets[1].act("check", version=version + 1, hand=hand.pk)
        heard = await asyncio.wait_for(layer.receive(elsewhere), 5)
        # built in memory: the action goes with it, for the follower to build it too
        stored = await Table.objects.aget(pk=table.pk)
        deadline = stored.action_deadline.isoformat()
        assert heard == {
            **table_changed_event(table.pk, version + 2),
            "acted": ["check", None, "player", deadline],
        }
    finally:
        await layer.group_discard(table_group(table.pk), elsewhere)
        for socket in sockets:
            await socket.close()


async def test_a_follower_tells_the_owner_it_follows_when_it_looks_for_it(table, cookies):
    """A runtime finding the table's lease held elsewhere says it follows to the owner's
    channel (and again at each pass of its clock): the owner then publishes its changes."""
    layer = get_channel_layer()
    owner = await layer.new_channel()  # the owner elsewhere
    await TableLease.objects.acreate(
        table=table, owner="elsewhere", channel=owner, until=timezone.now() + MINUTE
    )
    socket = await Socket("alice", communicator(table.pk, cookies[0])).connect()
    try:
        runtime = TableRuntime.following(table.pk)
        assert runtime is not None and runtime.epoch is None  # a follower
        told = await asyncio.wait_for(layer.receive(owner), 5)
        assert told == {"type": "runtime.follow", "table_id": table.pk}
        await TableRuntime.keep_up()
        told = await asyncio.wait_for(layer.receive(owner), 5)
        assert told == {"type": "runtime.follow", "table_id": table.pk}
    finally:
        await socket.close()
