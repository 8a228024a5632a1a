"""A hosted game as its open screens follow it: the host's announcements in the table log
(each ``TableNotice`` kept with its place among the hand's lines and shown there to every
viewer: page, socket, play state, live, nothing hidden coming through it), who hosts after a
hand-over (the mute controls move without a reload), and the rejoining minimum in the
sit-down form."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from markupsafe import escape

from tables.models import TableNotice
from tables.presenters.play_state import play_state
from tables.presenters.render import cards_in_html, region_html
from tables.selectors.snapshot import load_snapshot
from tables.services import hand_start, seat_take
from tables.services.host_seats import table_host_remove, table_host_transfer
from tables.services.hosting import (
    table_create,
    table_host_pause,
    table_host_resume,
    table_host_update,
)
from tests.tables.helpers import act, current_hand, passive_action, play_out, screen_of
from tests.tables.presenters.test_play_state import VALIDATOR
from tests.tables.wsclient import Socket, communicator, session_cookie


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False


@pytest.fixture
def game(players):
    """alice hosts; alice and bob sit with 100 each; carol is a guest who watches."""
    alice, bob, carol = players
    table = table_create(host=alice, name="Notices", private=False)
    seat_take(table=table, player=alice, buy_in=100)
    seat_take(table=table, player=bob, buy_in=100)
    return table


def log_of(table, player) -> list[tuple[str, str]]:
    """(kind, text) of each line of the log ``player`` (None: a spectator) sees now."""
    return [(line.kind, line.text) for line in screen_of(table, player).log.lines]


@pytest.mark.django_db
def test_a_notice_mid_hand_is_placed_after_the_decisions_made_before_it(game, players):
    alice, bob, carol = players
    hand_start(table=game)
    act(game, passive_action(current_hand(game)))  # one decision
    table_host_update(table=game, by=alice.user, changes={"small_blind": 2, "big_blind": 4})
    notice = TableNotice.objects.filter(table=game).latest("id")
    assert (notice.hand_number, notice.after_actions) == (current_hand(game).number, 1)
    act(game, passive_action(current_hand(game)))  # a second decision, after the notice

    for viewer in (alice, bob, carol, None):  # both players, a guest, a spectator
        lines = log_of(game, viewer)
        notices = [i for i, (kind, _) in enumerate(lines) if kind == "notice"]
        # the game's opening came before hand 1: the first line of its log
        assert notices[0] == 0 and lines[0][1] == "alice opened the game."
        assert len(notices) == 2
        at = notices[1]
        assert lines[at][1].startswith("From the next hand: No-limit Hold'em 2/4")
        # heads-up preflop: the button calls, the big blind checks; the notice came between
        called = next(i for i, (_, text) in enumerate(lines) if text.endswith(" calls"))
        checked = next(i for i, (_, text) in enumerate(lines) if text.endswith(" checks"))
        assert called < at < checked, lines


@pytest.mark.django_db
def test_notices_between_hands_end_the_last_hand_and_open_the_next(game, players):
    alice, bob, _ = players
    hand_start(table=game)
    play_out(game)
    table_host_pause(table=game, by=alice.user)
    assert log_of(game, bob)[-1] == ("notice", "The host paused the game: no new hand starts.")
    table_host_resume(table=game, by=alice.user)
    hand_start(table=game)
    lines = log_of(game, bob)
    assert lines[:2] == [
        ("notice", "The host paused the game: no new hand starts."),
        ("notice", "The host resumed the game."),
    ]
    assert all(kind == "hand" for kind, _ in lines[2:])
    play_out(game)
    hand_start(table=game)  # two hands on: the old notices are no longer in the log
    assert [kind for kind, _ in log_of(game, bob)].count("notice") == 0


@pytest.mark.django_db
def test_a_new_game_shows_its_notices_while_waiting_for_players(players):
    game = table_create(host=players[0], name="Empty")
    html = region_html(screen_of(game, players[0]), oob=False)["log"]
    assert '<li class="notice">alice opened the game.' in html
    assert "Waiting for players" in html


@pytest.mark.django_db
def test_the_play_state_carries_notices_as_their_own_kind(game, players):
    alice, bob, _ = players
    hand_start(table=game)
    table_host_remove(table=game, by=alice.user, player=bob)  # bob is in the hand: at its end
    snapshot = load_snapshot(game)
    state = play_state(snapshot, screen_of(game, alice))
    VALIDATOR.validate(state)
    notices = [line for line in state["log"] if line["kind"] == "notice"]
    assert notices[1:] == [
        {
            "kind": "notice",
            "text": "The host removed bob: they are cashed out when this hand ends.",
            "cards": [],
        }
    ]
    assert notices[0]["text"] == "alice opened the game."
    assert {line["kind"] for line in state["log"]} == {"hand", "notice"}


# --- live, over the socket -------------------------------------------------------------------
async def connect(table, player, query="") -> Socket:
    cookie = await sync_to_async(session_cookie)(player.user)
    socket = Socket(player.name, communicator(table.pk, cookie, query=query))
    connected, _ = await socket.comm.connect()
    assert connected
    await socket.receive()  # the table's state
    return socket


@pytest.mark.django_db(transaction=True)
async def test_a_second_player_and_a_spectator_see_the_host_s_notice_live(game, players):
    alice, bob, carol = players
    await sync_to_async(hand_start)(table=game)
    player = await connect(game, bob)
    watcher = await connect(game, carol)
    program = await connect(game, bob, query="state=json")
    await sync_to_async(table_host_update)(
        table=game, by=alice.user, changes={"small_blind": 2, "big_blind": 4}
    )
    notice = "From the next hand: No-limit Hold'em 2/4 (set by the host)."
    in_html = str(escape(notice))
    for socket in (player, watcher):
        # the whole log, or its new lines (``table-log-lines``)
        frame = await socket.until(lambda f: 'id="table-log' in f and in_html in f)
        assert f'<li class="notice">{in_html}' in frame
        if socket is watcher:  # preflop: a spectator sees no card, notice or not
            assert cards_in_html(frame) == []
    state = json.loads(await program.until(lambda f: notice in f))["state"]
    VALIDATOR.validate(state)
    assert {"kind": "notice", "text": notice, "cards": []} in state["log"]
    for socket in (player, watcher, program):
        await socket.close()


# --- who hosts, followed live ------------------------------------------------------------------
def chat_lists(frames: list[str]) -> list[str]:
    return [f for f in frames if 'id="chat-lines"' in f]


@pytest.mark.django_db(transaction=True)
async def test_after_a_hand_over_the_mute_controls_move_to_the_new_host_live(game, players):
    alice, bob, _ = players
    old_host = await connect(game, alice)
    new_host = await connect(game, bob)
    await old_host.send(op="chat", text="hello from alice")
    await new_host.send(op="chat", text="hello from bob")
    frame = await old_host.until(lambda f: "hello from bob" in f)
    assert f'"player": "{bob.pk}", "muted": "1"' in frame  # alice hosts: a mute button
    await new_host.until(lambda f: "hello from bob" in f)
    assert not any("chat_mute" in f for f in chat_lists(new_host.frames))

    await sync_to_async(table_host_transfer)(table=game, by=alice.user, player=bob)
    # bob's open page: the whole list again, with a mute button by alice's line
    frame = await new_host.until(lambda f: 'id="chat-lines"' in f and 'hx-swap-oob="true"' in f)
    assert f'"player": "{alice.pk}", "muted": "1"' in frame
    assert "hello from alice" in frame and "hello from bob" in frame
    # alice's: the list again without any
    frame = await old_host.until(lambda f: 'id="chat-lines"' in f and 'hx-swap-oob="true"' in f)
    assert "chat_mute" not in frame and "hello from alice" in frame
    # and the server agrees: bob mutes, alice may not
    await new_host.send(op="chat_mute", player=str(alice.pk), muted="1")
    await new_host.until(lambda f: "alice is muted." in f)
    await old_host.send(op="chat_mute", player=str(bob.pk), muted="1")
    assert "Only the host" in await old_host.until(lambda f: "Only the host" in f)
    for socket in (old_host, new_host):
        assert len(chat_lists(await socket.drain())) == 0  # nothing more, no line twice
        await socket.close()


@pytest.mark.django_db(transaction=True)
async def test_a_player_who_leaves_gets_the_rejoining_minimum_in_the_sit_down_form_live(
    game, players
):
    bob = players[1]
    socket = await connect(game, bob)
    await socket.send(op="leave")
    frame = await socket.until(lambda f: 'class="sit-down"' in f)
    assert 'name="buy_in" min="100" max="200" value="100"' in frame
    assert "You left Notices with 100 chips less than an hour ago" in frame
    await socket.close()
