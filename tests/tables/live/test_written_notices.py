"""The log's notices after a deal or a hand's end, as a table's runtime builds that version
(``written_and_read``, ``snapshot_after_hand``): carried over from the version before where
the write posted none (nothing read for them after the commit), read where it posted one,
and in both cases exactly the notices a whole read of the table gives."""

import functools
import random
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tables.live.runtime import Written, written_and_read
from tables.models import Hand, Table
from tables.selectors.hosting import LOG_NOTICES, NoticeRow, notices_carried
from tables.selectors.snapshot import Snapshot, load_snapshot
from tables.services import hooks
from tables.services.clock import clock_tick
from tables.services.events import lease_fenced, table_lock, table_touch
from tables.services.host_pending import notice_post
from tables.services.leases import PROCESS, lease_take, leases_renew
from tables.services.live_hand import LiveHand, held_hand
from tables.services.seats import seat_take
from tests.tables.helpers import bot_act_request

pytestmark = pytest.mark.django_db(transaction=True)  # the writes publish on commit

#: What a deal's or a hand's end reads after its commit where it posted no notice: the table
#: row with its seats (one statement).
READ_AFTER = 1


def posted_outside(table_id: int, text: str) -> None:
    """A notice posted by another write than the runtime's (a host's), with its version."""
    with transaction.atomic():
        table = table_lock(table_id)
        notice_post(table, text)
        table_touch(table)


def test_the_notices_after_a_deal_and_a_hands_end_are_carried_or_read(make_table, make_player):
    table = make_table(max_seats=6)
    players = [make_player(f"notice{n}") for n in range(3)]
    by_id = {player.pk: player for player in players}
    for player in players:
        seat_take(table=Table.objects.get(pk=table.pk), player=player, buy_in=200)
    epoch = lease_take(table.pk, PROCESS, "test") or 0
    rng = random.Random(3)
    now = timezone.now()
    marks: list[int] = []
    reads = {"deal": [], "end": []}

    def written(work: Any, before: Snapshot | None, live: LiveHand | None) -> tuple[Written, int]:
        """The write and the table after it, and how many statements ran after its commit."""

        def marked() -> Any:
            out = lease_fenced(table.pk, PROCESS, epoch, work)
            marks.append(len(queries.captured_queries))  # committed: what follows is a read
            return out

        leases_renew([table.pk], PROCESS)
        marks.clear()
        with CaptureQueriesContext(connection) as queries:
            after = written_and_read(table.pk, marked, before, live)
        return after, len(queries.captured_queries) - marks[0]

    def in_the_write(ended_table: Table, hand: Hand) -> None:
        if hand.number % 3 == 0:  # a notice the hand's end posts itself (as a host's change)
            notice_post(ended_table, f"After hand {hand.number}.")

    hooks.hand_ended.append(in_the_write)
    try:
        for number in range(1, 8):
            if number % 2:  # between hands: a notice with the table's version (read by it)
                posted_outside(table.pk, f"Before hand {number}.")
            snapshot = load_snapshot(table.pk)
            for _ in range(20):
                now += timedelta(minutes=1)
                tick = functools.partial(clock_tick, table=table.pk, now=now)
                after, read = written(tick, snapshot, None)
                if after.result == "started":
                    break
                snapshot = after.snapshot if after.version else snapshot
            assert after.result == "started" and after.snapshot is not None and not after.read
            snapshot = after.snapshot
            assert snapshot.notices == load_snapshot(table.pk).notices
            reads["deal"].append(read)
            if number % 2 == 0:  # during the hand: one more, placed after its first actions
                posted_outside(table.pk, f"During hand {number}.")
                snapshot = load_snapshot(table.pk)
            live = held_hand(snapshot)
            while snapshot.running:
                request = bot_act_request(snapshot, rng, by_id, live)
                after, read = written(request, snapshot, live)
                snapshot = after.snapshot
                assert snapshot is not None
                live = live if after.same_hand else held_hand(snapshot)
            assert not after.read and not after.same_hand  # built from the hand's end
            read_now = load_snapshot(table.pk)
            assert snapshot.notices == read_now.notices
            assert any(n.text == f"After hand {number}." for n in read_now.notices) == (
                number % 3 == 0
            )
            reads["end"].append((number, read))
            for player in players:  # whoever busted buys in again
                if not read_now.seat_of(player.pk):
                    seat_take(table=Table.objects.get(pk=table.pk), player=player, buy_in=200)
    finally:
        hooks.hand_ended.remove(in_the_write)
    # the first deal shows no hand before it: its notices are read (the log's latest)
    assert reads["deal"] == [READ_AFTER + 1] + [READ_AFTER] * 6
    assert reads["end"] == [(n, READ_AFTER + (n % 3 == 0)) for n in range(1, 8)]


def test_notices_are_read_where_the_last_hands_may_not_all_be_shown():
    def row(hand: int, after: int | None) -> NoticeRow:
        return NoticeRow(f"{hand}:{after}", hand, after)

    shown = (row(4, 2), row(4, None), row(5, None))
    assert notices_carried(shown, 4, 4) == shown  # the same hand's: the same query
    assert notices_carried(shown, 4, 5) == (row(4, None), row(5, None))
    assert notices_carried(shown, 3, 5) is None  # a hand voided between: read
    assert notices_carried(shown, None, 5) is None  # no hand shown: the latest, read
    full = tuple(row(4, n) for n in range(LOG_NOTICES))
    assert notices_carried(full, 4, 4) == full
    assert notices_carried(full, 4, 5) is None  # older ones may have been left out
