"""Satellites shown (issue 52): organised through the form and the API (a bad target is a 400
naming it, nothing made); "Satellite to <target> (N seats)" on the lobby and the tournament's
page, "won a seat" in its results; the API's ``satellite`` and each entrant's ``seat``; admin."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

from tables.tournaments.models import Tournament

from .helpers import make_player, play
from .test_bounties_site import row_of
from .test_satellites import satellite, target_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()  # the API's throttles


def finished_satellite() -> tuple[Tournament, Tournament]:
    boss = make_player("boss")
    target = target_game(boss)
    sat = satellite([make_player(f"p{n}") for n in range(6)], target)  # 2 seats, 100 over
    play(sat)
    sat.refresh_from_db()
    return sat, target


def test_the_api_organises_a_satellite_and_refuses_a_bad_target():
    client = APIClient()
    host = make_player("host")
    client.force_login(host.user)
    target = target_game(host)
    body = {"name": "Sat", "entry_fee": 50, "satellite_target": target.pk}
    made = client.post("/api/tournaments/", body, format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["satellite"] == {
        "target_id": target.pk,
        "target": "Main event",
        "seat_value": 250,
        "seats": 0,
    }
    freeroll = target_game(host, fee=0)
    refused = client.post(
        "/api/tournaments/", {**body, "satellite_target": freeroll.pk}, format="json"
    )
    assert refused.status_code == 400 and "satellite_target" in refused.json()["errors"]
    hidden = tournament_private(make_player("other"))
    refused = client.post("/api/tournaments/", {**body, "satellite_target": hidden}, format="json")
    assert refused.status_code == 400 and f"No tournament {hidden}" in str(refused.json())
    assert Tournament.objects.count() == 4


def tournament_private(owner) -> int:
    from tables.tournaments.services.organise import tournament_organise

    return tournament_organise(
        organiser=owner, name="Hidden", entry_fee=10, format="multi-table", private=True
    ).pk


def test_a_public_satellite_cannot_lead_to_a_private_tournament():
    host = make_player("host")
    client = APIClient()
    client.force_login(host.user)
    hidden = tournament_private(host)
    body = {"name": "Sat", "entry_fee": 50, "satellite_target": hidden}
    refused = client.post("/api/tournaments/", body, format="json")
    assert refused.status_code == 400 and "private tournament" in str(refused.json())
    made = client.post("/api/tournaments/", {**body, "private": True}, format="json")
    assert made.status_code == 201


def test_the_form_offers_the_targets_and_organises_a_satellite():
    host = make_player("host")
    target = target_game(host)
    client = Client()
    client.force_login(host.user)
    page = client.get("/tournaments/new/").content.decode()
    assert f'<option value="{target.pk}">Main event (entry 250)</option>' in page
    form = {
        "name": "Form sat",
        "format": "sit-and-go",
        "game": "holdem",
        "betting": "no-limit",
        "seats_per_table": 6,
        "entry_fee": 100,
        "satellite_target": target.pk,
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
    made = Tournament.objects.get(name="Form sat")
    assert (made.satellite_target_id, made.seat_value) == (target.pk, 250)


def test_the_lobby_the_page_and_the_results_show_the_seats():
    sat, target = finished_satellite()
    client = Client()
    lobby = client.get("/tournaments/").content.decode()
    listed = lobby.split(f'id="tournament-{sat.pk}"', 1)[1].split("</tr>", 1)[0]
    assert "Satellite to Main event (2 seats)" in listed
    page = client.get(f"/tournaments/{sat.pk}/").content.decode()
    assert "2 seats worth 250 each; the remainder to the next place" in page
    first, third = (sat.entries.get(place=n).player.name for n in (1, 3))
    assert "won a seat</span>" in row_of(page, first)
    assert "won a seat" not in row_of(page, third)
    assert '<td class="num prize">100' in row_of(page, third)


def test_the_api_shows_each_seat_and_admin_lists_them(admin_client):
    sat, target = finished_satellite()
    body = APIClient().get(f"/api/tournaments/{sat.pk}/").json()
    assert body["satellite"]["seats"] == 2
    seats = {row["place"]: (row["seat"], row["prize"]) for row in body["entrants"]}
    assert seats[1] == seats[2] == ("registered", 250)
    assert seats[3] == ("", 100)
    page = admin_client.get(f"/admin/tournaments/tournament/{sat.pk}/change/").content.decode()
    assert "Satellite target" in page and "Won a seat: registered in the target" in page
