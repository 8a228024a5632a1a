"""The operators' figures (``tables.metrics``) move with what really happens: a request
carried out and one refused, the frames sent, the sockets open, a table's clock firing."""

import asyncio

import pytest
from django.utils import timezone
from prometheus_client import REGISTRY

from tables.live.runtime import TableRuntime
from tables.models import Hand
from tables.timers import TableTimers
from tests.tables.live.test_table_runtime import dealt

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def test_requests_frames_and_sockets_are_counted(table, players, cookies):
    before = {
        "accepted": sample("poker_actions_total", result="accepted"),
        "refused": sample("poker_actions_total", result="refused"),
        "answered": sample("poker_action_seconds_count"),
        "frames": sample("poker_frames_sent_total"),
        "bytes": sample("poker_frame_bytes_sent_total"),
        "open": sample("poker_sockets_open"),
    }
    sockets = await dealt(table, players, cookies)
    assert sample("poker_sockets_open") == before["open"] + 2
    assert sample("poker_frames_sent_total") >= before["frames"] + 2
    assert sample("poker_frame_bytes_sent_total") > before["bytes"] + 100
    runtime = TableRuntime.following(table.pk)
    hand = await Hand.objects.filter(table=table).alatest("number")
    version = runtime.version
    await sockets[1].act("call", version=version, hand=hand.pk)  # not their turn: refused
    await sockets[0].act("call", version=version, hand=hand.pk)
    for socket in sockets:
        await socket.until_version(version + 1)
    assert sample("poker_actions_total", result="accepted") == before["accepted"] + 1
    assert sample("poker_actions_total", result="refused") == before["refused"] + 1
    assert sample("poker_action_seconds_count") == before["answered"] + 2
    for socket in sockets:
        await socket.close()
    assert sample("poker_sockets_open") == before["open"]


async def test_a_clock_firing_is_measured_against_its_moment(table):
    fired = asyncio.Event()

    async def tick(table_id, now):
        fired.set()
        return None

    count = sample("poker_clock_lateness_seconds_count")
    timers = TableTimers(tick)
    timers.arm(table.pk, timezone.now())
    await asyncio.wait_for(fired.wait(), 10)
    timers.close()
    assert sample("poker_clock_lateness_seconds_count") == count + 1
