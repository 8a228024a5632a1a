"""Editing a tournament through the API (issue 52): ``PATCH /api/tournaments/<id>/`` changes
the settings it is given and keeps the others, through the edit page's own service
(``services.edit``): only the organiser or staff (403 ``not_organiser``), only before the
start (409 ``tournament_started``), a bad setting is a 400 naming it, and nothing changes on
any refusal; the entrants keep what they paid."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tables.models import Player
from tables.tournaments.models import Tournament
from tables.tournaments.services import tournament_create, tournament_register, tournament_start

pytestmark = pytest.mark.django_db

HANDS = [{"small_blind": 25 * 2**n, "big_blind": 50 * 2**n, "hands": 3} for n in range(6)]
#: What an edit may change: all of them are read back to check that nothing changed.
SETTINGS = (
    "name",
    "entry_fee",
    "max_entrants",
    "starting_stack",
    "structure",
    "levels",
    "rebuy_levels",
    "addon_chips",
    "addon_price",
    "start",
    "private",
)


@pytest.fixture(autouse=True)
def _fresh_throttle_cache():
    from django.core.cache import cache

    cache.clear()


def client_for(player: Player) -> APIClient:
    client = APIClient()
    client.force_login(player.user)
    return client


def friday(organiser: Player, **settings) -> Tournament:
    return tournament_create(
        organiser=organiser, name="Friday", entry_fee=100, structure_name="turbo", **settings
    )


def held(tournament: Tournament) -> dict:
    tournament.refresh_from_db()
    return {name: getattr(tournament, name) for name in SETTINGS}


def patch(client: APIClient, tournament: Tournament, body: dict):
    return client.patch(f"/api/tournaments/{tournament.pk}/", body, format="json")


def test_the_organiser_changes_what_they_give_and_the_rest_stays(players):
    alice, bob, _ = players
    tournament = friday(alice)
    tournament_register(tournament=tournament, player=bob)
    before = held(tournament)
    body = {"name": "Friday deep", "levels": HANDS, "rebuy_levels": 2, "addon_chips": 2000}
    body |= {"addon_price": 50, "max_entrants": 4}
    response = patch(client_for(alice), tournament, body)
    assert response.status_code == 200, response.json()
    answer = response.json()
    assert (answer["name"], answer["structure"], answer["max_entrants"]) == (
        "Friday deep",
        "custom",
        4,
    )
    assert (answer["rebuy_levels"], answer["addon_chips"], answer["addon_price"]) == (2, 2000, 50)
    assert answer["level"]["hands_left"] == 3  # the new levels are the ones shown
    # the structure's estimated length for its most entrants: 4 x 1,500 chips are 30 big
    # blinds at 100/200, level 3
    estimate = {"levels": 3, "length": 9, "unit": "hands", "open_ended": False}
    assert answer["estimate"] == {**estimate, "text": "about 9 hands"}
    after = held(tournament)
    assert after["levels"] == [{"ante": 0, **level} for level in HANDS]
    assert after["entry_fee"] == before["entry_fee"] == 100  # not given: kept
    assert (after["starting_stack"], after["start"]) == (before["starting_stack"], "manual")
    # bob keeps what he paid: his fee is in the pool still
    assert tournament.entries.get().fee_paid == 100 and tournament.prize_pool == 100


def test_a_preset_structure_stays_a_preset_when_something_else_changes(players):
    tournament = friday(players[0])
    response = patch(client_for(players[0]), tournament, {"action_seconds": 30})
    assert response.status_code == 200, response.json()
    tournament.refresh_from_db()
    assert (tournament.structure, tournament.action_seconds) == ("turbo", 30)


def test_a_sit_and_go_as_many_entrants_as_seats_follows_its_seats(players):
    tournament = friday(players[0])
    assert tournament.max_entrants == 6
    response = patch(client_for(players[0]), tournament, {"seats_per_table": 4})
    assert response.status_code == 200, response.json()
    assert response.json()["max_entrants"] == 4
    response = patch(client_for(players[0]), tournament, {"max_entrants": 3})
    assert response.json()["max_entrants"] == 3
    response = patch(client_for(players[0]), tournament, {"seats_per_table": 9})
    assert response.json()["max_entrants"] == 3  # set apart from the seats: it stays


def test_staff_may_edit_anyone_elses(players):
    tournament = friday(players[0])
    staff = players[2]
    staff.user.is_staff = True
    staff.user.save()
    assert patch(client_for(staff), tournament, {"name": "By staff"}).status_code == 200
    assert held(tournament)["name"] == "By staff"


def test_anyone_but_the_organiser_is_refused_403_and_nothing_changes(players):
    tournament = friday(players[0])
    before = held(tournament)
    response = patch(client_for(players[1]), tournament, {"name": "Mine now"})
    assert response.status_code == 403
    assert response.json()["code"] == "not_organiser"
    assert held(tournament) == before
    logged_out = APIClient().patch(
        f"/api/tournaments/{tournament.pk}/", {"name": "Anyone"}, format="json"
    )
    assert logged_out.status_code in (401, 403) and held(tournament) == before


def test_once_started_an_edit_is_409_and_nothing_changes(players):
    alice, bob, carol = players
    tournament = friday(alice)
    for player in (bob, carol):
        tournament_register(tournament=tournament, player=player)
    tournament_start(tournament=tournament, by=alice)
    before = held(tournament)
    response = patch(client_for(alice), tournament, {"name": "Too late"})
    assert response.status_code == 409
    assert response.json()["code"] == "tournament_started"
    assert held(tournament) == before


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "Fine", "seats_per_table": 11}, "seats_per_table"),  # the serializer's
        ({"name": "Fine", "levels": [{"small_blind": 10, "big_blind": 5}]}, "levels"),
        ({"name": "Fine", "entry_fee": 50}, "entry_fee"),  # the entrants paid 100
        ({"name": "Fine", "max_entrants": 1}, "max_entrants"),
        ({"name": "Fine", "addon_chips": 500}, "addon_chips"),  # an add-on needs rebuys
        ({"name": "Fine", "bot_entrants": 2}, "bot_entrants"),  # entries, not a setting
        ({"name": "Fine", "club": 1}, "club"),
        ({"name": "Fine", "start": "tomorrow"}, "start"),
        ({"name": ""}, "name"),
    ],
)
def test_a_bad_setting_is_400_naming_it_and_nothing_changes(players, body, field):
    alice, bob, _ = players
    tournament = friday(alice)
    tournament_register(tournament=tournament, player=bob)
    before = held(tournament)
    response = patch(client_for(alice), tournament, body)
    assert response.status_code == 400, response.json()
    assert field in str(response.json()), response.json()
    assert held(tournament) == before
    assert tournament.entries.get().fee_paid == 100


def test_a_private_tournament_is_404_to_outsiders(players):
    tournament = friday(players[0])
    Tournament.objects.filter(pk=tournament.pk).update(private=True)
    response = patch(client_for(players[1]), tournament, {"name": "Seen"})
    assert response.status_code == 404
    assert held(tournament)["name"] == "Friday"
