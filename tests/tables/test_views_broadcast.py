"""The hole-card broadcast's controls (issue 53) over HTTP, the socket and the play API: the
host proposes it in the host panel, each seated player answers for themselves."""

from __future__ import annotations

import pytest
from django.test import Client

from tables.models import BroadcastConsent, Table
from tables.services import seat_take
from tables.services.broadcast import table_broadcast_propose

pytestmark = pytest.mark.django_db


def web(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


@pytest.fixture
def game(players, make_table):
    alice, bob, _ = players
    table = make_table(name="Stream", host=alice)
    seat_take(table=table, player=alice, buy_in=100)
    seat_take(table=table, player=bob, buy_in=100)
    return table


def test_the_host_proposes_and_each_player_answers_in_the_panel(game, players):
    alice, bob, carol = players
    panel = web(alice).get(f"/tables/{game.pk}/hosting/").content.decode()
    assert 'class="broadcast-propose"' in panel and "broadcast-agree" not in panel
    answer = web(alice).post(
        f"/tables/{game.pk}/host/broadcast/",
        {"delay": "minutes", "minutes": "3", "room_screen": "1"},
        HTTP_HX_REQUEST="true",
    )
    assert "each seated player is asked" in answer.content.decode()
    table = Table.objects.get(pk=game.pk)
    assert (table.broadcast_proposed, table.broadcast_delay, table.broadcast_minutes) == (
        True,
        "minutes",
        3,
    )
    assert table.broadcast_room_screen
    page = web(bob).get(f"/tables/{game.pk}/hosting/").content.decode()
    assert "broadcast-agree" in page and "3 minutes after it is dealt" in page
    assert "Waiting for: alice, bob" in page
    assert "broadcast-consent" not in web(carol).get(f"/tables/{game.pk}/hosting/").content.decode()
    web(bob).post(f"/tables/{game.pk}/broadcast/", {"agree": "1"}, HTTP_HX_REQUEST="true")
    page = web(bob).get(f"/tables/{game.pk}/hosting/").content.decode()
    assert "You agree." in page and "broadcast-withdraw" in page and "Waiting for: alice" in page
    refused = web(carol).post(
        f"/tables/{game.pk}/broadcast/", {"agree": "1"}, HTTP_HX_REQUEST="true"
    )
    assert "Only a player seated" in refused.content.decode()
    assert not BroadcastConsent.objects.filter(player=carol).exists()
    web(bob).post(f"/tables/{game.pk}/broadcast/", {"agree": "0"}, HTTP_HX_REQUEST="true")
    assert not BroadcastConsent.objects.filter(player=bob).exists()


def test_a_player_who_is_not_host_cannot_propose(game, players):
    bob = players[1]
    response = web(bob).post(f"/tables/{game.pk}/host/broadcast/", {"delay": "none"})
    assert response.status_code == 403
    assert not Table.objects.get(pk=game.pk).broadcast_proposed


def test_the_play_api_answers_for_the_caller(game, players):
    alice, bob, carol = players
    table_broadcast_propose(table=game, by=alice.user, delay="street")
    api = web(bob)
    url = f"/api/tables/{game.pk}/broadcast/"
    answer = api.post(url, {"agree": True}, content_type="application/json")
    assert answer.status_code == 200
    assert answer.json()["table"]["broadcast"] == {
        "proposed": True,
        "delay": "street",
        "minutes": 5,
        "room_screen": False,
    }
    assert BroadcastConsent.objects.filter(table=game, player=bob).exists()
    refused = web(carol).post(url, {"agree": True}, content_type="application/json")
    assert refused.status_code >= 400 and refused.json()["code"] == "not_seated"
    assert api.post(url, {"agree": False}, content_type="application/json").status_code == 200
    assert not BroadcastConsent.objects.filter(table=game).exists()


@pytest.mark.parametrize("room_screen", [False, True])
def test_the_pages_show_the_cards_only_to_whom_they_may(game, players, room_screen):
    """A hand broadcast at once: a visitor's page shows every hole card, the room screen only
    when the host allowed it there, a player's page never the other's."""
    from tables.presenters.render import cards_in_html
    from tables.selectors.hands import hand_state
    from tables.services import hand_start
    from tables.services.broadcast import broadcast_agree

    alice, bob, _ = players
    table_broadcast_propose(table=game, by=alice.user, delay="none", room_screen=room_screen)
    for person in (alice, bob):
        broadcast_agree(table=game, player=person)
    hand = hand_start(table=Table.objects.get(pk=game.pk))
    state = hand_state(hand)
    holes = {s["player_id"]: {str(c) for c in state.hole[i]} for i, s in enumerate(hand.seats)}
    every = holes[alice.pk] | holes[bob.pk]
    visitor = set(cards_in_html(Client().get(f"/tables/{game.pk}/").content.decode()))
    assert every <= visitor
    tv = set(cards_in_html(Client().get(f"/tables/{game.pk}/tv/").content.decode()))
    assert (every <= tv) if room_screen else not every & tv
    mine = set(cards_in_html(web(alice).get(f"/tables/{game.pk}/").content.decode()))
    assert holes[alice.pk] <= mine and not holes[bob.pk] & mine


def test_the_rest_state_shows_the_cards_to_a_viewer_without_a_seat_only(game, players):
    """``GET /api/tables/<id>/state/`` of a hand broadcast at once: carol (no seat) and a
    visitor get every hole card in the seats, alice only her own."""
    from tables.selectors.hands import hand_state
    from tables.services import hand_start
    from tables.services.broadcast import broadcast_agree

    alice, bob, carol = players
    table_broadcast_propose(table=game, by=alice.user, delay="none")
    for person in (alice, bob):
        broadcast_agree(table=game, player=person)
    hand = hand_start(table=Table.objects.get(pk=game.pk))
    state = hand_state(hand)
    holes = {s["player_id"]: {str(c) for c in state.hole[i]} for i, s in enumerate(hand.seats)}

    def cards(client: Client) -> set[str]:
        seats = client.get(f"/api/tables/{game.pk}/state/").json()["seats"]
        return {card for seat in seats for card in seat["cards"] if card}

    every = holes[alice.pk] | holes[bob.pk]
    assert every <= cards(web(carol)) and every <= cards(Client())
    mine = cards(web(alice))
    assert holes[alice.pk] <= mine and not holes[bob.pk] & mine
