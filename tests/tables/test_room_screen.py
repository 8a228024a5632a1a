"""The room screen (issue 53): ``/tables/<id>/tv/``, a spectator's view of the table drawn for
a television, live over the table's socket as a spectator (``?view=tv``) whoever's browser
shows it: never a hole card, never a control; a private game's only with its host's key (the
link its panel shows), which a new invite link ends."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from tables.models import Seat, Table
from tables.presenters.render import cards_in_html
from tables.selectors.hands import hand_state
from tables.selectors.room_screen import room_screen_key
from tables.services import hand_start, seat_take
from tables.services.chat import chat_post
from tables.services.hosting import table_create, table_invite_replace
from tables.tournaments.services import tournament_register, tournament_start
from tables.tournaments.services.organise import tournament_organise
from tests.tables.wsclient import Socket, communicator, refused_with, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False  # the tests drive every change themselves


def web(player=None) -> Client:
    client = Client()
    if player is not None:
        client.force_login(player.user)
    return client


def holes_of(table) -> set[str]:
    state = hand_state(table.hands.order_by("-number").first())
    return {str(card) for seat in state.hole for card in seat}


def dealt_to_two(table, players):
    for number, player in enumerate(players[:2]):
        seat_take(table=table, player=player, buy_in=200, seat_number=number)
    hand_start(table=table)
    return holes_of(table)


def tv_socket(table_id: int, cookie: str | None = None, key: str | None = None):
    comm = communicator(table_id, cookie, query="view=tv" + (f"&key={key}" if key else ""))
    comm.scope["client"] = ["203.0.113.9", 5000]
    return comm


def test_a_public_tables_room_screen_shows_the_table_and_no_hole_card(players, table):
    holes = dealt_to_two(table, players)
    for viewer in (None, players[0]):  # a visitor's browser, and a seated player's: the same
        response = web(viewer).get(f"/tables/{table.pk}/tv/")
        assert response.status_code == 200
        page = response.content.decode()
        for part in ('id="table-seats"', 'id="table-board"', 'id="table-pots"', 'id="table-log"'):
            assert part in page
        assert f'ws-connect="/ws/tables/{table.pk}/?view=tv"' in page
        assert 'class="pc back"' in page  # the cards dealt, face down
        assert not set(cards_in_html(page)) & holes
        assert "ws-send" not in page and "<button" not in page and "<input" not in page
        qr = r'<svg role="img" aria-label="QR code: http://testserver/tables/\d+/"'
        assert re.search(qr, page)
    # The table page links to it.
    assert f'href="/tables/{table.pk}/tv/"' in web().get(f"/tables/{table.pk}/").content.decode()


def test_a_private_games_room_screen_needs_its_hosts_link(make_player, players):
    host = make_player("hostess")
    game = table_create(host=host, name="Secret", private=True)
    seat_take(table=game, player=host, buy_in=100, seat_number=0)
    key = room_screen_key(game)
    assert key
    assert web().get(f"/tables/{game.pk}/tv/").status_code == 404
    assert web(host).get(f"/tables/{game.pk}/tv/").status_code == 404  # the link, even to them
    assert web().get(f"/tables/{game.pk}/tv/?key={key[:-1]}x").status_code == 404
    page = web().get(f"/tables/{game.pk}/tv/?key={key}").content.decode()
    assert f'ws-connect="/ws/tables/{game.pk}/?view=tv&amp;key={key}"' in page
    # its QR code is the invite link, to join
    assert f'aria-label="QR code: http://testserver/join/{game.invite_token}/"' in page
    # Only the host is shown the link: on the table page and in the host's panel.
    link = f'href="/tables/{game.pk}/tv/?key={key}"'
    assert link in web(host).get(f"/tables/{game.pk}/").content.decode()
    assert link in web(host).get(f"/tables/{game.pk}/hosting/").content.decode()
    seat_take(table=game, player=players[0], buy_in=100, seat_number=1)
    assert "/tv/" not in web(players[0]).get(f"/tables/{game.pk}/").content.decode()
    # A new invite link ends the old room screen's.
    table_invite_replace(table=game, by=host.user)
    game.refresh_from_db()
    assert web().get(f"/tables/{game.pk}/tv/?key={key}").status_code == 404
    assert web().get(f"/tables/{game.pk}/tv/?key={room_screen_key(game)}").status_code == 200


async def test_the_room_screens_socket_is_a_spectators_whoever_opens_it(players, table):
    alice, bob, _ = players
    holes = await sync_to_async(dealt_to_two)(table, players)
    cookie = await sync_to_async(session_cookie)(alice.user)  # seated, dealt in
    screen = await Socket("tv", tv_socket(table.pk, cookie)).connect()
    assert 'id="table-seats"' in screen.frames[-1]
    assert not set(cards_in_html("".join(screen.frames))) & holes
    # It may not act, nor take a seat, though alice's browser shows it.
    await screen.send(op="take_seat", seat="3", buy_in="100")
    await screen.until(lambda f: "Log in to play" in f)
    assert await sync_to_async(Seat.objects.filter(table=table).count)() == 2
    # The chat is not its business: a line a watcher's page gets does not reach it.
    watcher_comm = communicator(table.pk)
    watcher_comm.scope["client"] = ["198.51.100.7", 5000]
    watcher = await Socket("watcher", watcher_comm).connect()
    await sync_to_async(chat_post)(table=table, player=bob, text="nice hand")
    await watcher.until(lambda f: "nice hand" in f)
    await screen.send(op="sync")
    await screen.until(lambda f: 'id="table-seats"' in f)
    assert not any("nice hand" in frame for frame in screen.frames)
    for socket in (screen, watcher):
        await socket.close()


async def test_a_private_games_room_screen_socket_needs_the_key(make_player):
    host = await sync_to_async(make_player)("hostess")
    game = await sync_to_async(table_create)(host=host, name="Secret", private=True)
    cookie = await sync_to_async(session_cookie)(host.user)
    assert await refused_with(tv_socket(game.pk, cookie)) == 4404  # even in the host's browser
    assert await refused_with(tv_socket(game.pk, key="nope")) == 4404
    key = await sync_to_async(room_screen_key)(game)
    screen = await Socket("tv", tv_socket(game.pk, key=key)).connect()
    assert 'id="table-seats"' in screen.frames[-1]
    await screen.close()
    assert (await sync_to_async(Table.objects.get)(pk=game.pk)).private


def test_a_tournament_tables_room_screen_shows_its_level_and_follows_it(players):
    alice, bob, _ = players
    levels = [{"small_blind": 10, "big_blind": 20, "hands": 5}]
    tournament = tournament_organise(organiser=alice, name="Friday night", levels=levels)
    for player in (alice, bob):
        tournament_register(tournament=tournament, player=player)
    tournament_start(tournament=tournament, by=alice)
    table = tournament.tables.get().table
    page = web(alice).get(f"/tables/{table.pk}/tv/").content.decode()
    level = re.search(r'<p id="tournament-level"[^>]*>(.*?)</p>', page, re.S)
    assert level and "Level 1" in level.group(1) and "10/20" in level.group(1)
    # It asks its own page again for the level (the same view, no player's rebuy button).
    assert f'hx-get="/tables/{table.pk}/tv/" hx-select="#tournament-level"' in page
    assert "rebuy" not in level.group(1).lower()
