"""``TableFeed``: a process subscribes once to a table's group however many of its sockets
watch that table; the subscription ends with the last socket, and a channel layer failing
under it closes the sockets so that browsers reconnect (and subscribe again)."""

import asyncio

import pytest
from channels.layers import get_channel_layer

from tables.consumers import TableFeed
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


async def group_members(layer, group: str) -> int:
    if hasattr(layer, "groups"):  # the in-memory layer
        return len(layer.groups.get(group, {}))
    async with layer.connection(layer.consistent_hash(group)) as connection:  # Redis
        return await connection.zcard(layer._group_key(group))


def feed_of(table) -> TableFeed | None:
    return TableFeed.feeds.get((asyncio.get_running_loop(), get_channel_layer(), table.pk))


async def test_one_subscription_per_process_for_all_its_sockets(table, cookies):
    layer = get_channel_layer()
    sockets = [await Socket(f"s{i}", communicator(table.pk, c)).connect()
               for i, c in enumerate(cookies)]
    feed = feed_of(table)
    assert feed is not None and len(feed.sockets) == 3
    assert await group_members(layer, table_group(table.pk)) == 1
    # One message on the layer reaches every socket.
    await layer.group_send(table_group(table.pk), table_changed_event(table.pk, 10**6))
    await sockets[0].close()
    assert feed_of(table) is feed and len(feed.sockets) == 2
    for socket in sockets[1:]:
        await socket.close()
    assert feed_of(table) is None
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(feed.task, 5)
    assert await group_members(layer, table_group(table.pk)) == 0


async def test_a_failing_channel_layer_closes_the_feeds_sockets(table, cookies, monkeypatch):
    layer = get_channel_layer()
    comms = [communicator(table.pk, c) for c in cookies[:2]]
    for comm in comms:
        await Socket("s", comm).connect()
    feed = feed_of(table)
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
        assert closed["code"] == 1011
    assert feed_of(table) is None


async def test_a_socket_joining_puts_the_feed_back_in_a_group_the_layer_forgot(table, cookies):
    """Redis restarting forgets every group while the feed goes on waiting; the sockets it cut
    off reconnect, and each join adds the feed to the group again."""
    from tables.models import Table

    layer = get_channel_layer()
    first = await Socket("first", communicator(table.pk, cookies[0])).connect()
    feed = feed_of(table)
    await layer.group_discard(table_group(table.pk), feed.channel)  # what a restart does
    second = await Socket("second", communicator(table.pk, cookies[1])).connect()
    assert feed_of(table) is feed and await group_members(layer, table_group(table.pk)) == 1
    # A change now reaches both sockets through the one feed.
    changed = first.version + 1
    await Table.objects.filter(pk=table.pk).aupdate(version=changed)
    await layer.group_send(table_group(table.pk), table_changed_event(table.pk, changed))
    for socket in (first, second):
        await socket.until_version(changed, timeout=5)
    await first.close()
    await second.close()
