"""Bounties shown (issue 52): organised through the form and the API; on the lobby, the
tournament's page and its results, in the API, in Django admin and in each player's record
(profit counts the bounties won)."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

from tables.tournaments.models import Tournament
from tables.tournaments.records import tournament_leaderboard, tournament_record

from .helpers import make_player
from .test_bounties import LEVELS, bounty_game, play_one, rig

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()  # the API's throttles


def knocked_out(monkeypatch) -> tuple[Tournament, list]:
    """A progressive knockout of three: p2 has knocked p0 out (20 paid, 60 on p2's head)."""
    tournament, people = bounty_game("pko", [500, 2000, 2000])
    rig(monkeypatch, ["Kc Kd", "7c 2d", "Ac Ad"], "9s 8h 3c 5d Jh")
    play_one(tournament, {0: "shove", 1: "fold", 2: "call"})
    return tournament, people


def row_of(page: str, name: str) -> str:
    return page.split(f'data-player="{name}"', 1)[1].split("</tr>", 1)[0]


def test_the_api_organises_a_bounty_tournament_and_refuses_a_bad_bounty():
    client = APIClient()
    client.force_login(make_player("host").user)
    body = {"name": "Knockout", "levels": LEVELS, "entry_fee": 100, "bounty_kind": "pko"}
    made = client.post("/api/tournaments/", {**body, "bounty": 25}, format="json")
    assert made.status_code == 201, made.json()
    assert (made.json()["bounty_kind"], made.json()["bounty"]) == ("pko", 25)
    refused = client.post("/api/tournaments/", {**body, "bounty": 250}, format="json")
    assert refused.status_code == 400 and "bounty" in str(refused.json())
    assert Tournament.objects.count() == 1


def test_the_api_shows_each_entrants_head_and_bounties_won(monkeypatch):
    tournament, people = knocked_out(monkeypatch)
    body = APIClient().get(f"/api/tournaments/{tournament.pk}/").json()
    assert (body["bounty_kind"], body["bounty"], body["prize_pool"]) == ("pko", 40, 180)
    rows = {row["player"]: (row["bounty"], row["bounties_won"]) for row in body["entrants"]}
    assert rows == {"p0": (0, 0), "p1": (40, 0), "p2": (60, 20)}


def test_the_form_organises_a_bounty_tournament():
    host = make_player("host")
    client = Client()
    client.force_login(host.user)
    form = {
        "name": "Form KO",
        "format": "sit-and-go",
        "game": "holdem",
        "betting": "no-limit",
        "seats_per_table": 6,
        "entry_fee": 100,
        "bounty_kind": "fixed",
        "bounty": 30,
        "starting_stack": 1500,
        "structure": "regular",
        "level_unit": "minutes",
        "late_registration_levels": 0,
        "bot_entrants": 0,
        "start": "manual",
        "payouts": "standard",
        "action_seconds": 20,
    }
    response = client.post("/tournaments/new/", form)
    assert response.status_code == 302, response.content.decode()[:2000]
    made = Tournament.objects.get(name="Form KO")
    assert (made.bounty_kind, made.bounty, made.prize_part) == ("fixed", 30, 70)


def test_the_lobby_and_the_results_show_the_bounties(monkeypatch):
    tournament, people = knocked_out(monkeypatch)
    client = Client()
    lobby = client.get("/tournaments/").content.decode()
    listed = lobby.split(f'id="tournament-{tournament.pk}"', 1)[1].split("</tr>", 1)[0]
    assert "(40 PKO)" in listed
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "of it a progressive knockout bounty" in page
    assert '<td class="num chips bounty">60</td>' in row_of(page, "p2")
    assert '<td class="num chips bounties-won">20</td>' in row_of(page, "p2")
    assert '<td class="num chips bounties-won">–</td>' in row_of(page, "p0")


def test_admin_lists_the_bounty_and_each_entrants_bounties(monkeypatch, admin_client):
    tournament, _ = knocked_out(monkeypatch)
    listing = admin_client.get("/admin/tournaments/tournament/").content.decode()
    assert "40 (Progressive knockout)" in listing
    page = admin_client.get(f"/admin/tournaments/tournament/{tournament.pk}/change/")
    assert "Bounties won" in page.content.decode()


def test_a_players_record_counts_the_bounties_won_in_the_profit(monkeypatch):
    tournament, people = bounty_game("pko", [1000, 2000])
    rig(monkeypatch, ["Kc Kd", "Ac Ad"], "9s 8h 3c 5d Jh")
    play_one(tournament, {0: "call", 1: "shove"})
    winner = tournament_record(people[1], None)
    assert (winner["prizes"], winner["bounties"], winner["profit"]) == (120, 80, 100)
    assert winner["recent"][0]["bounties"] == 80
    assert tournament_record(people[0], None)["profit"] == -100
    board = {row["name"]: row["profit"] for row in tournament_leaderboard("profit")}
    assert board == {"p1": 100, "p0": -100}  # no rake: the profits add up to nothing


def test_the_table_banner_shows_the_heads_at_the_table(monkeypatch):
    tournament, people = knocked_out(monkeypatch)
    (table_id,) = tournament.tables.values_list("table_id", flat=True)
    client = Client()
    client.force_login(people[1].user)
    banner = client.get(f"/tournaments/tables/{table_id}/level/").content.decode()
    heads = banner.split('<span class="bounties"', 1)[1].split("</span>", 1)[0]
    assert "Bounties:" in heads and "p1 40" in heads and "p2 60" in heads
    assert "p0" not in heads  # out: no longer at the table


def test_each_seat_shows_the_bounty_on_its_players_head(monkeypatch):
    tournament, people = knocked_out(monkeypatch)
    (table_id,) = tournament.tables.values_list("table_id", flat=True)
    client = Client()
    client.force_login(people[1].user)
    page = client.get(f"/tables/{table_id}/").content.decode()
    plates = {
        plate.split('<span class="name">', 1)[1].split("<", 1)[0].strip(): plate
        for plate in page.split('<div class="plate">')[1:]
    }
    assert 'class="bounty"' in plates["p1"] and "bounty 40" in plates["p1"]
    assert "bounty 60" in plates["p2"]
    # knocked out: their plate stays up to the next hand, with no head on it any more
    assert "busted" in plates["p0"] and 'class="bounty"' not in plates["p0"].split("</div>")[0]
