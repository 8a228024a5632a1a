"""``/api/imports/``: upload a PokerNow log through the API, list and show imports; refusals
change nothing and carry their documented code; nobody sees another's import."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from tables.imports.models import ImportedHand, PokerNowImport

pytestmark = pytest.mark.django_db

LOG = (
    Path(__file__).parents[1] / "engine" / "data" / "pokernow" / "charlestudor_input_log_002.csv"
).read_bytes()
NAME = "P1 @ eNVKMq2Tcb"
LEDGER = b"player_nickname,player_id,net\nP1,eNVKMq2Tcb,150\nspa @ ces,ZQfm6ZDMPO,-150\n"


def _client(player=None) -> APIClient:
    client = APIClient()
    if player is not None:
        client.force_login(player.user)
    return client


def _upload(client: APIClient, log: bytes = LOG, name: str = NAME, ledger: bytes | None = None):
    body = {"log": SimpleUploadedFile("log.csv", log, "text/csv"), "pokernow_name": name}
    if ledger is not None:
        body["ledger"] = SimpleUploadedFile("ledger.csv", ledger, "text/csv")
    return _client_post(client, body)


def _client_post(client: APIClient, body: dict):
    return client.post("/api/imports/pokernow/", body, format="multipart")


def test_upload_list_and_show(players) -> None:
    alice = players[0]
    answer = _upload(_client(alice), ledger=LEDGER)
    assert answer.status_code == 201, answer.json()
    created = answer.json()
    assert created["imported_from"] == "pokernow" and created["imported"] == 4
    assert created["settlement"] == [
        {"payer": "spa @ ces @ ZQfm6ZDMPO", "payee": NAME, "amount": "150"}
    ]
    listed = _client(alice).get("/api/imports/").json()
    assert [row["id"] for row in listed] == [created["id"]]
    shown = _client(alice).get(f"/api/imports/{created['id']}/").json()
    assert [hand["number"] for hand in shown["hands"]] == [1, 2, 3, 4]
    assert shown["net"] == sum(hand["net"] for hand in shown["hands"])
    assert all(hand["phh"].startswith("variant") for hand in shown["hands"])
    # the same log again: refused as imported already, and no empty second import
    again = _upload(_client(alice))
    assert again.status_code == 400 and again.json()["code"] == "already_imported"
    assert "imported already" in again.json()["message"]
    assert PokerNowImport.objects.count() == 1 and ImportedHand.objects.count() == 4


def test_another_players_import_is_not_found(players) -> None:
    alice, bob = players[:2]
    created = _upload(_client(alice)).json()
    answer = _client(bob).get(f"/api/imports/{created['id']}/")
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"
    assert _client(bob).get("/api/imports/").json() == []
    assert _client().get("/api/imports/").status_code in (401, 403)


@pytest.mark.parametrize(
    ("log", "name", "ledger", "code", "said"),
    [
        (b"hello\n", NAME, None, "not_pokernow_log", "line 1"),
        (LOG, "nobody", None, "name_not_in_log", NAME),
        (LOG, NAME, b"player_nickname,player_id,net\nP1,x,1\n", "bad_ledger", "sum to zero"),
        (b"\xff\xfe\x00", NAME, None, "not_pokernow_log", "not text"),
    ],
)
def test_refusals_change_nothing_and_say_why(players, log, name, ledger, code, said) -> None:
    answer = _upload(_client(players[0]), log, name, ledger)
    assert answer.status_code == 400
    assert answer.json()["code"] == code and said in answer.json()["message"]
    assert not PokerNowImport.objects.exists() and not ImportedHand.objects.exists()


HEADER = b"entry,at,order\n"
LEDGER_HEAD = b"player_nickname,player_id,net\n"


@pytest.mark.parametrize(
    ("log", "ledger", "code"),
    [
        # one field over the CSV reader's 131,072 characters (issue 54 finding 6)
        (
            HEADER + b'"' + b"x" * 140_000 + b'",2021-01-01T00:00:00.000Z,1\n',
            None,
            "import_too_large",
        ),
        (LOG, LEDGER_HEAD + b'P1,eNVKMq2Tcb,"' + b"9" * 140_000 + b'"\n', "import_too_large"),
        (LOG, LEDGER_HEAD + b"P1,eNVKMq2Tcb,1e999999999\nspa,x,-1e999999999\n", "bad_ledger"),
        (LOG, LEDGER_HEAD + b"P1,eNVKMq2Tcb,1e-999999999\nspa,x,-1e-999999999\n", "bad_ledger"),
        # 20,001 lines ended by CR alone: the reader splits there, so the limit counts them
        (HEADER + b"x,y,1\r" * 20_001, None, "import_too_large"),
    ],
)
def test_the_importers_edges_are_refused_with_their_code(players, log, ledger, code) -> None:
    answer = _upload(_client(players[0]), log, NAME, ledger)
    assert answer.status_code == 400, answer.content[:300]
    assert answer.json()["code"] == code
    assert not PokerNowImport.objects.exists() and not ImportedHand.objects.exists()


def test_a_field_spanning_lines_over_the_readers_limit_is_not_a_log(players) -> None:
    from tables.imports import services

    lines = b"x" * 9_000 + b"\n"
    log = HEADER + b'"' + lines * 16 + b'",t,1\n'
    assert services.MAX_LOG_ROWS > 16
    answer = _upload(_client(players[0]), log)
    assert answer.status_code == 400 and answer.json()["code"] == "not_pokernow_log"
    assert "not a PokerNow log line" in answer.json()["message"]


def test_a_log_over_the_size_limit_is_refused(players, monkeypatch) -> None:
    from tables.imports import services

    monkeypatch.setattr(services, "MAX_LOG_BYTES", 1000)
    answer = _upload(_client(players[0]))
    assert answer.status_code == 400 and answer.json()["code"] == "import_too_large"
    assert "at most 1000" in answer.json()["message"]


def test_the_schema_documents_the_imports(players) -> None:
    schema = _client().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    post = schema["paths"]["/api/imports/pokernow/"]["post"]
    assert "multipart/form-data" in post["requestBody"]["content"]
    assert "not_pokernow_log" in post["responses"]["400"]["description"]
    assert "/api/imports/{id}/" in schema["paths"]
