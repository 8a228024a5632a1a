"""``TableFeed``: a process subscribes once to a table's group however many of its sockets
watch that table; the subscription ends with the last socket, and a channel layer failing
under it closes the sockets so that browsers reconnect (and subscribe again)."""

import asyncio

import pytest
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings

from tables.live.feed import TableFeed
from tables.models import Table
from tables.services import seat_take
from tables.services.events import table_changed_event, table_group
from tests.tables.wsclient import Socket, communicator, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False


@pytest.fixture
def cookies(players, table):
    seat_take(table=table, player=players[0], buy_in=200, seat_number=0)
    return [session_cookie(p.user) for p in players]


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
    feed = TableFeed.following(table.pk)
    assert feed is not None and feed.followers == 3
    assert await group_members(layer, table_group(table.pk)) == 1
    # One message on the layer reaches every socket.
    changed = sockets[0].version + 1
    await Table.objects.filter(pk=table.pk).aupdate(version=changed)
    await layer.group_send(table_group(table.pk), table_changed_event(table.pk, changed))
    for socket in sockets:
        await socket.until_version(changed, timeout=5)
    await sockets[0].close()
    assert TableFeed.following(table.pk) is feed and feed.followers == 2
    for socket in sockets[1:]:
        await socket.close()
    assert TableFeed.following(table.pk) is None
    await asyncio.wait_for(feed.ended(), 5)
    assert await group_members(layer, table_group(table.pk)) == 0


async def test_a_failing_channel_layer_closes_the_feeds_sockets(table, cookies, monkeypatch):
    layer = get_channel_layer()
    comms = [communicator(table.pk, c) for c in cookies[:2]]
    for comm in comms:
        await Socket("s", comm).connect()
    feed = TableFeed.following(table.pk)
    real_receive = layer.receive

    async def broken(channel):
        if channel == feed.channel:
            raise ConnectionError("the channel layer went away")
        return await real_receive(channel)

    monkeypatch.setattr(layer, "receive", broken)
    # The feed is waiting on the layer: the next message it takes, it asks again and fails.
    await layer.group_send(table_group(table.pk), {"type": "table.changed", "version": 0})
    for comm in comms:
        closed = await comm.receive_output(timeout=5)
        while closed["type"] != "websocket.close":
            closed = await comm.receive_output(timeout=5)
        assert closed["code"] == 4011  # a code a server may send: browsers reconnect
    assert TableFeed.following(table.pk) is None


async def test_a_socket_joining_puts_the_feed_back_in_a_group_the_layer_forgot(table, cookies):
    """Redis restarting forgets every group while the feed goes on waiting; the sockets it cut
    off reconnect, and each join adds the feed to the group again."""
    layer = get_channel_layer()
    first = await Socket("first", communicator(table.pk, cookies[0])).connect()
    feed = TableFeed.following(table.pk)
    await layer.group_discard(table_group(table.pk), feed.channel)  # what a restart does
    second = await Socket("second", communicator(table.pk, cookies[1])).connect()
    assert TableFeed.following(table.pk) is feed
    assert await group_members(layer, table_group(table.pk)) == 1
    # A change now reaches both sockets through the one feed.
    changed = first.version + 1
    await Table.objects.filter(pk=table.pk).aupdate(version=changed)
    await layer.group_send(table_group(table.pk), table_changed_event(table.pk, changed))
    for socket in (first, second):
        await socket.until_version(changed, timeout=5)
    await first.close()
    await second.close()


async def test_a_change_made_here_reaches_this_processs_sockets_without_the_round_trip(
    table, players, cookies, monkeypatch
):
    """Over Redis, a process's own change goes to its sockets at once (and through the layer
    to the other processes); an in-process layer delivers it here at once anyway, so the
    feed leaves it to the layer (no second delivery)."""
    from tables.db.threads import write_async

    layer = get_channel_layer()
    socket = await Socket("alice", communicator(table.pk, cookies[0])).connect()
    sent = []

    async def lost(group, message):  # the layer never brings this change back
        sent.append((group, message))

    monkeypatch.setattr(layer, "group_send", lost)
    before = socket.version
    await write_async(
        table.pk, lambda: seat_take(table=table, player=players[1], buy_in=200, seat_number=1)
    )()
    assert [group for group, _ in sent] == [table_group(table.pk)]  # the others still hear
    if in_process(layer):  # only the layer delivers (here it lost the message)
        TableFeed.changed_here(sent[0][1])
        await asyncio.sleep(0)  # a dispatch it scheduled would have started (and noted it)
        assert TableFeed.following(table.pk).version < sent[0][1]["version"]
    else:
        await socket.until_version(before + 1, timeout=5)
    await socket.close()


async def test_an_update_that_overtakes_the_first_frame_is_not_undone_by_it(
    table, players, cookies, monkeypatch
):
    """A socket's first frame is read, then a change reaches the socket and is sent before
    that frame goes: the older first frame is dropped, not sent last (the socket would show
    the table as it was, and wait for a change that has already come)."""
    from tables.db.threads import write_async
    from tables.live.caches import snapshots

    real_get = snapshots.get
    reads = []

    async def overtaken_first_read(table_id, version=0, created_at=None):
        snap = await real_get(table_id, version, created_at)
        reads.append(snap.version)
        if len(reads) == 1:  # the connect's read: a change comes and is sent before it
            await write_async(
                table.pk,
                lambda: seat_take(table=table, player=players[1], buy_in=200, seat_number=1),
            )()
            # The layer brings the change to the socket, which sends it first (a race only
            # the consumer's own record of what it sent can show).
            (consumer,) = TableFeed.following(table.pk).sockets
            await until(lambda: consumer.sent_version > snap.version)
        return snap

    monkeypatch.setattr(snapshots, "get", overtaken_first_read)
    socket = Socket("alice", communicator(table.pk, cookies[0]))
    await asyncio.wait_for(socket.connect(), 10)
    await socket.drain(timeout=0.5)
    assert reads[0] < reads[1]
    assert socket.version == reads[1]  # the last frame is the newer one
    await socket.close()


async def test_a_first_state_the_database_failed_closes_the_socket_to_reconnect(
    table, cookies, monkeypatch
):
    """The database fails at the connect's snapshot read (after the reads before it): the
    socket is closed with the code that asks its client to reconnect, not left open with
    nothing on screen until the table next changes."""
    from django.db import OperationalError

    from tables.live.caches import snapshots

    real_get = snapshots.get
    failed = []

    async def failing_first_read(table_id, version=0, created_at=None):
        if not failed:
            failed.append(table_id)
            raise OperationalError("the database went away")
        return await real_get(table_id, version, created_at)

    monkeypatch.setattr(snapshots, "get", failing_first_read)
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
    Redis restarted) leaves no socket behind: the catch-up hands the feed the change."""
    socket = await Socket("alice", communicator(table.pk, cookies[0])).connect()
    feed = TableFeed.following(table.pk)
    assert await TableFeed.catch_up() == 0  # nothing missed yet
    missed = socket.version + 1
    await Table.objects.filter(pk=table.pk).aupdate(version=missed)  # committed, never sent
    # The first pass cannot tell a lost message from one on its way: it only notes the gap.
    assert await TableFeed.catch_up() == 0
    assert await socket.comm.receive_nothing(timeout=0)  # the pass handed nothing over
    assert await TableFeed.catch_up() == 1  # still missing a whole pass later
    await socket.until_version(missed, timeout=5)
    assert feed.version == missed
    assert await TableFeed.catch_up() == 0  # once
    await socket.close()


async def test_a_change_whose_message_arrives_between_two_passes_is_not_sent_again(table, cookies):
    socket = await Socket("alice", communicator(table.pk, cookies[0])).connect()
    feed = TableFeed.following(table.pk)
    late = socket.version + 1
    await Table.objects.filter(pk=table.pk).aupdate(version=late)
    assert await TableFeed.catch_up() == 0
    await get_channel_layer().group_send(table_group(table.pk), table_changed_event(table.pk, late))
    await socket.until_version(late, timeout=5)
    assert feed.version == late
    assert await TableFeed.catch_up() == 0
    await socket.close()


async def test_over_redis_every_process_catches_up_on_its_own(table, cookies, monkeypatch):
    monkeypatch.setattr(TableFeed, "CATCH_UP_SECONDS", 0.1)
    socket = await Socket("alice", communicator(table.pk, cookies[0])).connect()
    if in_process(get_channel_layer()):  # one process: no message can be lost
        assert not TableFeed.catching_up()
    else:
        missed = socket.version + 1
        await Table.objects.filter(pk=table.pk).aupdate(version=missed)
        await socket.until_version(missed, timeout=5)
        assert TableFeed.catching_up()
    await socket.close()
    await until(lambda: not TableFeed.catching_up())  # it ends with the last feed here


async def test_a_socket_that_leaves_without_its_first_state_says_where_it_waited(
    table, cookies, monkeypatch, caplog, asgi_loaded
):
    """A client that gives up before its first state came (a rush's stuck socket) leaves a
    warning naming where its join stood, to tell a stuck socket from a slow one."""
    from tables.live import joining
    from tables.live.caches import snapshots

    never = asyncio.Event()

    async def first_read_never_comes(table_id, version=0, created_at=None):
        await never.wait()

    monkeypatch.setattr(joining, "SLOW_JOIN_SECONDS", 0.0)
    monkeypatch.setattr(snapshots, "get", first_read_never_comes)
    comm = communicator(table.pk, cookies[0])
    connected, _ = await comm.connect(timeout=10)
    assert connected
    await until(lambda: TableFeed.following(table.pk) is not None)
    with caplog.at_level("WARNING", logger="tables.live.joining"):
        await comm.disconnect()
    (record,) = [r for r in caplog.records if "without its first state" in r.getMessage()]
    assert f"table {table.pk}:" in record.getMessage()
    assert "(at: reading its first state)" in record.getMessage()
    assert "ended after" in record.getMessage()


async def test_an_update_held_behind_an_answer_that_cannot_be_sent_is_logged(
    table, players, cookies, monkeypatch, caplog, asgi_loaded
):
    """An update that waited for the socket's own answer goes out in a task of its own; when
    its send fails (the client has just left: the socket refuses it), the failure is logged
    there, not raised in a task nobody awaits, and the socket's count of held updates is
    right again."""
    from tables.db.threads import write_async

    socket = await Socket("alice", communicator(table.pk, cookies[0])).connect()
    (consumer,) = TableFeed.following(table.pk).sockets
    refused = []

    async def closed_protocol(*args, **kwargs):
        refused.append(kwargs)
        raise RuntimeError("Attempt to send on a closed protocol")

    with caplog.at_level("WARNING", logger="tables.live.consumer"):
        async with consumer.answering:  # the socket's own request is being answered
            await write_async(
                table.pk,
                lambda: seat_take(table=table, player=players[1], buy_in=200, seat_number=1),
            )()
            await until(lambda: consumer.deferred == 1)  # the update waits for the answer
            monkeypatch.setattr(consumer, "send", closed_protocol)
        await until(lambda: consumer.deferred == 0)
    assert refused  # the held update was made and its send refused
    (record,) = [r for r in caplog.records if "update after an answer not sent" in r.getMessage()]
    assert "closed protocol" in record.getMessage()
    monkeypatch.undo()
    await socket.close()
