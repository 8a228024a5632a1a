"""The table snapshot a runtime shares with every socket: each viewer still gets only what
the engine's view shows them, and a snapshot read from the previous one equals a full read."""

import json

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from tables.live.frames import render_viewer
from tables.models import Table
from tables.presenters.models import BoardRegion
from tables.presenters.render import cards_in_html, render_regions
from tables.selectors.hands import hand_state
from tables.selectors.snapshot import load_snapshot
from tables.services import hand_start, seat_take
from tests.tables.helpers import act, current_hand, screen_of
from tests.tables.wsclient import Socket, communicator, session_cookie


def hole(hand, player) -> set[str]:
    return {str(c) for c in hand_state(hand).hole[hand.seat_index_of(player.pk)]}


@pytest.fixture
def dealt(players, table):
    alice, bob, carol = players
    seat_take(table=table, player=alice, buy_in=200, seat_number=0)
    seat_take(table=table, player=bob, buy_in=200, seat_number=3)
    hand = hand_start(table=table)
    table.refresh_from_db()
    return table, hand, alice, bob, carol


@pytest.mark.django_db
@pytest.mark.parametrize("order", [("alice", "bob", "carol"), ("carol", "bob", "alice")])
def test_one_snapshot_renders_each_viewer_their_own_cards_only(dealt, order):
    table, hand, alice, bob, carol = dealt
    who = {"alice": alice, "bob": bob, "carol": carol}
    snap = load_snapshot(table.pk)
    html = {}
    for name in order:  # whichever viewer fills the shared regions first
        version, html[name], state = render_viewer(
            snap, who[name], who[name].bankroll, json_state=True
        )
        assert version == table.version
        view_cards = {c for s in json.loads(state)["view"]["seats"] for c in s["cards"] if c}
        html[name + "-json"] = view_cards
    a, b = hole(hand, alice), hole(hand, bob)
    assert set(cards_in_html(html["alice"])) == a and html["alice-json"] == a
    assert set(cards_in_html(html["bob"])) == b and html["bob-json"] == b
    assert cards_in_html(html["carol"]) == [] and html["carol-json"] == set()
    # The same HTML as the uncached, per-viewer path (the first page load's presenters).
    assert html["alice"] == render_regions(screen_of(table, alice))
    assert html["carol"] == render_regions(screen_of(table, carol))
    # Viewer-independent regions are rendered once and shared.
    assert sum(1 for model, _ in snap.memo["html"] if isinstance(model, BoardRegion)) == 1


@pytest.mark.django_db
def test_only_the_actor_gets_the_action_bar_from_a_shared_snapshot(dealt, play):
    table, hand, alice, bob, carol = dealt
    actor = play.actor(hand)
    other = bob if actor == alice else alice
    snap = load_snapshot(table.pk)
    assert 'value="fold"' not in render_viewer(snap, other)[1]
    assert 'value="fold"' in render_viewer(snap, actor)[1]
    assert 'value="fold"' not in render_viewer(snap, carol, carol.bankroll)[1]


@pytest.mark.django_db(transaction=True)
async def test_sockets_of_different_viewers_get_their_own_cards_only(players, table, settings):
    settings.POKER_CROUPIER = False
    alice, bob, carol = players
    await sync_to_async(seat_take)(table=table, player=alice, buy_in=200, seat_number=0)
    await sync_to_async(seat_take)(table=table, player=bob, buy_in=200, seat_number=1)
    cookies = {p.name: await sync_to_async(session_cookie)(p.user) for p in players}
    sockets = {
        n: await Socket(n, communicator(table.pk, cookies[n])).connect()
        for n in ("alice", "bob", "carol")
    }
    try:
        await sync_to_async(hand_start)(table=table)
        for _ in range(3):
            version = await sync_to_async(lambda: Table.objects.get(pk=table.pk).version)()
            for s in sockets.values():
                await s.until_version(version)
            await sync_to_async(act)(table, "call" if _ == 0 else "check")
        hand = await sync_to_async(current_hand)(table)
        own = {
            "alice": await sync_to_async(hole)(hand, alice),
            "bob": await sync_to_async(hole)(hand, bob),
            "carol": set(),
        }
        board = {str(c) for c in (await sync_to_async(hand_state)(hand)).board}
        for name, socket in sockets.items():
            seen = {c for frame in socket.frames for c in cards_in_html(frame)}
            assert seen - board == own[name], name
    finally:
        for s in sockets.values():
            await s.close()


@pytest.mark.django_db
def test_a_read_from_the_previous_snapshot_equals_a_full_read(dealt, play):
    table, hand, alice, bob, carol = dealt
    previous = load_snapshot(table.pk)
    act(table, "call")
    for snap in (load_snapshot(table.pk, previous), load_snapshot(table.pk)):
        assert len(snap.decisions) == 1 and snap.version == previous.version + 1
    incremental, full = load_snapshot(table.pk, previous), load_snapshot(table.pk)
    assert incremental.decisions == full.decisions and incremental.view(None) == full.view(None)
    play.play_out(table)  # the hand ends: the recent hands change, read again
    after, full = load_snapshot(table.pk, incremental), load_snapshot(table.pk)
    assert after.recent == full.recent and [h.number for h in after.recent] == [hand.number]
    assert after.decisions == full.decisions and after.view(None) == full.view(None)
    assert render_viewer(after, alice)[1] == render_viewer(full, alice)[1]


@pytest.mark.django_db
def test_a_running_hand_is_read_again_with_only_its_new_actions(dealt, django_assert_num_queries):
    table, hand, alice, bob, carol = dealt
    first = load_snapshot(table.pk)
    act(table, "call")
    with django_assert_num_queries(2):  # the table with its seats, the new actions
        again = load_snapshot(table.pk, first)
    fresh = load_snapshot(table.pk)
    assert again.version == fresh.version > first.version and again.running
    now = timezone.now()  # the state frames' clocks count from one moment
    for who in (alice, bob, carol):
        assert render_viewer(again, who, who.bankroll, json_state=True, now=now) == render_viewer(
            fresh, who, who.bankroll, json_state=True, now=now
        )


@pytest.mark.django_db
@pytest.mark.parametrize("ending", ["void", "finish"])
def test_a_hand_that_ended_is_never_shown_running_from_the_last_snapshot(dealt, play, ending):
    from tables.services import hand_void

    table, hand, alice, bob, carol = dealt
    first = load_snapshot(table.pk)
    if ending == "void":  # after a new action: the snapshot must not trust the hand row
        act(table, "call")
        hand_void(table=table, hand_id=hand.pk, reason="test")
    else:
        play.play_out(table)
    again = load_snapshot(table.pk, first)
    fresh = load_snapshot(table.pk)
    assert not again.running and again.version == fresh.version
    assert render_viewer(again, carol, 1) == render_viewer(fresh, carol, 1)


@pytest.mark.django_db
def test_an_empty_table_given_as_its_row_is_not_read_again(table, django_assert_num_queries):
    # The first read of a table learns whether it is a tournament's (a cash table's answer is
    # kept by the process: ``tables.tournaments.services.lookup``); counted from the second.
    load_snapshot(table)
    # the seats (none), the hand on screen, recent hands, the notices for the log, and the
    # table's version again (nothing committed in between)
    with django_assert_num_queries(5):
        given = load_snapshot(table)
    with django_assert_num_queries(6):  # and the table row, by its id
        by_id = load_snapshot(table.pk)
    assert given.table is table and given.seats == {} and given.hand is None
    assert by_id.version == given.version and by_id.table.name == table.name
