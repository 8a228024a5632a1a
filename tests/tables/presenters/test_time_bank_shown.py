"""The time bank being drawn is the table's to say, not the page's to infer: a screen built
after the clock drew the actor's bank (a page opened or reconnected then) says so to every
viewer, in its HTML (the clock's ``data-bank``) and its JSON state (``clock.bank_drawn``),
until the turn passes, including in the version a table's runtime builds in memory after
the action."""

import re

import pytest
from django.utils import timezone

from tables.live.frames import render_viewer
from tables.models import Table
from tables.presenters.play_state import play_state
from tables.presenters.screen import table_screen
from tables.selectors.players import player_bankroll
from tables.selectors.snapshot import Snapshot, load_snapshot, snapshot_after_action
from tables.services import hand_act, seat_take
from tables.services.clock import clock_tick
from tables.services.live_hand import LiveHand

pytestmark = pytest.mark.django_db

#: The clock's mark in the actions region's HTML (not ``data-bankroll``).
BANK_MARK = re.compile(r"data-bank\b")


@pytest.fixture
def banked(players, make_table):
    """Alice and Bob heads-up, the first actor's turn over and their time bank drawn; Carol
    watches. The table row as the bank left it."""
    table = make_table(name="Bank", action_seconds=5, time_bank_seconds=15)
    alice, bob, carol = players
    seat_take(table=table, player=alice, buy_in=200, seat_number=0)
    seat_take(table=table, player=bob, buy_in=200, seat_number=1)
    assert clock_tick(table=table, now=timezone.now()) == "started"
    dealt = Table.objects.get(pk=table.pk)
    assert not dealt.action_banked
    assert clock_tick(table=table, now=dealt.action_deadline) == "time-bank"
    return Table.objects.get(pk=table.pk), (alice, bob, carol, None)


def bank_shown(snapshot: Snapshot, viewer) -> bool:
    """Whether ``viewer`` (None: a visitor) is shown the bank drawn, in the HTML and the JSON
    state alike (they must agree)."""
    bankroll = player_bankroll(viewer.pk) if viewer is not None else None
    _, html, _ = render_viewer(snapshot, viewer, bankroll)
    state = play_state(snapshot, table_screen(snapshot, viewer, bankroll))
    in_html = BANK_MARK.search(html) is not None
    assert in_html == state["clock"]["bank_drawn"], (in_html, state["clock"])
    return in_html


def test_a_screen_built_after_the_bank_was_drawn_shows_it_until_the_next_action(banked, play):
    table, viewers = banked
    assert table.action_banked
    snapshot = load_snapshot(table.pk)
    assert snapshot is not None
    assert all(bank_shown(snapshot, viewer) for viewer in viewers)
    play.act(table, "call")  # the turn passes: the next one's clock has no bank drawn
    assert not Table.objects.get(pk=table.pk).action_banked
    after = load_snapshot(table.pk)
    assert after is not None and after.running
    assert not any(bank_shown(after, viewer) for viewer in viewers)


def test_the_version_built_in_memory_after_the_action_shows_no_bank(banked, play):
    table, viewers = banked
    snapshot = load_snapshot(table.pk)
    assert snapshot is not None and snapshot.hand is not None and snapshot.state is not None
    live = LiveHand(
        snapshot.version,
        snapshot.hand,
        list(snapshot.decisions),
        snapshot.state,
        snapshot.table.action_deadline,
    )
    hand = play.current_hand(table)
    hand_act(
        table=table.pk,
        player=play.actor(hand),
        hand_id=hand.pk,
        version=snapshot.version,
        action="call",
        live=live,
    )
    assert not live.spent and live.version == snapshot.version + 1
    built = snapshot_after_action(snapshot, live.version, live.deadline, live.decisions, live.state)
    assert built is not None  # the runtime's path: nothing read
    assert not built.table.action_banked
    assert not any(bank_shown(built, viewer) for viewer in viewers)


def test_no_bank_is_shown_before_the_clock_draws_it(players, make_table):
    table = make_table(name="No bank yet", action_seconds=5, time_bank_seconds=15)
    alice, bob, carol = players
    seat_take(table=table, player=alice, buy_in=200, seat_number=0)
    seat_take(table=table, player=bob, buy_in=200, seat_number=1)
    assert clock_tick(table=table, now=timezone.now()) == "started"
    snapshot = load_snapshot(table.pk)
    assert snapshot is not None and snapshot.running
    assert not any(bank_shown(snapshot, viewer) for viewer in (alice, bob, carol, None))
