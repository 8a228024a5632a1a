"""The upload pages (tables/imports/views.py): the name is picked from the log's names, the
import's page shows its hands marked as PokerNow's, its statistics and the ledger night;
refusals say why and change nothing; another player's import is not found."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tables.imports.models import ImportedHand, PokerNowImport

pytestmark = pytest.mark.django_db

LOG = (
    Path(__file__).parents[2] / "engine/data/pokernow/charlestudor_input_log_002.csv"
).read_bytes()
NAME = "P1 @ eNVKMq2Tcb"
LEDGER = b"player_nickname,player_id,net\nP1,eNVKMq2Tcb,150\nspa @ ces,ZQfm6ZDMPO,-150\n"


def _client(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def test_the_name_is_picked_from_the_log_then_the_hands_come_in(players) -> None:
    client = _client(players[0])
    page = client.get("/imports/")
    assert b"at most 2 MiB and 20000 lines" in page.content
    upload = {
        "log": SimpleUploadedFile("night.csv", LOG),
        "ledger": SimpleUploadedFile("l.csv", LEDGER),
    }
    picking = client.post("/imports/", upload)
    assert picking.status_code == 200 and b"Which PokerNow name is yours?" in picking.content
    assert NAME.encode() in picking.content and not PokerNowImport.objects.exists()
    context = picking.context
    done = client.post(
        "/imports/",
        {
            "pokernow_name": NAME,
            "log_text": context["log_text"],
            "ledger_text": context["ledger_text"],
            "filename": context["filename"],
        },
    )
    upload_row = PokerNowImport.objects.get()
    assert done.status_code == 302 and done["Location"] == f"/imports/{upload_row.pk}/"
    shown = client.get(done["Location"]).content.decode()
    assert "Imported from PokerNow" in shown and "night.csv" in shown
    assert "4 new hands imported" in shown
    assert "pays <strong>P1 @ eNVKMq2Tcb</strong>" in shown
    hand = ImportedHand.objects.get(number=2)
    page = client.get(f"/imports/hands/{hand.pk}/").content.decode()
    assert (
        "imported from PokerNow" in page
        and "@atsymbols@@@ @ 3mid0aO0hZ bets or raises to 30" in page
    )
    phh = client.get(f"/imports/hands/{hand.pk}/?format=phh")
    assert phh.content.decode() == hand.phh


def test_a_bad_file_says_why_and_changes_nothing(players) -> None:
    client = _client(players[0])
    page = client.post("/imports/", {"log": SimpleUploadedFile("x.csv", b"not,a,log\n")})
    assert page.status_code == 400
    assert "Nothing was imported: line 1: not a PokerNow log" in page.content.decode()
    named = client.post(
        "/imports/", {"log": SimpleUploadedFile("x.csv", LOG), "pokernow_name": "nobody"}
    )
    assert named.status_code == 400 and b"is not seated in this log" in named.content
    assert not PokerNowImport.objects.exists()


def test_another_players_import_and_hands_are_not_found(players) -> None:
    alice, bob = players[:2]
    client = _client(alice)
    client.post("/imports/", {"log": SimpleUploadedFile("x.csv", LOG), "pokernow_name": NAME})
    upload = PokerNowImport.objects.get()
    hand = upload.hands.first()
    assert hand is not None
    assert _client(bob).get(f"/imports/{upload.pk}/").status_code == 404
    assert _client(bob).get(f"/imports/hands/{hand.pk}/").status_code == 404


def test_the_stats_page_lists_the_imports_apart_from_the_figures(players) -> None:
    alice = players[0]
    client = _client(alice)
    client.post("/imports/", {"log": SimpleUploadedFile("x.csv", LOG), "pokernow_name": NAME})
    page = client.get(f"/players/{alice.pk}/stats/")
    assert page.context["stats"]["hands"] == 0  # the play-chip figures leave them out
    listed = page.content.decode()
    assert 'id="pokernow-import-list"' in listed and "4 hands" in listed
    # another player's page does not list alice's imports
    other = _client(players[1]).get(f"/players/{alice.pk}/stats/")
    assert 'id="pokernow-import-list"' not in other.content.decode()


def test_the_same_log_uploaded_again_says_so_and_makes_no_empty_import(players) -> None:
    client = _client(players[0])
    for _ in range(2):
        answer = client.post(
            "/imports/", {"log": SimpleUploadedFile("night.csv", LOG), "pokernow_name": NAME}
        )
    assert answer.status_code == 400
    assert "Nothing was imported: this log was imported already" in answer.content.decode()
    assert PokerNowImport.objects.count() == 1
