"""Imported PokerNow hands in the player's history, statistics and ledger, always apart from
play chips: ``GET /api/imports/<id>/``'s ``stats``, ``GET /api/imports/hands/`` (every imported
hand across imports; ``/api/hands/`` stays play-chip hands only), the ``/imports/hands/`` page
and the profile's ledger with the imported night's who-owes-whom."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client

from tables.imports.services import pokernow_import

pytestmark = pytest.mark.django_db

LOG = (
    Path(__file__).parents[1] / "engine" / "data" / "pokernow" / "charlestudor_input_log_002.csv"
).read_text()
NAME = "P1 @ eNVKMq2Tcb"
LEDGER = "player_nickname,player_id,net\nP1,eNVKMq2Tcb,150\nspa @ ces,ZQfm6ZDMPO,-150\n"


@pytest.fixture
def upload(players):
    return pokernow_import(
        player=players[0], log_text=LOG, pokernow_name=NAME, ledger_text=LEDGER, filename="n.csv"
    )


def test_an_imports_detail_carries_its_figures(upload, client_for, players) -> None:
    body = client_for(players[0]).get(f"/api/imports/{upload.pk}/").json()
    stats = body["stats"]
    assert stats["imported_from"] == "pokernow" and stats["unit"] == "1"
    assert (stats["hands"], stats["vpip"], stats["pfr"], stats["net_won"]) == (4, 50.0, 50.0, 150)
    assert stats["counts"]["showdowns"] == 2


def test_every_imported_hand_across_imports_and_never_in_api_hands(upload, client_for, players):
    alice, bob = players[0], players[1]
    listed = client_for(alice).get("/api/imports/hands/?page_size=3").json()
    assert listed["count"] == 4 and len(listed["results"]) == 3
    first = listed["results"][0]
    assert first["imported_from"] == "pokernow" and first["import_id"] == upload.pk
    assert first["number"] == 1 and first["unit"] == "1" and "phh" in first
    assert client_for(bob).get("/api/imports/hands/").json()["count"] == 0
    assert client_for(alice).get("/api/hands/").json()["count"] == 0  # play-chip hands only


def test_the_list_needs_a_login(api) -> None:
    assert api.get("/api/imports/hands/").status_code in (401, 403)


def test_the_schema_documents_the_list_and_the_figures(api) -> None:
    schema = api.get("/api/schema/?format=json").json()
    assert "/api/imports/hands/" in schema["paths"]
    detail = schema["components"]["schemas"]["ImportDetail"]["properties"]
    assert "ImportStats" in str(detail["stats"])
    figures = schema["components"]["schemas"]["ImportStats"]["properties"]
    assert {"vpip", "pfr", "hands", "net_won", "unit", "imported_from"} <= set(figures)


def test_the_imported_hands_page_lists_them_marked(upload, players) -> None:
    client = Client()
    client.force_login(players[0].user)
    page = client.get("/imports/hands/").content.decode()
    assert page.count('class="replay-link"') == 4 and "PokerNow" in page
    assert f'href="/imports/{upload.pk}/"' in page
    other = Client()
    other.force_login(players[1].user)
    assert "No imported hands yet." in other.get("/imports/hands/").content.decode()


def test_the_night_is_in_the_players_ledger(upload, players) -> None:
    client = Client()
    client.force_login(players[0].user)
    page = client.get("/accounts/profile/")
    text = page.content.decode()
    assert 'id="pokernow-nights"' in text and "Nights imported from PokerNow" in text
    assert (
        f"<strong>spa @ ces @ ZQfm6ZDMPO</strong> pays <strong>{NAME}</strong> "
        '<span class="chips">150</span>' in text
    )
    assert 'your net <span class="chips">150</span>' in text
    other = Client()
    other.force_login(players[1].user)
    assert "pokernow-nights" not in other.get("/accounts/profile/").content.decode()
