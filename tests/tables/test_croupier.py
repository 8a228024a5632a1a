"""The croupier loop: ticks every table, plays whole hands with bots and clocks at an injected
time, keeps chips conserved, starts once per event loop, and runs as ``manage.py croupier``."""

import asyncio
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from tables import croupier as croupier_module
from tables.croupier import Croupier
from tables.models import Hand, HandAction, Seat
from tables.services import seat_take

pytestmark = pytest.mark.django_db


def test_ticks_play_whole_hands_with_bots_and_a_player_who_times_out(
    make_table, make_player, assert_chips_conserved
):
    table = make_table(
        name="Loop",
        bots_allowed=True,
        bot_seats=3,
        max_seats=5,
        action_seconds=5,
        time_bank_seconds=0,
    )
    dora = make_player("dora")
    seat_take(table=table, player=dora, buy_in=200)
    croupier = Croupier()
    now = timezone.now()
    for _ in range(400):
        now += timedelta(seconds=3)
        croupier.tick(now)
        if Seat.objects.get(player=dora).sitting_out:
            break
    for _ in range(100):  # the hand goes on without her
        now += timedelta(seconds=3)
        croupier.tick(now)
    # dora never acted: the clock folded (or checked) for her and sat her out
    assert HandAction.objects.filter(source="timeout").count() == 1
    assert HandAction.objects.filter(source="bot").exists()
    assert Hand.objects.filter(status="finished").exists()
    assert_chips_conserved()
    # with only bots sitting in, no new hand starts
    assert not Hand.objects.filter(status="running").exists()


def test_tick_covers_every_table(make_table, make_player):
    tables = [make_table(bots_allowed=True, bot_seats=1) for _ in range(3)]
    closed = make_table(bots_allowed=True, bot_seats=1, status="closed")
    done = Croupier().tick(timezone.now())
    assert sorted(t for t, what in done) == sorted(t.pk for t in tables)
    assert not Seat.objects.filter(table=closed).exists()


@pytest.mark.django_db(transaction=True)
async def test_the_servers_tick_does_what_tick_does_one_table_at_a_time(make_table, make_player):
    """``tick_async`` (the server's loop): the due tables from a reader thread, each table's
    clock on the writes' thread; it covers every table, and a hand starts where one can."""
    from asgiref.sync import sync_to_async

    tables = await sync_to_async(
        lambda: [make_table(bots_allowed=True, bot_seats=1) for _ in range(2)]
    )()
    done = await Croupier().tick_async()
    assert sorted(t for t, what in done) == sorted(t.pk for t in tables)
    assert {what for _, what in done} == {"bots-seated"}
    dora = await sync_to_async(make_player)("dora")
    await sync_to_async(seat_take)(table=tables[0], player=dora, buy_in=200)
    done = await Croupier().tick_async()
    assert (tables[0].pk, "started") in done
    assert await Hand.objects.filter(table=tables[0], status="running").acount() == 1


@pytest.mark.django_db(transaction=True)
async def test_the_servers_pass_runs_the_other_apps_work_every_hooks_interval(monkeypatch):
    """The tournaments' and clubs' per-pass reads run once per ``HOOKS_INTERVAL``, not at
    every pass of the odds: a second pass soon after runs none, one after the interval does."""
    from tables.services import hooks

    heard = []
    monkeypatch.setattr(hooks, "croupier_pass", [heard.append])
    croupier = Croupier()
    await croupier.housekeeping_async()
    await croupier.housekeeping_async()
    assert len(heard) == 1
    assert "hooks" in croupier.ran_at
    croupier.ran_at["hooks"] -= timedelta(seconds=croupier_module.HOOKS_INTERVAL)
    await croupier.housekeeping_async()
    assert len(heard) == 2 and heard[1] > heard[0]
    from asgiref.sync import sync_to_async

    assert await sync_to_async(Croupier().tick)(timezone.now()) == []
    assert len(heard) == 3  # ``tick`` (tests, the standalone command): at every call


async def test_one_croupier_per_event_loop(settings):
    settings.POKER_CROUPIER = True
    first = croupier_module.ensure_started()
    try:
        assert first is not None and croupier_module.ensure_started() is first
    finally:
        first.cancel()
        with pytest.raises(asyncio.CancelledError):
            await first


async def test_the_croupier_can_be_switched_off(settings):
    settings.POKER_CROUPIER = False  # POKER_CROUPIER=0 in the environment: tests/pokersite
    assert croupier_module.ensure_started() is None


def test_management_command_runs_one_pass(make_table):
    table = make_table(bots_allowed=True, bot_seats=2)
    out = StringIO()
    call_command("croupier", "--once", stdout=out)
    assert f"table {table.pk}: bots-seated" in out.getvalue()
