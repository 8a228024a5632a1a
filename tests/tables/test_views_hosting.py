"""The hosting pages (tables/views_hosting.py): the new-game form, the host panel and its
controls over HTTP."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tables.models import Seat, Table, TableGuest
from tables.services import seat_leave, seat_take
from tables.services.hosting import table_create
from tables.services.seat_requests import seat_ask

pytestmark = pytest.mark.django_db


def web(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


FORM = {
    "name": "Friday",
    "game": "holdem",
    "betting": "no-limit",
    "small_blind": 1,
    "big_blind": 2,
    "ante": 0,
    "ante_mode": "per-player",
    "straddle": 0,
    "max_seats": 9,
    "min_buy_in": 40,
    "max_buy_in": 200,
    "action_seconds": 30,
    "time_bank_seconds": 60,
    "bot_seats": 0,
    "private": "on",
}


def test_the_lobby_and_header_offer_a_new_game(players):
    page = web(players[0]).get("/").content.decode()
    assert page.count('href="/tables/new/"') == 2


def test_the_form_needs_a_log_in_and_starts_with_the_defaults(players):
    assert Client().get("/tables/new/").url.startswith("/accounts/login/")
    page = web(players[0]).get("/tables/new/").content.decode()
    for name, value in (("max_seats", 9), ("min_buy_in", 40), ("max_buy_in", 200)):
        assert f'name="{name}" value="{value}"' in page, name
    assert re.search(r'<input type="checkbox" name="private"[^>]* checked>', page)


@pytest.mark.parametrize(
    "changes, field, message",
    [
        ({"game": "omaha", "max_seats": 11}, "max_seats", "Omaha seats 2 to 10 players."),
        ({"bot_seats": 8}, "bot_seats", "Bots may fill at most 7 of 9 seats"),
        ({"small_blind": 3}, "small_blind", "cannot be more than the big blind"),
    ],
)
def test_each_error_is_shown_by_its_field_and_nothing_is_created(players, changes, field, message):
    page = web(players[0]).post("/tables/new/", {**FORM, **changes}).content.decode()
    start = page.index(f'name="{field}"')
    assert message in page[start : start + 600]
    assert not Table.objects.exists()


def test_a_created_game_opens_with_its_host(players):
    answer = web(players[0]).post("/tables/new/", FORM)
    table = Table.objects.get()
    assert answer.url == f"/tables/{table.pk}/"
    assert table.host == players[0] and table.private


def test_host_controls_are_403_for_guests_and_404_for_outsiders(players, make_player):
    host, guest = players[:2]
    game = table_create(host=host, name="Game")
    TableGuest.objects.create(table=game, player=guest)
    assert web(guest).post(f"/tables/{game.pk}/host/pause/").status_code == 403
    assert web(make_player("nobody")).post(f"/tables/{game.pk}/host/pause/").status_code == 404
    assert Table.objects.get(pk=game.pk).status == "open"
    answer = web(host).post(f"/tables/{game.pk}/host/pause/", HTTP_HX_REQUEST="true")
    assert Table.objects.get(pk=game.pk).status == "paused"
    assert "Paused." in answer.content.decode() and 'class="resume"' in answer.content.decode()


def test_the_host_sees_requests_and_the_player_sees_the_answer(players, make_player):
    host, alice = make_player("hostess"), players[0]
    game = table_create(host=host, name="Ask", seat_approval=True)
    TableGuest.objects.create(table=game, player=alice)  # came by the invite link
    request = seat_ask(table=game, player=alice, buy_in=150).request
    panel = web(host).get(f"/tables/{game.pk}/hosting/").content.decode()
    assert 'data-player="alice"' in panel and "with 150 chips" in panel
    assert game.invite_token in panel
    mine = web(alice).get(f"/tables/{game.pk}/hosting/").content.decode()
    assert 'data-status="pending"' in mine and game.invite_token not in mine
    web(host).post(f"/tables/{game.pk}/host/decline/", {"request": request.pk})
    mine = web(alice).get(f"/tables/{game.pk}/hosting/").content.decode()
    assert "The host declined your request" in mine
    assert not Seat.objects.filter(player=alice).exists()


def test_the_panel_states_the_rejoining_rule(players, settings):
    settings.POKER_RESEAT_WAIT_SECONDS = 0
    host, alice = players[:2]
    game = table_create(host=host, name="Rat")
    TableGuest.objects.create(table=game, player=alice)  # came by the invite link
    seat_take(table=game, player=alice, buy_in=180)
    seat_leave(table=game, player=alice)
    panel = web(alice).get(f"/tables/{game.pk}/hosting/").content.decode()
    assert "buy in for at least 180" in panel


def test_the_host_changes_blinds_and_corrects_a_stack_from_the_panel(players):
    host, alice = players[:2]
    game = table_create(host=host, name="Panel")
    seat_take(table=game, player=alice, buy_in=100)
    client = web(host)
    client.post(
        f"/tables/{game.pk}/host/change/",
        {"small_blind": 2, "big_blind": 4, "ante": 0, "straddle": 0, "action_seconds": 20},
    )
    table = Table.objects.get(pk=game.pk)
    assert (table.small_blind, table.big_blind, table.action_seconds) == (2, 4, 20)
    client.post(f"/tables/{game.pk}/host/correct/", {"player": alice.pk, "stack": 120})
    assert Seat.objects.get(player=alice).stack == 120
    answer = client.post(
        f"/tables/{game.pk}/host/correct/", {"player": alice.pk, "stack": "lots"}, follow=True
    )
    assert "whole number" in answer.content.decode()
    assert Seat.objects.get(player=alice).stack == 120


def test_approving_from_the_panel_seats_the_player(players):
    host, alice = players[:2]
    game = table_create(host=host, name="Approve", seat_approval=True)
    request = seat_ask(table=game, player=alice, buy_in=100).request
    web(host).post(f"/tables/{game.pk}/host/approve/", {"request": request.pk})
    assert Seat.objects.get(player=alice).stack == 100


def test_the_panel_is_on_hosted_games_pages_only(players, table):
    game = table_create(host=players[0], name="Hosted")
    assert 'id="hosting"' in web(players[0]).get(f"/tables/{game.pk}/").content.decode()
    assert 'id="hosting"' not in web(players[0]).get(f"/tables/{table.pk}/").content.decode()


def test_the_host_hands_the_game_to_an_invited_guest(players, make_player):
    host, guest = make_player("hostess"), players[0]
    game = table_create(host=host, name="Handover")
    TableGuest.objects.create(table=game, player=guest)
    panel = web(host).get(f"/tables/{game.pk}/hosting/").content.decode()
    assert '<span data-player="alice">alice <button type="button" class="make-host link"' in panel
    web(host).post(f"/tables/{game.pk}/host/transfer/", {"player": guest.pk})
    assert Table.objects.get(pk=game.pk).host == guest


# --- issue 20: every game in the picker ------------------------------------------------------
STUD_FORM = {**FORM, "game": "razz", "betting": "fixed-limit", "max_seats": 8, "ante": 1}


def test_the_picker_offers_every_game_and_says_which_settings_each_leaves_out(players):
    page = web(players[0]).get("/tables/new/").content.decode()
    for game in ("omaha-hilo", "stud", "stud-hilo", "razz"):
        assert f'<option value="{game}"' in page, game
    for name in ("straddles", "button_straddle", "bring_in", "small_bet", "big_bet"):
        assert f'name="{name}"' in page, name
    rules = re.search(r'<script id="game-rules" type="application/json">(.*?)</script>', page)
    assert rules is not None
    hidden = __import__("json").loads(rules.group(1))["hidden"]
    assert (
        "big_blind" in hidden["stud"]["fixed-limit"]
        and "bring_in" not in hidden["razz"]["fixed-limit"]
    )
    assert (
        "bring_in" in hidden["holdem"]["no-limit"] and "small_bet" in hidden["holdem"]["no-limit"]
    )
    assert "small_bet" not in hidden["omaha-hilo"]["fixed-limit"]


def test_a_razz_game_is_started_from_the_form_with_its_bring_in_and_bets(players):
    answer = web(players[0]).post(
        "/tables/new/", {**STUD_FORM, "bring_in": 1, "small_bet": 4, "straddle": 4}
    )
    assert answer.status_code == 302, answer.content.decode()
    table = Table.objects.get(name="Friday")
    # The blinds and straddle the form hid for razz are left at their defaults (no blinds).
    assert (table.game, table.small_blind, table.big_blind, table.straddle) == ("razz", 0, 0, 0)
    assert table.stakes == "4/8 ante 1 bring-in 1"


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"bring_in": 1}, "small_bet"),
        ({"bring_in": 4, "small_bet": 4}, "bring_in"),
        ({"bring_in": 1, "small_bet": 4, "betting": "no-limit"}, "betting"),
        ({"bring_in": 1, "small_bet": 4, "max_seats": 9}, "max_seats"),
    ],
)
def test_a_bad_stud_setting_is_shown_by_its_field(players, changes, field):
    page = web(players[0]).post("/tables/new/", {**STUD_FORM, **changes}).content.decode()
    assert re.search(rf'<p class="field invalid">\s*<label for="id_{field}"', page), field
    assert not Table.objects.filter(name="Friday").exists()


def test_a_holdem_game_with_two_straddles_from_the_form(players):
    answer = web(players[0]).post("/tables/new/", {**FORM, "straddle": 4, "straddles": 2})
    assert answer.status_code == 302
    table = Table.objects.get(name="Friday")
    assert (table.straddle, table.straddles, table.stakes) == (4, 2, "1/2/4/8")


def test_the_lobby_names_each_game_and_its_stakes(players, make_table):
    make_table(
        name="Razz room", game="razz", betting="fixed-limit", ante=1, bring_in=1, small_bet=4
    )
    make_table(name="Split pots", game="omaha-hilo", betting="pot-limit", straddle=4)
    page = web(players[0]).get("/").content.decode()
    assert "Fixed-limit Razz" in page and "4/8 ante 1 bring-in 1" in page
    assert "Pot-limit Omaha Hi-Lo" in page and "1/2/4" in page
