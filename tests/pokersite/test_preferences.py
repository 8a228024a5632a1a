"""Cards and felt your way (issue 50): a deck of four colours or two, larger cards, a felt
colour and the turn nudge, saved per account (per browser for a visitor not logged in) and
carried by every page's <body>, never by the table's shared frames."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tables.models import Player
from tables.presenters.render import render_regions
from tables.services import hand_start, player_set_preferences, seat_take
from tables.services.errors import InvalidPreference
from tests.tables.helpers import screen_of

pytestmark = pytest.mark.django_db

CHOICES = {"deck_colours": "two", "large_cards": "on", "felt": "blue", "turn_nudge": "on"}


def logged_in(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def body_attributes(html: str) -> dict[str, str]:
    body = re.search(r"<body([^>]*)>", html)
    assert body, "no <body>"
    return dict(re.findall(r'data-(deck|cards|felt|nudge)="([^"]*)"', body.group(1)))


def test_a_player_saves_their_choices_on_the_account_and_every_page_carries_them(players):
    alice = players[0]
    client = logged_in(alice)
    assert body_attributes(client.get("/").content.decode()) == {
        "deck": "four", "cards": "normal", "felt": "green", "nudge": "off"
    }  # fmt: skip
    response = client.post("/accounts/preferences/", CHOICES)
    assert response.status_code == 302
    alice = Player.objects.get(pk=alice.pk)
    assert (alice.deck_colours, alice.large_cards, alice.felt, alice.turn_nudge) == (
        "two", True, "blue", True
    )  # fmt: skip
    # the same on any other browser (a phone) logged in to the account
    for path in ("/", "/accounts/profile/", "/accounts/preferences/"):
        assert body_attributes(logged_in(alice).get(path).content.decode()) == {
            "deck": "two", "cards": "large", "felt": "blue", "nudge": "on"
        }, path  # fmt: skip


def test_bad_input_is_refused_with_a_clear_message_and_changes_nothing(players):
    alice = players[0]
    client = logged_in(alice)
    response = client.post("/accounts/preferences/", {**CHOICES, "deck_colours": "rainbow"})
    assert response.status_code == 400
    assert "Pick a deck: four-colour or two-colour." in response.content.decode()
    response = client.post("/accounts/preferences/", {**CHOICES, "felt": "purple"})
    assert "Pick a felt colour: green, blue, red or grey." in response.content.decode()
    alice = Player.objects.get(pk=alice.pk)
    assert (alice.deck_colours, alice.large_cards, alice.felt, alice.turn_nudge) == (
        "four", False, "green", False
    )  # fmt: skip


def test_the_service_refuses_a_choice_that_is_not_one(players):
    alice = players[0]
    with pytest.raises(InvalidPreference, match="Pick a felt colour"):
        player_set_preferences(
            player=alice, deck_colours="two", large_cards=True, felt="mauve", turn_nudge=True
        )
    assert Player.objects.get(pk=alice.pk).deck_colours == "four"


def test_a_visitor_not_logged_in_keeps_them_in_this_browser(db):
    visitor = Client()
    response = visitor.post("/accounts/preferences/", {**CHOICES, "turn_nudge": ""})
    assert response.status_code == 302
    assert body_attributes(visitor.get("/").content.decode()) == {
        "deck": "two", "cards": "large", "felt": "blue", "nudge": "off"
    }  # fmt: skip
    assert body_attributes(Client().get("/").content.decode())["deck"] == "four"  # another browser
    # a cookie written by hand with nonsense in it: the defaults, no error
    visitor.cookies["poker_display"] = "deck_colours=rainbow&felt=<script>"
    assert body_attributes(visitor.get("/").content.decode())["felt"] == "green"


def test_cards_keep_their_text_for_screen_readers_whatever_the_choice(players, table):
    alice, bob, _ = players
    player_set_preferences(
        player=alice, deck_colours="two", large_cards=True, felt="red", turn_nudge=False
    )
    seat_take(table=table, player=alice, buy_in=100, seat_number=0)
    seat_take(table=table, player=bob, buy_in=100, seat_number=1)
    hand_start(table=table)
    page = logged_in(alice).get(f"/tables/{table.pk}/").content.decode()
    assert body_attributes(page) == {"deck": "two", "cards": "large", "felt": "red", "nudge": "off"}
    spoken = re.findall(r'class="pc [^"]*"[^>]*role="img" aria-label="([^"]+)"', page)
    faces = {s for s in spoken if s != "hidden card"}
    assert len(faces) == 2 and all(re.fullmatch(r"\w+ of \w+", s) for s in faces), spoken
    assert "hidden card" in spoken, "bob's cards, face down"


def test_the_table_frames_are_the_same_for_every_choice(players, table):
    """The frames are shared by every viewer of a version: no viewer's choice is in them."""
    alice, bob, _ = players
    seat_take(table=table, player=alice, buy_in=100, seat_number=0)
    seat_take(table=table, player=bob, buy_in=100, seat_number=1)
    hand_start(table=table)
    table.refresh_from_db()
    before = render_regions(screen_of(table, None))
    player_set_preferences(
        player=alice, deck_colours="two", large_cards=True, felt="grey", turn_nudge=True
    )
    assert render_regions(screen_of(table, None)) == before
    assert "data-deck" not in before and "data-felt" not in before
