"""A socket's first state comes once: a change of the table shown to the runtime's sockets
between the socket's joining and its first state (which waits for the table's turn) gives it
that state already, and the first state is not sent again at the same version (a failover
test saw a player's socket get version 18 twice)."""

import asyncio

import pytest
from channels.layers import get_channel_layer

from tables.live.runtime import TableRuntime
from tables.models import Table
from tables.services.events import table_changed_event, table_group
from tests.tables.wsclient import Socket, communicator, version_of

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False


@pytest.mark.parametrize("query", ["", "state=json", "state=json&frames=diff"])
async def test_a_change_shown_before_the_first_state_is_that_state(table, cookies, query):
    first = await Socket("alice", communicator(table.pk, cookies[0])).connect()
    runtime = TableRuntime.following(table.pk)
    assert runtime is not None

    # The table's turn held: a change another writer made is heard (its read queued), then
    # bob's socket joins, its first state queued behind that read.
    held = asyncio.Event()
    holding = asyncio.ensure_future(runtime.call(held.wait))
    changed = first.version + 1
    await Table.objects.filter(pk=table.pk).aupdate(version=changed)
    layer = get_channel_layer()
    await layer.group_send(table_group(table.pk), table_changed_event(table.pk, changed))
    await asyncio.sleep(0.1)  # the runtime's listener takes the message: the read is queued
    bob = Socket("bob", communicator(table.pk, cookies[1], query=query))
    connecting = asyncio.ensure_future(bob.connect())
    await asyncio.sleep(0.1)  # bob's socket joins the runtime, its first state queued
    held.set()
    await holding
    await connecting
    assert bob.version == changed

    # The next change: bob's frames up to it hold one frame of the version before.
    later = changed + 1
    await Table.objects.filter(pk=table.pk).aupdate(version=later)
    await layer.group_send(table_group(table.pk), table_changed_event(table.pk, later))
    await bob.until_version(later, timeout=5)
    versions = [v for v in map(version_of, bob.frames) if v is not None]
    assert versions == [changed, later], versions
    await first.close()
    await bob.close()
