"""The per-process hand cache (``tables.selectors.hand_cache``, filled by the writes): it
saves the reads of the hand and its log, and it is never trusted once the table changed in
any other way.

Committed transactions are simulated with ``django_capture_on_commit_callbacks(execute=True)``
(the cache is only filled on commit).
"""

import pytest
from django.db import transaction
from django.utils import timezone

from tables.live.protocol import render_viewer
from tables.models import Hand, HandAction, Table
from tables.selectors import hand_cache
from tables.selectors.hands import hand_state
from tables.selectors.snapshot import Snapshot, load_snapshot
from tables.services import IllegalMove, StaleAction, hand_act, hand_start, seat_sit_out, seat_take
from tests.tables.helpers import actor, current_hand, fresh, passive_action
from tests.tables.services.test_service_queries import ACTION_QUERIES

pytestmark = pytest.mark.django_db


@pytest.fixture
def dealt(players, table, django_capture_on_commit_callbacks):
    alice, bob, carol = players
    for number, player in enumerate(players):
        seat_take(table=table, player=player, buy_in=200, seat_number=number)
    with django_capture_on_commit_callbacks(execute=True):
        hand = hand_start(table=table)
    return table, hand


def move(table, django_capture_on_commit_callbacks, kind=None, **kwargs):
    """The actor acts (``kind``, else checks or calls) in a transaction that commits."""
    hand = current_hand(table)
    kwargs = {
        "player": actor(hand),
        "hand_id": hand.pk,
        "version": fresh(table).version,
        "action": kind or passive_action(hand),
        **kwargs,
    }
    with django_capture_on_commit_callbacks(execute=True):
        return hand_act(table=table.pk, **kwargs)


def test_an_action_after_this_process_wrote_the_table_reads_neither_hand_nor_log(
    dealt, django_capture_on_commit_callbacks, django_assert_max_num_queries
):
    table, hand = dealt
    move(table, django_capture_on_commit_callbacks)
    kwargs = {
        "player": actor(hand),
        "hand_id": hand.pk,
        "version": fresh(table).version,
        "action": "call",
    }
    with (
        django_assert_max_num_queries(ACTION_QUERIES - 2) as captured,
        django_capture_on_commit_callbacks(execute=True),
    ):
        hand_act(table=table.pk, **kwargs)
    assert not any('FROM "tables_handaction"' in q["sql"] for q in captured.captured_queries)
    assert not any('FROM "tables_hand"' in q["sql"] for q in captured.captured_queries)
    # and the result is what the database says
    assert [a.kind for a in HandAction.objects.filter(hand=hand)] == ["call", "call"]
    cached = hand_cache.peek(fresh(table))
    assert cached is not None and [d[0] for d in cached.decisions] == ["call", "call"]
    assert hand_state(hand).actor == hand_state(cached.hand, cached.decisions).actor


def test_the_engine_hand_handed_over_is_the_replay_and_no_later_write_changes_it(
    dealt, django_capture_on_commit_callbacks
):
    """The entry's engine hand is what the sockets' snapshot shows without replaying: it
    equals the replay of its decisions, and stays so while the hand goes on (each write
    replays its own)."""
    table, hand = dealt
    entries = []
    for _ in range(3):
        move(table, django_capture_on_commit_callbacks)
        entry = hand_cache.peek(fresh(table))
        assert entry is not None
        entries.append((entry, entry.state.view(None).to_dict(), entry.state.stacks))
    for entry, view, stacks in entries:
        replayed = hand_state(entry.hand, list(entry.decisions))
        assert entry.state.view(None).to_dict() == view == replayed.view(None).to_dict()
        assert entry.state.stacks == stacks == replayed.stacks
        for seat in range(len(entry.hand.seats)):
            assert entry.state.view(seat).to_dict() == replayed.view(seat).to_dict()


def test_a_table_changed_by_anything_else_is_read_again(
    dealt, django_capture_on_commit_callbacks, players
):
    table, hand = dealt
    move(table, django_capture_on_commit_callbacks)
    # Another process (or a service that does not remember hands) bumps the version.
    seat_sit_out(table=table, player=players[2])
    assert hand_cache.peek(fresh(table)) is None
    move(table, django_capture_on_commit_callbacks)  # read from the database: still right
    assert HandAction.objects.filter(hand=hand).count() == 2
    entry = hand_cache.peek(fresh(table))
    assert entry is not None and len(entry.decisions) == 2


def test_a_refused_or_rolled_back_action_leaves_nothing_trusted_behind(
    dealt, django_capture_on_commit_callbacks
):
    table, hand = dealt
    move(table, django_capture_on_commit_callbacks)
    with pytest.raises(IllegalMove):  # taken out of the cache, then refused
        move(table, django_capture_on_commit_callbacks, kind="raise 1")
    assert hand_cache.peek(fresh(table)) is None
    with pytest.raises(RuntimeError), transaction.atomic():  # applied, then rolled back
        move(table, django_capture_on_commit_callbacks)
        raise RuntimeError("the commit never happens")
    assert hand_cache.peek(fresh(table)) is None
    assert HandAction.objects.filter(hand=hand).count() == 1
    move(table, django_capture_on_commit_callbacks)
    assert [a.index for a in HandAction.objects.filter(hand=hand)] == [0, 1]


def test_a_stale_version_is_refused_even_with_a_cached_hand(
    dealt, django_capture_on_commit_callbacks
):
    table, hand = dealt
    seen = fresh(table).version
    move(table, django_capture_on_commit_callbacks)
    with pytest.raises(StaleAction):
        move(table, django_capture_on_commit_callbacks, version=seen)
    assert HandAction.objects.filter(hand=hand).count() == 1


def test_a_hand_that_ends_is_not_remembered(dealt, django_capture_on_commit_callbacks):
    table, hand = dealt
    while Hand.objects.get(pk=hand.pk).is_running:
        move(table, django_capture_on_commit_callbacks, kind="fold")
    assert hand_cache.peek(fresh(table)) is None
    assert Table.objects.get(pk=table.pk).action_deadline is None


def test_the_sockets_snapshot_follows_this_process_action_without_a_read(
    dealt, django_capture_on_commit_callbacks, django_assert_num_queries, players
):

    table, hand = dealt
    previous = load_snapshot(table.pk)
    now = timezone.now()  # the state frames' clocks count from one moment
    for _ in range(3):
        move(table, django_capture_on_commit_callbacks)
        with django_assert_num_queries(0):
            after = load_snapshot(table.pk, previous)
        full = load_snapshot(table.pk)
        assert after.version == full.version == previous.version + 1
        for who in [*players, None]:  # every seat and a spectator: the same screen, cards too
            assert render_viewer(after, who, 1, json_state=True, now=now) == render_viewer(
                full, who, 1, json_state=True, now=now
            )
        previous = after


def test_a_clock_action_or_a_gap_is_read_from_the_database(
    dealt, django_capture_on_commit_callbacks, django_assert_num_queries
):

    table, hand = dealt
    previous = load_snapshot(table.pk)
    move(table, django_capture_on_commit_callbacks, source=HandAction.Source.BOT)
    with django_assert_num_queries(1):  # the table with its seats (the log: from the cache)
        after = load_snapshot(table.pk, previous)
    assert after.decisions[-1][2] == HandAction.Source.BOT
    move(table, django_capture_on_commit_callbacks)
    move(table, django_capture_on_commit_callbacks)  # ``after`` is now two versions behind
    with django_assert_num_queries(1):
        latest = load_snapshot(table.pk, after)
    assert latest.version == after.version + 2 and len(latest.decisions) == 3


def test_a_snapshot_that_already_holds_the_next_hand_is_read_again(
    players, table, django_capture_on_commit_callbacks
):
    """A snapshot's reads after the table row's may see a later commit: labelled version v,
    it can already show the hand dealt at v + 1, whose cache entry has no decision yet. The
    no-read path must not take that entry for "one action later" (it used to fail on it)."""

    for number, player in enumerate(players):
        seat_take(table=table, player=player, buy_in=200, seat_number=number)
    before_deal = fresh(table)
    with django_capture_on_commit_callbacks(execute=True):
        hand = hand_start(table=table)
    assert hand_cache.peek(fresh(table)).decisions == ()
    # What a socket could have read while the deal committed: the table row before it, the
    # hand after it.
    raced = Snapshot(before_deal, list(before_deal.seats.all()), hand, [], [])
    assert raced.running and raced.version == fresh(table).version - 1
    after = load_snapshot(table.pk, raced)
    assert after.version == fresh(table).version and after.hand.pk == hand.pk
    assert after.decisions == [] and after.running
