"""The croupier's one query: exactly the tables with something due are picked (and locked)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tables.croupier import Croupier
from tables.models import Seat, Table, TableLease
from tables.services import hand_start, seat_take
from tables.services.clock import DUE_NOW, tables_due, tables_due_at
from tables.services.leases import PROCESS

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(make_player):
    return [make_player(f"p{i}") for i in range(20)]


def seated(make_table, people, n=2, **fields):
    table = make_table(**fields)
    for _ in range(n):
        seat_take(table=table, player=people.pop(), buy_in=100)
    return table


def running(make_table, people, deadline, **fields):
    table = seated(make_table, people, **fields)
    hand_start(table=table)
    Table.objects.filter(pk=table.pk).update(action_deadline=deadline, next_hand_at=None)
    return table


def test_due_tables_are_exactly_those_with_something_to_do(make_table, people, settings):
    settings.POKER_BOT_DELAY = (0.8, 2.2)
    now = timezone.now()
    later, earlier = now + timedelta(seconds=30), now - timedelta(seconds=1)
    waiting = running(make_table, people, later)  # a person thinking, clock not run out
    timed_out = running(make_table, people, earlier)
    no_clock = running(make_table, people, None)
    away = running(make_table, people, later)
    Seat.objects.filter(table=away).update(sitting_out=True)
    idle = seated(make_table, people, n=1)
    Table.objects.filter(pk=idle.pk).update(next_hand_at=later)  # next hand not yet due
    next_due = seated(make_table, people)
    Table.objects.filter(pk=next_due.pk).update(next_hand_at=earlier)
    never_set = seated(make_table, people)
    Table.objects.filter(pk=never_set.pk).update(next_hand_at=None)
    bots_wanted = make_table(bots_allowed=True, bot_seats=2)
    closed = seated(make_table, people)
    Table.objects.filter(pk=closed.pk).update(status="closed", next_hand_at=None)
    empty = make_table()
    due = tables_due(now)
    assert due == sorted(
        [timed_out.pk, no_clock.pk, away.pk, next_due.pk, never_set.pk, bots_wanted.pk]
    )
    assert not {waiting.pk, idle.pk, closed.pk, empty.pk} & set(due)


def test_a_bot_to_act_is_due_once_the_quickest_bot_could_have_thought(
    make_table, make_player, settings
):
    settings.POKER_BOT_DELAY = (0.8, 2.2)
    table = make_table(bots_allowed=True, bot_seats=1, action_seconds=20)
    seat_take(table=table, player=make_player("human"), buy_in=100)
    Croupier().tick(timezone.now())  # seats the bot
    now = timezone.now()
    table.refresh_from_db()
    Table.objects.filter(pk=table.pk).update(next_hand_at=now - timedelta(seconds=1))
    Croupier().tick(now)  # starts the hand
    table.refresh_from_db()
    turn_started = table.action_deadline - timedelta(seconds=20)
    assert table.pk not in tables_due(turn_started + timedelta(seconds=0.5))
    assert table.pk in tables_due(turn_started + timedelta(seconds=0.9))


def test_ticks_lock_only_the_due_tables(make_table, people, monkeypatch):
    from tables.services import clock

    now = timezone.now()
    waiting = running(make_table, people, now + timedelta(seconds=30))
    timed_out = running(make_table, people, now - timedelta(seconds=1))
    ticked = []
    real = clock.clock_tick
    monkeypatch.setattr(
        clock,
        "clock_tick",
        lambda *, table, now, **given: ticked.append(table) or real(table=table, now=now, **given),
    )
    done = Croupier().tick(now)
    assert ticked == [timed_out.pk] and [t for t, _ in done] == [timed_out.pk]
    assert waiting.pk not in ticked


def test_one_tables_moment_is_the_same_read_alone_or_with_all(make_table, people, settings):
    """A table's clock re-arms from a statement compiled once (``select_values_by_ids``):
    it reads what the query of every table reads, for tables of every kind."""
    settings.POKER_BOT_DELAY = (0.8, 2.2)
    now = timezone.now()
    later = now + timedelta(seconds=30)
    waiting = running(make_table, people, later)
    away = running(make_table, people, later)
    Seat.objects.filter(table=away).update(sitting_out=True)
    idle = seated(make_table, people, n=1)
    Table.objects.filter(pk=idle.pk).update(next_hand_at=later)
    bots_wanted = make_table(bots_allowed=True, bot_seats=2)
    paused = seated(make_table, people)
    Table.objects.filter(pk=paused.pk).update(status="paused")
    closed = seated(make_table, people)
    Table.objects.filter(pk=closed.pk).update(status="closed")
    empty = make_table()
    every = tables_due_at()
    assert every[waiting.pk] == later and every[idle.pk] == later
    assert every[away.pk] == every[bots_wanted.pk] == DUE_NOW
    assert every[paused.pk] is None
    for table in (waiting, away, idle, bots_wanted, paused, closed, empty):
        alone = tables_due_at([table.pk])
        assert alone == ({table.pk: every[table.pk]} if table.pk in every else {})
    assert closed.pk not in every and empty.pk not in every


def test_a_table_another_process_runs_is_left_out_until_its_lease_expires(make_table, people):
    """Another process's live lease: its clock runs the table, so this process's timers leave
    it alone (read alone or with all); this process's own lease, a lease given up or one
    run out leaves the table due here."""
    now = timezone.now()
    deadline = now - timedelta(seconds=1)
    elsewhere, here, given_up, run_out = (running(make_table, people, deadline) for _ in range(4))
    TableLease.objects.create(table=elsewhere, owner="other:1", until=now + timedelta(minutes=1))
    TableLease.objects.create(table=here, owner=PROCESS, until=now + timedelta(minutes=1))
    TableLease.objects.create(table=given_up, owner="", until=None)
    TableLease.objects.create(table=run_out, owner="other:2", until=now - timedelta(seconds=1))
    ids = [elsewhere.pk, here.pk, given_up.pk, run_out.pk]
    for due in (tables_due_at(), tables_due_at(ids), tables_due_at([elsewhere.pk])):
        assert elsewhere.pk not in due
    assert set(tables_due_at(ids)) == {here.pk, given_up.pk, run_out.pk}
    assert elsewhere.pk not in tables_due(now)

    TableLease.objects.filter(table=elsewhere).update(until=timezone.now() - timedelta(seconds=1))
    assert tables_due_at([elsewhere.pk]) == {elsewhere.pk: deadline}
    assert elsewhere.pk in tables_due_at() and elsewhere.pk in tables_due(now)
