"""Names are plain text (issue 32 item 3): a control, format or bidi character in a table's,
a tournament's or a player's name is refused wherever the name is taken (the API, the web
forms, the admin, the services) with an error on the field; a name stored before stays
readable."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tables.models import Table
from tables.names import name_problem
from tables.services import player_sign_up
from tables.services.errors import InvalidName, InvalidSettings
from tables.services.hosting import table_create, table_host_update
from tables.tournaments.models import Tournament
from tests.tables.test_views_hosting import FORM

pytestmark = pytest.mark.django_db

#: What the attack run sent, and each kind of character alone.
BAD_NAMES = [
    "Esc\u001b[2J\u001b]0;owned\u0007Table",  # clears the screen, retitles the window
    "Tab\there",
    "Two\nrows",
    "Back\rover",
    "Evil\u202etxt.exe",  # right-to-left override
    "Iso\u2066late\u2069",  # left-to-right isolate
    "Zero\u200bwidth",  # zero-width space (format)
    "Del\u007f",
    "C1\u009bcsi",  # the one-byte CSI of C1 terminals
    "Line\u2028sep",
    "\u001b[31mRed\u001b[0m Cup",  # colour codes
]
GOOD_NAMES = ["Friday night", "Café · ♠ Ünïcödé", "Ночь пятницы", "金曜日の夜", "Ann's #2 (1/2)"]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_each_control_format_or_bidi_character_is_refused_with_its_code_point(name):
    problem = name_problem(name, "The table's name")
    assert problem is not None and problem.startswith("The table's name")
    bad = next(c for c in name if not c.isprintable())
    assert f"U+{ord(bad):04X}" in problem


@pytest.mark.parametrize("name", GOOD_NAMES)
def test_names_in_any_script_with_punctuation_pass(name):
    assert name_problem(name) is None


def client_for(player) -> APIClient:
    client = APIClient()
    client.force_login(player.user)
    return client


def web(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


@pytest.mark.parametrize("name", BAD_NAMES[:5])
def test_the_api_refuses_a_tables_name_by_its_field(make_player, name):
    host = make_player("hostess")
    answer = client_for(host).post("/api/tables/", {"name": name}, format="json")
    assert answer.status_code == 400, answer.json()
    assert answer.json()["code"] == "invalid"
    assert "control character" in answer.json()["errors"]["name"][0]
    assert not Table.objects.exists()


@pytest.mark.parametrize("name", BAD_NAMES[:5])
def test_the_api_refuses_a_tournaments_name_by_its_field(make_player, name):
    alice = make_player("alice")
    answer = client_for(alice).post("/api/tournaments/", {"name": name}, format="json")
    assert answer.status_code == 400, answer.json()
    assert "control character" in answer.json()["errors"]["name"][0]
    assert not Tournament.objects.exists()


def test_the_services_refuse_them_too_whoever_calls(make_player):
    """The services are the last gate (the admin, management commands, later callers)."""
    host = make_player("hostess")
    with pytest.raises(InvalidSettings) as refused:
        table_create(host=host, name=BAD_NAMES[0])
    assert "control character" in refused.value.errors["name"]
    game = table_create(host=host, name="Friday")
    with pytest.raises(InvalidSettings) as refused:
        table_host_update(table=game, by=host.user, changes={"name": "Fri\u202eday"})
    assert "name" in refused.value.errors
    assert Table.objects.get(pk=game.pk).name == "Friday"
    with pytest.raises(InvalidName) as refused:
        player_sign_up(username="mallory\u001b[2J", password="pw-mallory-Secret1")
    assert "username" in str(refused.value)
    from tables.tournaments.errors import TournamentInvalid
    from tables.tournaments.services.organise import tournament_organise

    with pytest.raises(TournamentInvalid) as refused:
        tournament_organise(organiser=host, name="Cup\tof tea")
    assert refused.value.field == "name"
    assert not Tournament.objects.exists()


def test_the_new_game_form_shows_the_error_on_the_name(make_player):
    host = make_player("hostess")
    page = web(host).post("/tables/new/", {**FORM, "name": "Esc\u001b[2JTable"})
    assert page.status_code == 200
    assert "control character" in page.context["form"].errors["name"][0]
    assert not Table.objects.exists()


def test_the_organise_form_shows_the_error_on_the_name(make_player):
    alice = make_player("alice")
    form = {
        "name": "Cup\u202e",
        "format": "sit-and-go",
        "game": "holdem",
        "betting": "no-limit",
        "seats_per_table": 6,
        "entry_fee": 0,
        "starting_stack": 1000,
        "structure": "regular",
        "levels": "",
        "level_unit": "minutes",
        "late_registration_levels": 0,
        "bot_entrants": 0,
        "start": "manual",
        "payouts": "standard",
        "action_seconds": 20,
    }
    page = web(alice).post("/tournaments/new/", form)
    assert page.status_code == 200
    assert "control character" in page.context["form"].errors["name"][0]
    assert not Tournament.objects.exists()


def test_the_admin_refuses_a_tables_name_on_its_field(make_player):
    root = make_player("root")
    root.user.is_staff = root.user.is_superuser = True
    root.user.save()
    data = {
        "name": "Admin\u0007table",
        "game": "holdem",
        "betting": "no-limit",
        "small_blind": 1,
        "big_blind": 2,
        "ante": 0,
        "ante_mode": "per-player",
        "straddle": 0,
        "straddles": 0,
        "bring_in": 0,
        "max_seats": 6,
        "min_buy_in": "",
        "max_buy_in": "",
        "action_seconds": 25,
        "time_bank_seconds": 60,
        "bot_seats": 0,
        "bomb_pot_ante": 0,
        "bomb_pot_every": 0,
        "seats-TOTAL_FORMS": 0,
        "seats-INITIAL_FORMS": 0,
    }
    admin = Client()
    admin.force_login(root.user)
    page = admin.post(reverse("admin:tables_table_add"), data)
    assert page.status_code == 200
    assert "control character" in page.context["adminform"].form.errors["name"][0]
    assert not Table.objects.exists()


def test_the_sign_up_form_refuses_such_a_username(client):
    data = {"username": "bob\u202e", "password1": "pw-long-Secret1", "password2": "pw-long-Secret1"}
    page = client.post(reverse("signup"), data)
    assert page.status_code == 200
    assert "username" in page.context["form"].errors
    assert not Table.objects.exists()


def test_a_name_stored_before_stays_readable(make_player):
    """Old rows are not rewritten: they are served as they are (JSON escapes them)."""
    Table.objects.create(name="Old\u001b[2Jname")
    alice = make_player("alice")
    answer = client_for(alice).get("/api/tables/")
    assert answer.status_code == 200
    assert "Old\u001b[2Jname" in [row["name"] for row in answer.json()["results"]]
    assert "\\u001b" in answer.content.decode()
