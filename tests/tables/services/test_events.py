"""Every change publishes table.changed (id + version, no cards) after commit, never before."""

import asyncio

import pytest
from channels.layers import get_channel_layer
from django.db import transaction

from tables.models import Table
from tables.services import ServiceError, hand_start, seat_take
from tables.services.events import table_group

pytestmark = pytest.mark.django_db


@pytest.fixture
def listen(table):
    """A subscriber to the table's group on an event loop of its own, kept for the whole
    test: a pub/sub layer's subscription lives on its loop's connection (what is published
    meanwhile waits there), so subscribing and receiving must use the same loop."""
    layer = get_channel_layer()
    loop = asyncio.new_event_loop()
    channel = loop.run_until_complete(layer.new_channel())
    loop.run_until_complete(layer.group_add(table_group(table.pk), channel))

    async def _receive_all():
        events = []
        while True:
            try:
                events.append(await asyncio.wait_for(layer.receive(channel), timeout=0.5))
            except TimeoutError:
                return events

    yield lambda: loop.run_until_complete(_receive_all())
    loop.run_until_complete(layer.group_discard(table_group(table.pk), channel))
    loop.close()


def test_changes_are_published_on_commit_with_the_new_version(
    players, table, listen, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        seat_take(table=table, player=players[0], buy_in=100)
    with django_capture_on_commit_callbacks(execute=True):
        seat_take(table=table, player=players[1], buy_in=100)
    with django_capture_on_commit_callbacks(execute=True):
        hand_start(table=table)
    events = listen()
    version = Table.objects.get(pk=table.pk).version
    assert events[-1] == {"type": "table.changed", "table_id": table.pk, "version": version}
    assert [e["version"] for e in events] == sorted(e["version"] for e in events)
    assert all(set(e) == {"type", "table_id", "version"} for e in events)


def test_nothing_is_published_for_a_refused_or_rolled_back_change(
    players, table, listen, django_capture_on_commit_callbacks
):
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(ServiceError),
    ):
        seat_take(table=table, player=players[0], buy_in=1)
    assert callbacks == []
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        try:
            with transaction.atomic():
                seat_take(table=table, player=players[0], buy_in=100)
                raise RuntimeError("roll back")
        except RuntimeError:
            pass
    assert callbacks == []
    assert listen() == []
