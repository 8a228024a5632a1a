"""The HUD on the table page (issue 51): fetched by the page (``/tables/<id>/hud/``), again when
a hand ends (the seats' frame says so), off by the table's setting or the viewer's own, and
never anything private: no hidden card, no one's notes, nothing in the socket's frames."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async
from django.core.cache import cache
from django.test import Client

from tables.models import Player, Table
from tables.presenters.render import cards_in_html
from tables.selectors.hands import hand_state
from tables.services import hand_start, seat_take
from tables.services.notes import note_set
from tests.tables import helpers
from tests.tables.wsclient import Socket, communicator, session_cookie

NOTE = "alice-only: bob overplays top pair"


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False  # the tests deal every hand themselves
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def seated(table, players):
    for number, player in enumerate(players):
        seat_take(table=table, player=player, buy_in=200, seat_number=number)
    return table, players


def client_of(player: Player | None) -> Client:
    client = Client()
    if player is not None:
        client.force_login(player.user)
    return client


def hud_of(player: Player | None, table: Table) -> str:
    response = client_of(player).get(f"/tables/{table.pk}/hud/")
    assert response.status_code == 200
    return response.content.decode()


def hands_shown(fragment: str) -> dict[str, int]:
    """Each player's "hands played" as the fragment writes it."""
    found = re.findall(
        r'data-player="([^"]+)".*?data-figure="hands">(\d+)<', fragment, flags=re.DOTALL
    )
    return {name: int(hands) for name, hands in found}


@pytest.mark.django_db
def test_the_page_fetches_the_hud_and_it_counts_a_hand_once_it_ends(seated):
    table, (alice, bob, carol) = seated
    page = client_of(alice).get(f"/tables/{table.pk}/").content.decode()
    assert 'id="table-hud"' in page and f'hx-get="/tables/{table.pk}/hud/"' in page
    assert hands_shown(hud_of(alice, table)) == {"alice": 0, "bob": 0, "carol": 0}
    hand_start(table=table)
    helpers.act(table, "call")
    assert hands_shown(hud_of(alice, table)) == {"alice": 0, "bob": 0, "carol": 0}
    helpers.play_out(table)
    assert hands_shown(hud_of(bob, table)) == {"alice": 1, "bob": 1, "carol": 1}
    fragment = hud_of(alice, table)
    for words in ("VPIP", "PFR", "3-bet", "AF", "WTSD", "Hold&#x27;em"):
        assert words in fragment
    assert 'aria-describedby="hud-0"' in fragment and 'aria-expanded="false"' in fragment


@pytest.mark.django_db(transaction=True)
async def test_the_seats_frame_at_a_hands_end_is_what_the_page_refetches_on(seated):
    """The page asks for the HUD again when the seats' ``data-street`` turns ``over`` (or the
    hand changes): a frame that every socket gets at the hand's end; the HUD itself is never
    in a frame."""
    table, (alice, bob, carol) = seated
    socket = await Socket(
        "alice", communicator(table.pk, await sync_to_async(session_cookie)(alice.user))
    ).connect()
    await sync_to_async(hand_start)(table=table)
    await socket.until(lambda f: "data-hand=" in f and 'data-hand=""' not in f)
    await sync_to_async(helpers.play_out)(table)
    await socket.until(lambda f: 'data-street="over"' in f)
    after = await sync_to_async(hud_of)(alice, table)
    assert hands_shown(after) == {"alice": 1, "bob": 1, "carol": 1}
    await socket.drain()
    assert not any("hud" in frame for frame in socket.frames)
    await socket.close()


@pytest.mark.django_db
def test_the_tables_setting_turns_the_hud_off(seated):
    table, (alice, bob, carol) = seated
    Table.objects.filter(pk=table.pk).update(hud=False)
    assert 'id="table-hud"' not in client_of(alice).get(f"/tables/{table.pk}/").content.decode()
    assert hud_of(alice, table) == ""


@pytest.mark.django_db
def test_the_host_turns_the_hud_off_from_the_settings(players):
    from tables.services import hosting

    alice, bob, _ = players
    game = hosting.table_create(host=alice, name="Friday", private=False)
    assert game.hud and 'id="table-hud"' in hud_page(bob, game)
    hosting.table_host_update(table=game, by=alice.user, changes={"hud": False})
    assert 'id="table-hud"' not in hud_page(bob, game)
    assert hud_of(bob, game) == ""


def hud_page(player: Player, table: Table) -> str:
    return client_of(player).get(f"/tables/{table.pk}/").content.decode()


@pytest.mark.django_db
def test_the_viewers_own_setting_turns_it_off_for_them_alone(seated):
    table, (alice, bob, carol) = seated
    response = client_of(alice).post(
        "/accounts/preferences/", {"deck_colours": "four", "felt": "green"}
    )  # the HUD box left unticked
    assert response.status_code == 302
    assert not Player.objects.get(pk=alice.pk).hud
    page = client_of(alice).get(f"/tables/{table.pk}/").content.decode()
    assert 'id="table-hud"' not in page and 'data-hud="off"' in page
    assert hud_of(alice, table) == ""
    assert hands_shown(hud_of(bob, table)) == {"alice": 0, "bob": 0, "carol": 0}


@pytest.mark.django_db
def test_a_visitor_not_logged_in_gets_no_hud(seated):
    table, _ = seated
    assert 'id="table-hud"' not in client_of(None).get(f"/tables/{table.pk}/").content.decode()
    assert hud_of(None, table) == ""


@pytest.mark.django_db
def test_a_private_tables_hud_is_a_404_to_outsiders(make_table, make_player):
    game = make_table(name="Private", private=True)
    outsider = make_player("dave")
    assert client_of(outsider).get(f"/tables/{game.pk}/hud/").status_code == 404


@pytest.mark.django_db
def test_the_hud_never_holds_a_hidden_card_nor_anyones_note(seated):
    table, (alice, bob, carol) = seated
    note_set(author=alice, subject_id=bob.pk, text=NOTE, label="red")
    # hands that end without a showdown (folds): their cards are never shown
    for _ in range(3):
        hand_start(table=table)
        hand = helpers.current_hand(table)
        hidden = {str(card) for cards in hand_state(hand).hole for card in cards}
        helpers.play_out(table, choose=lambda h: "fold" if hand_state(h).legal.fold else "check")
        hand.refresh_from_db()
        for viewer in (alice, bob, carol):
            fragment = hud_of(viewer, table)
            assert NOTE not in fragment and "note" not in fragment.lower()
            for card in hidden:
                assert not re.search(rf"\b{card}\b", fragment), (viewer.name, card)
            assert not re.search("[♠♥♦♣]", fragment) and 'class="pc' not in fragment
            assert cards_in_html(fragment) == []  # the live checker's own test of a card
    # and a hand running now: nobody's cards in the HUD meanwhile
    hand_start(table=table)
    running = hand_state(helpers.current_hand(table))
    fragment = hud_of(alice, table)
    for cards in running.hole:
        for card in cards:
            assert not re.search(rf"\b{card}\b", fragment)
