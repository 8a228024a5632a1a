"""The notes API (issue 51): list (the export), set, read, clear, import; refusals change
nothing; no answer to anyone else ever holds another player's note."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from tables.models import PlayerNote
from tables.services.notes import note_set

SECRET = "alice-only: bob overbets the turn"

pytestmark = pytest.mark.django_db


def api(player=None) -> APIClient:
    client = APIClient()
    if player is not None:
        client.force_authenticate(player.user)
    return client


def stored() -> list[tuple[str, str, str, str]]:
    return sorted(
        PlayerNote.objects.values_list(
            "author__user__username", "subject__user__username", "text", "label"
        )
    )


def test_set_read_list_and_clear(players):
    alice, bob, carol = players
    me = api(alice)
    answer = me.put(f"/api/notes/{bob.pk}/", {"text": "sticky", "label": "yellow"}, format="json")
    assert answer.status_code == 200
    assert answer.json()["player"] == "bob" and answer.json()["label"] == "yellow"
    me.put(f"/api/notes/{carol.pk}/", {"label": "green"}, format="json")
    notes = me.get("/api/notes/").json()["notes"]
    assert [(n["player"], n["player_id"], n["label"], n["text"]) for n in notes] == [
        ("bob", bob.pk, "yellow", "sticky"),
        ("carol", carol.pk, "green", ""),
    ]
    assert me.get(f"/api/notes/{bob.pk}/").json()["text"] == "sticky"
    assert me.delete(f"/api/notes/{bob.pk}/").status_code == 204
    assert me.get(f"/api/notes/{bob.pk}/").status_code == 404
    assert me.put(f"/api/notes/{carol.pk}/", {}, format="json").status_code == 204  # cleared
    assert stored() == []


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"text": "x", "label": "pink"}, 400, "invalid"),
        ({"text": "x" * 501, "label": ""}, 400, "invalid"),
        ({"text": 5, "label": "red"}, 400, "invalid"),
        ({"text": "x", "label": ["red"]}, 400, "invalid"),
    ],
)
def test_bad_notes_are_refused_and_change_nothing(players, body, status, code):
    alice, bob, _ = players
    note_set(author=alice, subject_id=bob.pk, text="before", label="red")
    answer = api(alice).put(f"/api/notes/{bob.pk}/", body, format="json")
    assert (answer.status_code, answer.json()["code"]) == (status, code)
    assert answer.json()["message"]
    assert stored() == [("alice", "bob", "before", "red")]


def test_no_such_player_and_yourself(players):
    alice, _, _ = players
    me = api(alice)
    answer = me.put("/api/notes/999999/", {"text": "ghost"}, format="json")
    assert (answer.status_code, answer.json()["code"]) == (404, "not_found")
    answer = me.put(f"/api/notes/{alice.pk}/", {"text": "me"}, format="json")
    assert (answer.status_code, answer.json()["code"]) == (400, "invalid_note")
    assert me.delete(f"/api/notes/{alice.pk}/").status_code == 204  # nothing to clear
    assert api().get("/api/notes/").status_code in (401, 403)
    assert stored() == []


def test_no_answer_to_anyone_else_holds_a_note(players):
    alice, bob, carol = players
    note_set(author=alice, subject_id=bob.pk, text=SECRET, label="red")
    for viewer in (bob, carol):
        client = api(viewer)
        for path in (
            "/api/notes/",
            f"/api/notes/{bob.pk}/",
            f"/api/players/{bob.pk}/",
            "/api/players/me/",
            f"/api/players/{alice.pk}/",
        ):
            assert SECRET not in client.get(path).content.decode(), (viewer.name, path)
    assert SECRET in api(alice).get("/api/notes/").content.decode()


def test_an_export_imports_back_all_or_nothing(players, make_player):
    alice, bob, carol = players
    note_set(author=alice, subject_id=bob.pk, text="bob's note", label="red")
    note_set(author=alice, subject_id=carol.pk, text="carol's note", label="")
    exported = api(alice).get("/api/notes/").json()
    PlayerNote.objects.all().delete()
    dave = make_player("dave")
    me = api(alice)
    # the export back, by name for carol, plus a bad one at the end: nothing is written
    body = json.loads(json.dumps(exported))
    del body["notes"][1]["player_id"]
    bad = {"notes": [*body["notes"], {"player": "nobody", "text": "x", "label": ""}]}
    answer = me.post("/api/notes/import/", bad, format="json")
    assert answer.status_code == 404 and "Note 3" in answer.json()["message"]
    bad = {"notes": [*body["notes"], {"player_id": dave.pk, "text": "x", "label": "pink"}]}
    answer = me.post("/api/notes/import/", bad, format="json")
    assert (answer.status_code, answer.json()["code"]) == (400, "invalid")
    assert "label" in str(answer.json()["errors"]["notes"])
    bad = {"notes": [*body["notes"], {"player_id": alice.pk, "text": "me", "label": ""}]}
    answer = me.post("/api/notes/import/", bad, format="json")
    assert (answer.status_code, answer.json()["code"]) == (400, "invalid_note")
    assert answer.json()["message"] == "Note 3: Notes are on other players, not on yourself."
    answer = me.post("/api/notes/import/", {"notes": [{"text": "who?"}]}, format="json")
    assert (answer.status_code, answer.json()["code"]) == (400, "invalid")
    assert stored() == []
    answer = me.post("/api/notes/import/", body, format="json")
    assert answer.status_code == 200 and answer.json() == {"imported": 2}
    assert stored() == [
        ("alice", "bob", "bob's note", "red"),
        ("alice", "carol", "carol's note", ""),
    ]
