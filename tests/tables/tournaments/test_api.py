"""The tournaments' API: organise, read, register, unregister, start; bad input is a 400
naming the field; not the organiser, 403; a private tournament is 404 to outsiders, with its
tables and hands."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tables.models import LedgerEntry, Player
from tables.tournaments.models import Tournament

from .helpers import assert_places_each_given_once, play

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

FAST = [{"small_blind": 25 * 2**n, "big_blind": 50 * 2**n, "hands": 3} for n in range(12)]


@pytest.fixture(autouse=True)
def _fresh_throttle_cache():
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def client_for():
    def make(player):
        client = APIClient()
        client.force_login(player.user)
        return client

    return make


def organise(client, **fields):
    body = {"name": "Friday", "levels": FAST, **fields}
    return client.post("/api/tournaments/", body, format="json")


def test_organising_a_sit_and_go_answers_its_settings_and_the_level(players, client_for):
    alice = players[0]
    response = organise(client_for(alice), entry_fee=100, bot_entrants=2, start="when-full")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["format"] == "sit-and-go"
    assert body["status"] == "registering"
    assert body["organiser"] == alice.name
    assert body["max_entrants"] == 6  # a sit & go takes its seats
    assert body["prize_pool"] == 200  # the bots' fees
    assert body["level"]["number"] == 1
    assert body["level"]["small_blind"] == 25 and body["level"]["next"]["big_blind"] == 100
    assert body["level"]["hands_left"] == 3
    assert len(body["entrants"]) == 2 and body["entrant_count"] == 2
    assert body["invite_url"].endswith(
        f"/tournaments/join/{Tournament.objects.get().invite_token}/"
    )
    read = APIClient().get(f"/api/tournaments/{body['id']}/").json()  # public to read
    assert read["invite_url"] is None  # only for the organiser
    assert read["prizes"] == [200]  # two entrants: winner takes the pool


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"levels": [{"small_blind": 10, "big_blind": 5, "hands": 3}]}, "levels"),
        ({"levels": [{"small_blind": 10, "big_blind": "x", "hands": 3}]}, "levels"),
        ({"start": "2001-01-01T20:00:00Z"}, "start"),
        ({"start": "tomorrow"}, "start"),
        ({"seats_per_table": 11}, "seats_per_table"),
        ({"format": "bounty"}, "format"),
        ({"payouts": "custom", "payout_percentages": [30, 70]}, "payouts"),
        ({"hands": 50}, "hands"),  # only a fixed-hands game has hands
        ({"rebuys": 3}, "rebuys"),
        ({"name": ""}, "name"),
        ({"private": "yes"}, "private"),
    ],
)
def test_bad_input_is_400_naming_the_field_and_creates_nothing(players, client_for, fields, field):
    response = organise(client_for(players[0]), **fields)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert field in body["errors"], body
    assert not Tournament.objects.exists()


def test_registering_pays_the_fee_unregistering_refunds_it_and_a_full_one_refuses(
    players, client_for, make_player
):
    alice, bob, carol = players
    tid = organise(client_for(alice), entry_fee=100, max_entrants=2).json()["id"]
    before = Player.objects.get(pk=bob.pk).bankroll
    response = client_for(bob).post(f"/api/tournaments/{tid}/registration/")
    assert response.status_code == 201
    assert [e["player"] for e in response.json()["entrants"]] == [bob.name]
    assert Player.objects.get(pk=bob.pk).bankroll == before - 100
    again = client_for(bob).post(f"/api/tournaments/{tid}/registration/")
    assert (again.status_code, again.json()["code"]) == (409, "already_registered")
    assert client_for(carol).post(f"/api/tournaments/{tid}/registration/").status_code == 201
    full = client_for(alice).post(f"/api/tournaments/{tid}/registration/")
    assert (full.status_code, full.json()["code"]) == (409, "tournament_full")
    back = client_for(bob).delete(f"/api/tournaments/{tid}/registration/")
    assert back.status_code == 200 and back.json()["prize_pool"] == 100
    assert Player.objects.get(pk=bob.pk).bankroll == before
    assert LedgerEntry.objects.filter(player=bob, kind=LedgerEntry.Kind.TOURNAMENT_REFUND).exists()
    assert APIClient().post(f"/api/tournaments/{tid}/registration/").status_code in (401, 403)


def test_only_the_organiser_or_staff_starts_it(players, client_for):
    alice, bob, carol = players
    tid = organise(client_for(alice)).json()["id"]
    for player in (bob, carol):
        client_for(player).post(f"/api/tournaments/{tid}/registration/")
    refused = client_for(bob).post(f"/api/tournaments/{tid}/start/")
    assert (refused.status_code, refused.json()["code"]) == (403, "not_organiser")
    assert Tournament.objects.get(pk=tid).status == "registering"
    started = client_for(alice).post(f"/api/tournaments/{tid}/start/")
    assert started.status_code == 200
    body = started.json()
    assert body["status"] == "running"
    assert len(body["tables"]) == 1 and body["tables"][0]["players"] == 2
    assert sorted(e["chips"] for e in body["entrants"]) == [1500, 1500]
    assert {e["rank"] for e in body["entrants"]} == {1, 2}
    twice = client_for(alice).post(f"/api/tournaments/{tid}/start/")
    assert (twice.status_code, twice.json()["code"]) == (409, "tournament_started")


def test_a_finished_sit_and_go_answers_places_and_prizes_and_its_hands(players, client_for):
    alice, bob, carol = players
    tid = organise(client_for(alice), entry_fee=50, bot_entrants=3, start="when-full").json()["id"]
    for player in players:
        client_for(player).post(f"/api/tournaments/{tid}/registration/")
    tournament = Tournament.objects.get(pk=tid)
    assert tournament.status == "running"
    play(tournament)
    body = client_for(alice).get(f"/api/tournaments/{tid}/").json()
    assert body["status"] == "finished" and body["level"] is None
    assert_places_each_given_once([e["place"] for e in body["entrants"]])
    assert sum(e["prize"] for e in body["entrants"]) == body["prize_pool"] == 300
    hands = client_for(alice).get(f"/api/hands/?tournament={tid}&page_size=200").json()
    table_ids = {t["id"] for t in body["tables"]}
    assert hands["count"] > 0
    assert {row["table"] for row in hands["results"]} <= table_ids


def test_the_hand_list_of_another_tournament_holds_none_of_these_hands(players, client_for):
    alice, bob, _ = players
    first = organise(client_for(alice), bot_entrants=4, start="when-full").json()["id"]
    other = organise(client_for(alice), name="Other").json()["id"]
    for player in (alice, bob):
        client_for(player).post(f"/api/tournaments/{first}/registration/")
    play(Tournament.objects.get(pk=first))
    mine = client_for(alice).get(f"/api/hands/?tournament={first}").json()["count"]
    assert mine > 0
    assert client_for(alice).get(f"/api/hands/?tournament={other}").json()["count"] == 0


def test_a_private_tournament_is_404_to_outsiders_with_its_tables_and_hands(
    players, client_for, make_player
):
    alice, bob, carol = players
    created = organise(client_for(alice), private=True, bot_entrants=2).json()
    tid, invite = created["id"], created["invite_url"]
    outsider = client_for(carol)
    assert outsider.get(f"/api/tournaments/{tid}/").status_code == 404
    assert outsider.post(f"/api/tournaments/{tid}/registration/").status_code == 404
    assert tid not in [t["id"] for t in outsider.get("/api/tournaments/").json()["results"]]
    assert APIClient().get(f"/api/tournaments/{tid}/").status_code == 404
    # bob opens the invite link: he sees it and registers
    bob_site = client_for(bob)
    assert bob_site.get(invite.split("testserver")[-1]).status_code == 302
    assert bob_site.post(f"/api/tournaments/{tid}/registration/").status_code == 201
    assert client_for(alice).post(f"/api/tournaments/{tid}/start/").status_code == 200
    table_id = Tournament.objects.get(pk=tid).tables.get().table_id
    assert bob_site.get(f"/api/tables/{table_id}/").status_code == 200
    assert bob_site.get(f"/tables/{table_id}/").status_code == 200
    for url in (
        f"/api/tables/{table_id}/",
        f"/api/tables/{table_id}/state/",
        f"/api/hands/?tournament={tid}",
    ):
        assert outsider.get(url).status_code == 404, url
    assert outsider.get(f"/tables/{table_id}/").status_code == 404
    assert outsider.get(f"/tournaments/{tid}/").status_code == 404
    stranger = make_player("dave")
    assert client_for(stranger).get("/tournaments/join/not-a-token/").status_code == 404


def test_the_list_filters_by_status_and_refuses_an_unknown_one(players, client_for):
    organise(client_for(players[0]))
    assert APIClient().get("/api/tournaments/?status=running").json()["count"] == 0
    assert APIClient().get("/api/tournaments/?status=registering").json()["count"] == 1
    wrong = APIClient().get("/api/tournaments/?status=paused")
    assert (wrong.status_code, list(wrong.json()["errors"])) == (400, ["status"])
