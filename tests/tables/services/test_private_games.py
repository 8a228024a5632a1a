"""A private game does not exist for outsiders: the page, the socket, every API URL of the
table and its hands answer exactly as for a table that does not exist; the lobby and
``GET /api/tables/`` leave it out; a replaced invite token lets nobody in."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from rest_framework.test import APIClient

from tables.models import Hand, Table, TableGuest
from tables.services import seat_take
from tables.services.hosting import table_create, table_invite_replace
from tests.api.helpers import engine_hand, store_hand
from tests.tables.wsclient import communicator, refused_with, session_cookie


@pytest.fixture
def people(make_player):
    return {name: make_player(name) for name in ("host", "alice", "bob", "outsider")}


@pytest.fixture
def private_game(people):
    game = table_create(host=people["host"], name="Secret")
    seat_take(table=game, player=people["alice"], buy_in=100)
    return game


@pytest.fixture
def finished_hand(private_game, people):
    players = [people["alice"], people["bob"], people["host"]]
    state = engine_hand(["AsAh", "7c2d", "KsKh"], "9c5d3h8sJd", ["fold", "fold"])
    return store_hand(private_game, players, state, number=1)


def page_urls(table: Table, hand: Hand) -> list[str]:
    return [
        f"/tables/{table.pk}/",
        f"/tables/{table.pk}/hosting/",
        f"/tables/{table.pk}/hands/{hand.number}/",
        f"/hands/{hand.pk}/",
    ]


def api_urls(table: Table, hand: Hand) -> list[str]:
    return [
        f"/api/tables/{table.pk}/",
        f"/api/tables/{table.pk}/requests/",
        f"/api/hands/{hand.pk}/",
        f"/api/hands/{hand.pk}/phh/",
        f"/api/hands/{hand.pk}/yaml/",
    ]


def web(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def api(player) -> APIClient:
    client = APIClient()
    client.force_login(player.user)
    return client


@pytest.mark.django_db
def test_an_outsider_gets_404_everywhere_as_for_a_missing_table(
    people, private_game, finished_hand
):
    outsider = people["outsider"]
    missing = Table(pk=private_game.pk + 1000)
    missing_hand = Hand(pk=finished_hand.pk + 1000, number=finished_hand.number)
    for url, absent in zip(
        page_urls(private_game, finished_hand), page_urls(missing, missing_hand), strict=True
    ):
        assert web(outsider).get(url).status_code == 404, url
        assert web(outsider).get(absent).status_code == 404, absent
    for url, absent in zip(
        api_urls(private_game, finished_hand), api_urls(missing, missing_hand), strict=True
    ):
        seen, nothing = api(outsider).get(url), api(outsider).get(absent)
        assert seen.status_code == nothing.status_code == 404, url
        assert seen.json()["code"] == nothing.json()["code"] == "not_found"
    # a player's figures at the game: as for a table that does not exist (no hands)
    alice = people["alice"].pk
    url = f"/api/players/{alice}/stats/?table={private_game.pk}"
    absent = f"/api/players/{alice}/stats/?table={missing.pk}"
    assert api(outsider).get(url).json()["hands"] == api(outsider).get(absent).json()["hands"] == 0
    assert api(people["host"]).get(url).json()["hands"] == 1
    page = web(outsider).get(f"/players/{alice}/stats/?table={private_game.pk}")
    assert page.status_code == 200 and "Secret" not in page.content.decode()
    posts = ["invite/", "close/", "pause/", f"players/{people['alice'].pk}/", "requests/"]
    for tail in posts:
        answer = api(outsider).post(f"/api/tables/{private_game.pk}/{tail}", {}, format="json")
        assert answer.status_code == 404, tail
    assert (
        api(outsider).patch(f"/api/tables/{private_game.pk}/", {}, format="json").status_code == 404
    )
    assert Table.objects.get(pk=private_game.pk).status == Table.Status.OPEN


@pytest.mark.django_db
def test_the_lobby_and_the_table_list_leave_it_out_for_outsiders(people, private_game):
    public = table_create(host=people["host"], name="Open house", private=False)
    listed = [t["name"] for t in api(people["outsider"]).get("/api/tables/").json()["results"]]
    assert listed == ["Open house"]
    assert [t["name"] for t in APIClient().get("/api/tables/").json()["results"]] == ["Open house"]
    lobby = web(people["outsider"]).get("/").content.decode()
    assert "Open house" in lobby and "Secret" not in lobby
    for name in ("host", "alice"):
        listed = {t["name"] for t in api(people[name]).get("/api/tables/").json()["results"]}
        assert listed == {"Secret", "Open house"}, name
        assert "Secret" in web(people[name]).get("/").content.decode()
    assert public.pk


@pytest.mark.django_db
def test_players_of_the_game_see_its_pages_and_hands(people, private_game, finished_hand):
    for name in ("host", "alice"):
        for url in page_urls(private_game, finished_hand):
            assert web(people[name]).get(url).status_code in (200, 302), (name, url)
        for url in api_urls(private_game, finished_hand):
            assert api(people[name]).get(url).status_code == 200, (name, url)


@pytest.mark.django_db
def test_a_replaced_invite_lets_nobody_in(people, private_game):
    old = private_game.invite_token
    table_invite_replace(table=private_game, by=people["host"].user)
    bob = web(people["bob"])
    assert bob.get(f"/join/{old}/").status_code == 404
    assert not TableGuest.objects.filter(player=people["bob"]).exists()
    assert bob.get(f"/tables/{private_game.pk}/").status_code == 404
    new = Table.objects.get(pk=private_game.pk).invite_token
    assert bob.get(f"/join/{new}/").url == f"/tables/{private_game.pk}/"
    assert bob.get(f"/tables/{private_game.pk}/").status_code == 200


@pytest.mark.django_db
def test_a_logged_out_visitor_logs_in_or_signs_up_and_comes_back(people, private_game, settings):
    link = f"/join/{private_game.invite_token}/"
    answer = Client().get(link)  # the game, with log in / sign up that come back to it
    assert answer.status_code == 200
    assert f"/accounts/login/?next={link}" in answer.content.decode()
    client = Client()
    signup = client.get(f"/accounts/signup/?next={link}")
    assert f'value="{link}"' in signup.content.decode()
    answer = client.post(
        "/accounts/signup/",
        {
            "username": "newcomer",
            "password1": "a-long-Secret-99",
            "password2": "a-long-Secret-99",
            "next": link,
        },
    )
    assert answer.url == link
    assert client.get(link).url == f"/tables/{private_game.pk}/"
    assert TableGuest.objects.filter(player__user__username="newcomer").exists()


@pytest.mark.django_db(transaction=True)
async def test_the_socket_refuses_an_outsider_as_for_a_missing_table(
    people, private_game, settings
):
    settings.POKER_CROUPIER = False
    outsider = await sync_to_async(session_cookie)(people["outsider"].user)
    assert await refused_with(communicator(private_game.pk, outsider)) == 4404
    assert await refused_with(communicator(private_game.pk + 1000, outsider)) == 4404
    alice = await sync_to_async(session_cookie)(people["alice"].user)
    comm = communicator(private_game.pk, alice)
    connected, _ = await comm.connect()
    assert connected
    frame = await comm.receive_from(timeout=5)
    assert "table-controls" in frame
    await comm.disconnect()
