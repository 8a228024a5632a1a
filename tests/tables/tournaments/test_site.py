"""The tournaments' pages, the level on a tournament's tables (page and play state), admin,
and the refusal to cash anybody out of a tournament table."""

from __future__ import annotations

import jsonschema
import pytest
from django.test import Client
from django.utils import timezone

from tables.models import Player, Seat, Table
from tables.presenters.play_state import PLAY_STATE, play_state
from tables.presenters.screen import table_screen
from tables.selectors.snapshot import load_snapshot
from tables.services import ServiceError, table_close, table_remove_player
from tables.tournaments.models import Tournament
from tables.tournaments.services import tournament_create, tournament_register, tournament_start

from .helpers import play_hand, push_or_fold

pytestmark = pytest.mark.django_db

LEVELS = [
    {"small_blind": 10, "big_blind": 20, "hands": 2},
    {"small_blind": 20, "big_blind": 40, "ante": 5, "hands": 2},
]


def site_for(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


@pytest.fixture
def running(players):
    alice, bob, carol = players
    tournament = tournament_create(organiser=alice, name="Tuesday", levels=LEVELS)
    for player in players:
        tournament_register(tournament=tournament, player=player)
    tournament_start(tournament=tournament, by=alice)
    tournament.refresh_from_db()
    return tournament, tournament.tables.get().table


def test_the_navigation_links_the_tournament_lobby_with_its_three_sections(players, running):
    page = Client().get("/").content.decode()
    assert 'href="/tournaments/"' in page
    lobby = Client().get("/tournaments/").content.decode()
    for heading in ("Upcoming", "Running", "Finished"):
        assert f">{heading}</h2>" in lobby
    running_part = lobby.split(">Running</h2>")[1].split(">Finished</h2>")[0]
    assert "Tuesday" in running_part


def test_a_tournament_table_shows_the_level_next_level_and_hands_until_it(players, running):
    import random

    tournament, table = running
    page = site_for(players[0]).get(f"/tables/{table.pk}/").content.decode()
    assert "Tuesday" in page and "Level 1: <strong>10/20</strong>" in page
    assert "next 20/40 ante 5 in 2 hands" in page
    play_hand(table.pk, timezone.now(), random.Random(1), push_or_fold)  # one hand played
    snapshot = load_snapshot(Table.objects.get(pk=table.pk))
    state = play_state(snapshot, table_screen(snapshot, players[0], 0))
    jsonschema.validate(state, PLAY_STATE)
    level = state["tournament"]["level"]
    assert state["tournament"]["name"] == "Tuesday"
    assert (level["number"], level["big_blind"], level["hands_left"]) == (1, 20, 1)
    assert level["next"] == {"small_blind": 20, "big_blind": 40, "ante": 5}
    banner = Client().get(f"/tournaments/tables/{table.pk}/level/").content.decode()
    assert "in 1 hand" in banner


def test_a_cash_table_has_no_tournament_in_its_play_state(players, table):
    snapshot = load_snapshot(table)
    state = play_state(snapshot, table_screen(snapshot, None, None))
    jsonschema.validate(state, PLAY_STATE)
    assert state["tournament"] is None


def test_the_organise_form_shows_errors_by_field_and_creates_nothing(players):
    site = site_for(players[0])
    assert site.get("/tournaments/new/").status_code == 200
    form = {
        "name": "Custom",
        "format": "sit-and-go",
        "game": "holdem",
        "betting": "no-limit",
        "seats_per_table": 6,
        "entry_fee": 0,
        "starting_stack": 1000,
        "structure": "custom",
        "levels": "10 20 0 5\n20 10 0 5",  # small blind above the big blind
        "level_unit": "hands",
        "late_registration_levels": 0,
        "bot_entrants": 0,
        "start": "manual",
        "payouts": "standard",
        "action_seconds": 20,
    }
    response = site.post("/tournaments/new/", form)
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert list(errors) == ["levels"] and "small blind" in errors["levels"][0]
    response = site.post("/tournaments/new/", {**form, "levels": "", "seats_per_table": 12})
    assert set(response.context["form"].errors) == {"levels", "seats_per_table"}
    assert not Tournament.objects.exists()
    made = site.post(
        "/tournaments/new/", {**form, "levels": "10 20 0 5\n20 40 5 5", "private": "on"}
    )
    tournament = Tournament.objects.get()
    assert made.url == f"/tournaments/{tournament.pk}/"
    assert tournament.private and tournament.levels[1] == {
        "small_blind": 20,
        "big_blind": 40,
        "ante": 5,
        "hands": 5,
    }
    page = site.get(made.url).content.decode()
    assert tournament.invite_token in page  # the organiser's invite link


def test_register_unregister_and_start_buttons_on_the_page(players):
    alice, bob, carol = players
    tournament = tournament_create(organiser=alice, name="Buttons", entry_fee=10, levels=LEVELS)
    url = f"/tournaments/{tournament.pk}/"
    page = site_for(bob).get(url).content.decode()
    assert 'id="register"' in page and 'id="start"' not in page
    site_for(bob).post(f"{url}register/")
    site_for(carol).post(f"{url}register/")
    page = site_for(bob).get(url).content.decode()
    assert 'id="unregister"' in page and "you are registered" in page
    site_for(bob).post(f"{url}unregister/")
    assert Player.objects.get(pk=bob.pk).bankroll == bob.bankroll
    site_for(bob).post(f"{url}register/")
    refused = site_for(bob).post(f"{url}start/", follow=True).content.decode()
    assert "Only the organiser" in refused
    assert 'id="start"' in site_for(alice).get(url).content.decode()
    site_for(alice).post(f"{url}start/")
    tournament.refresh_from_db()
    assert tournament.status == "running"
    standings = Client().get(f"{url}standings/").content.decode()
    assert "Watch table 1" in standings and "Rank" in standings
    assert standings.count('class="entrant') == 2


def test_admin_cannot_remove_a_player_or_close_a_tournament_table(players, running):
    tournament, table = running
    seat = Seat.objects.filter(table=table).first()
    with pytest.raises(ServiceError, match="tournament's table"):
        table_remove_player(table=table, player=seat.player)
    with pytest.raises(ServiceError, match="tournament's table"):
        table_close(table=table)
    assert Seat.objects.filter(table=table).count() == 3
    assert Table.objects.get(pk=table.pk).status == Table.Status.OPEN


def test_admin_lists_filters_and_starts_and_cancels_through_the_services(players, admin_client):
    alice, bob, carol = players
    first = tournament_create(organiser=alice, name="First", levels=LEVELS)
    second = tournament_create(organiser=alice, name="Second", entry_fee=30, levels=LEVELS)
    bankroll = Player.objects.get(pk=bob.pk).bankroll
    for player in (bob, carol):
        tournament_register(tournament=first, player=player)
        tournament_register(tournament=second, player=player)
    listing = admin_client.get(
        "/admin/tournaments/tournament/?status__exact=registering&format__exact=sit-and-go"
    )
    assert listing.status_code == 200 and "First" in listing.content.decode()
    admin_client.post(
        "/admin/tournaments/tournament/",
        {"action": "start_tournaments", "_selected_action": [first.pk]},
    )
    admin_client.post(
        "/admin/tournaments/tournament/",
        {"action": "cancel_tournaments", "_selected_action": [second.pk, first.pk]},
        follow=True,
    )
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.status == "running"  # started, so not cancelled
    assert second.status == "finished" and second.prize_pool == 0
    assert Player.objects.get(pk=bob.pk).bankroll == bankroll  # the fee came back
    page = admin_client.get(f"/admin/tournaments/tournament/{first.pk}/change/").content.decode()
    assert "bob" in page and 'name="name"' not in page  # entrants shown, nothing editable
