"""The hosting pages (tables/views_hosting.py): the new-game form, the host panel and its
controls over HTTP."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tables.api.hosting_serializers import GameSettingsSerializer
from tables.models import Seat, Table, TableGuest
from tables.services import hand_start, seat_leave, seat_take
from tables.services.errors import BuyInOutOfRange
from tables.services.hosting import HOST_FIELDS, table_create
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


SIT_DOWN = re.compile(r'<form class="sit-down".*?</form>', re.S)
BUY_IN = re.compile(r'<input type="number" name="buy_in" min="(\d+)" max="(\d+)" value="(\d+)"')


def sit_down_form(client, game) -> tuple[tuple[int, int, int], str]:
    """(min, max, value) of the page's buy-in input, and the form's text."""
    form = SIT_DOWN.search(client.get(f"/tables/{game.pk}/").content.decode()).group(0)
    return tuple(map(int, BUY_IN.search(form).groups())), form


def test_the_sit_down_form_asks_a_rejoining_player_for_the_chips_they_left_with(players, settings):
    settings.POKER_RESEAT_WAIT_SECONDS = 0
    host, alice, bob = players
    game = table_create(host=host, name="Rat")  # buy-in 40 to 200
    TableGuest.objects.create(table=game, player=alice)  # came by the invite link
    TableGuest.objects.create(table=game, player=bob)
    seat_take(table=game, player=alice, buy_in=180)
    seat_leave(table=game, player=alice)
    (low, high, value), form = sit_down_form(web(alice), game)
    assert (low, high, value) == (180, 200, 180)
    rule = "You left Rat with 180 chips less than an hour ago: buy in for at least 180."
    assert rule in form
    # the refusal says it in the same words (one rule, one sentence)
    with pytest.raises(BuyInOutOfRange) as refused:
        seat_take(table=game, player=alice, buy_in=100)
    assert str(refused.value).startswith(rule)
    # someone who never sat here gets the table's own range and no such line
    (low, high, value), form = sit_down_form(web(bob), game)
    assert (low, high) == (40, 200) and "less than an hour ago" not in form


def test_the_rejoining_minimum_may_pass_the_table_s_maximum(players, settings):
    settings.POKER_RESEAT_WAIT_SECONDS = 0
    host, alice = players[:2]
    game = table_create(host=host, name="Rich", private=False)
    seat = seat_take(table=game, player=alice, buy_in=200)
    Seat.objects.filter(pk=seat.pk).update(stack=350)  # won 150 (as a hand would leave it)
    seat_leave(table=game, player=alice)
    assert sit_down_form(web(alice), game)[0] == (350, 350, 350)


def test_the_host_changes_blinds_and_corrects_a_stack_from_the_panel(players):
    host, alice = players[:2]
    game = table_create(host=host, name="Panel")
    seat_take(table=game, player=alice, buy_in=100)
    client = web(host)
    client.post(
        f"/tables/{game.pk}/host/change/",
        whole_form(game, small_blind=2, big_blind=4, action_seconds=20),
    )
    table = Table.objects.get(pk=game.pk)
    assert (table.small_blind, table.big_blind, table.action_seconds) == (2, 4, 20)
    client.post(f"/tables/{game.pk}/host/correct/", {"player": alice.pk, "stack": 80})
    assert Seat.objects.get(player=alice).stack == 80
    answer = client.post(
        f"/tables/{game.pk}/host/correct/", {"player": alice.pk, "stack": "lots"}, follow=True
    )
    assert "whole number" in answer.content.decode()
    # issue 32 item 1: the form route keeps the same limits (the range, no bankroll raid)
    answer = client.post(
        f"/tables/{game.pk}/host/correct/", {"player": alice.pk, "stack": 10_000}, follow=True
    )
    assert "40 to 200" in answer.content.decode()
    assert Seat.objects.get(player=alice).stack == 80


def test_approving_from_the_panel_seats_the_player(players):
    host, alice = players[:2]
    game = table_create(host=host, name="Approve", seat_approval=True)
    request = seat_ask(table=game, player=alice, buy_in=100).request
    web(host).post(f"/tables/{game.pk}/host/approve/", {"request": request.pk})
    assert Seat.objects.get(player=alice).stack == 100


def test_the_panel_is_on_hosted_games_pages_only(players, table):
    game = table_create(host=players[0], name="Hosted")
    page = web(players[0]).get(f"/tables/{game.pk}/").content.decode()
    assert 'id="hosting"' in page
    assert "{#" not in page and "#}" not in page  # no template comment shown as text
    assert 'id="hosting"' not in web(players[0]).get(f"/tables/{table.pk}/").content.decode()


def test_the_host_hands_the_game_to_an_invited_guest(players, make_player):
    host, guest = make_player("hostess"), players[0]
    game = table_create(host=host, name="Handover")
    TableGuest.objects.create(table=game, player=guest)
    panel = web(host).get(f"/tables/{game.pk}/hosting/").content.decode()
    assert '<span data-player="alice">alice <button type="button" class="make-host link"' in panel
    web(host).post(f"/tables/{game.pk}/host/transfer/", {"player": guest.pk})
    assert Table.objects.get(pk=game.pk).host == guest


# --- the change form: every setting the API takes ---------------------------------------------
def whole_form(table, **changes) -> dict:
    """The panel's change form as a browser posts it: every setting, ``changes`` over the
    table's own (an unticked box is left out, an unset number is an empty box)."""
    values = {name: getattr(table, name) for name in HOST_FIELDS} | changes
    return {
        name: ("on" if value is True else "" if value is None else value)
        for name, value in values.items()
        if value is not False
    }


SETTING = re.compile(r'data-setting="(\w+)"')


def panel(client, game, **extra) -> str:
    return client.get(f"/tables/{game.pk}/hosting/", **extra).content.decode()


def test_the_change_form_offers_every_setting_the_api_takes(players):
    host = players[0]
    game = table_create(host=host, name="Every setting")
    shown = SETTING.findall(panel(web(host), game))
    assert shown == list(HOST_FIELDS)
    assert set(shown) == set(GameSettingsSerializer().fields)  # what PATCH takes


def test_the_change_form_answers_what_applies_now_and_what_waits(players):
    host, alice, bob = players
    game = table_create(host=host, name="Mid hand")
    seat_take(table=game, player=alice, buy_in=100)
    seat_take(table=game, player=bob, buy_in=100)
    hand_start(table=game)
    answer = (
        web(host)
        .post(
            f"/tables/{game.pk}/host/change/",
            whole_form(game, big_blind=4, small_blind=2, spectator_chat=True, max_buy_in=300),
            HTTP_HX_REQUEST="true",
        )
        .content.decode()
    )
    assert "Changed now: max buy in, spectator chat." in answer
    assert "From the next hand: big blind, small blind." in answer
    table = Table.objects.get(pk=game.pk)
    assert (table.max_buy_in, table.spectator_chat, table.big_blind) == (300, True, 2)
    assert table.pending_changes["settings"] == {"small_blind": 2, "big_blind": 4}
    # the form shows the game as the next hand will be dealt: 2/4 (no second change posted)
    again = (
        web(host)
        .post(
            f"/tables/{game.pk}/host/change/",
            whole_form(game, big_blind=4, small_blind=2, spectator_chat=True, max_buy_in=300),
            HTTP_HX_REQUEST="true",
        )
        .content.decode()
    )
    assert "Nothing to change." in again


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"max_buy_in": 30}, "max_buy_in", "cannot be below the minimum"),
        ({"action_seconds": "soon"}, "action_seconds", "whole number"),
        ({"max_seats": 40}, "max_seats", ""),
    ],
)
def test_a_wrong_setting_is_named_beside_its_field_and_nothing_changes(
    players, changes, field, words
):
    host = players[0]
    game = table_create(host=host, name="Wrong")
    before = Table.objects.filter(pk=game.pk).values().get()
    answer = (
        web(host)
        .post(
            f"/tables/{game.pk}/host/change/",
            whole_form(game, big_blind=4, small_blind=2, **changes),
            HTTP_HX_REQUEST="true",
        )
        .content.decode()
    )
    marked = re.search(
        rf'data-setting="{field}">.*?<span class="field-error" role="alert">(.*?)</span>',
        answer,
        re.S,
    )
    assert marked is not None, answer
    assert words in marked.group(1)
    assert "Nothing changed" in answer
    assert Table.objects.filter(pk=game.pk).values().get() == before


def test_the_host_calls_a_bomb_pot_from_the_panel(players):
    host, guest = players[:2]
    game = table_create(host=host, name="Bombs", bomb_pot_ante=5)
    TableGuest.objects.create(table=game, player=guest)
    assert web(guest).post(f"/tables/{game.pk}/host/bomb_pot/").status_code == 403
    panel = web(host).get(f"/tables/{game.pk}/hosting/").content.decode()
    assert 'class="bomb-pot"' in panel and "(5 each)" in panel
    answer = web(host).post(f"/tables/{game.pk}/host/bomb_pot/", HTTP_HX_REQUEST="true")
    assert Table.objects.get(pk=game.pk).bomb_pot_next
    assert "Bomb pot called" in answer.content.decode()
    assert 'class="bomb-pot-called"' in answer.content.decode()


def test_no_bomb_pot_button_without_an_ante(players):
    game = table_create(host=players[0], name="Plain")
    assert (
        'class="bomb-pot"'
        not in web(players[0]).get(f"/tables/{game.pk}/hosting/").content.decode()
    )
    answer = web(players[0]).post(f"/tables/{game.pk}/host/bomb_pot/", HTTP_HX_REQUEST="true")
    assert "Set the bomb pot" in answer.content.decode()
    assert not Table.objects.get(pk=game.pk).bomb_pot_next


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
    assert re.search(rf'<div class="field invalid">\s*<label for="id_{field}"', page), field
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
    assert "Pot-limit Omaha Hi/Lo" in page and "1/2/4" in page


def test_the_new_game_form_starts_horse_and_dealers_choice_with_their_settings(client, players):
    client.force_login(players[0].user)
    base = {
        "betting": "no-limit",
        "small_blind": 1,
        "big_blind": 2,
        "ante": 0,
        "ante_mode": "per-player",
        "straddle": 0,
        "max_seats": 6,
        "min_buy_in": 40,
        "max_buy_in": 200,
        "action_seconds": 30,
        "time_bank_seconds": 60,
        "bot_seats": 0,
        "rotation_hands": 1,
        "choice_seconds": 20,
    }
    page = client.get("/tables/new/").content.decode()
    assert '<optgroup label="Draw">' in page and '<optgroup label="Mixed">' in page
    answer = client.post(
        "/tables/new/", {**base, "name": "H", "game": "horse", "small_bet": 2, "bring_in": 1}
    )
    assert answer.status_code == 302, answer.content.decode()
    picks = ["27-triple-draw/fixed-limit", "holdem/no-limit"]
    answer = client.post(
        "/tables/new/",
        {**base, "name": "D", "game": "dealers-choice", "small_bet": 2, "choice_games": picks},
    )
    assert answer.status_code == 302, answer.content.decode()
    assert Table.objects.get(name="D").choice_games == picks
    assert Table.objects.get(name="H").rotation_hands == 1
