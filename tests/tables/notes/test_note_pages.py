"""Writing a note (issue 51): the form on a player's profile page and beside each player in
a hand's replayer; the replayer's seats and names show the viewer's own notes, nobody else's."""

from __future__ import annotations

import pytest
from django.test import Client

from tables.models import PlayerNote
from tables.services.notes import note_set
from tests.api.helpers import engine_hand, store_hand

SECRET = "alice-only: carol never bluffs"

pytestmark = pytest.mark.django_db


def browser(player=None) -> Client:
    client = Client()
    if player is not None:
        client.force_login(player.user)
    return client


@pytest.fixture
def hand(players, table):
    state = engine_hand(["AsAh", "7c2d", "KsKh"], "9c5d3h8sJd", ["fold", "fold"])
    return store_hand(table, players, state, number=1)


def test_the_profile_form_saves_updates_and_clears_a_note(players):
    alice, bob, _ = players
    client = browser(alice)
    page = client.get(f"/players/{bob.pk}/stats/").content.decode()
    assert 'id="note-form-' + str(bob.pk) in page
    answer = client.post(
        f"/players/{bob.pk}/note/",
        {"text": "loose", "label": "orange", "next": f"/players/{bob.pk}/stats/"},
    )
    assert answer.status_code == 302 and answer["Location"] == f"/players/{bob.pk}/stats/"
    page = client.get(f"/players/{bob.pk}/stats/").content.decode()
    assert "loose" in page and "Your label: Orange" in page
    client.post(f"/players/{bob.pk}/note/", {"clear": "1"})
    assert not PlayerNote.objects.exists()


def test_your_own_page_links_the_export_of_your_notes(players):
    alice, bob, _ = players
    note_set(author=alice, subject_id=bob.pk, text=SECRET, label="")
    page = browser(alice).get(f"/players/{alice.pk}/stats/").content.decode()
    assert 'id="my-notes"' in page and 'href="/api/notes/"' in page
    assert 'id="note-form-' not in page  # no note on yourself
    assert browser(alice).get("/api/notes/").json()["notes"][0]["text"] == SECRET


def test_a_refused_note_says_why_and_changes_nothing(players):
    alice, bob, _ = players
    note_set(author=alice, subject_id=bob.pk, text="before", label="red")
    client = browser(alice)
    answer = client.post(f"/players/{bob.pk}/note/", {"text": "x", "label": "pink"})
    assert answer.status_code == 400 and "label is one of" in answer.content.decode()
    answer = client.post(f"/players/{alice.pk}/note/", {"text": "me", "label": ""})
    assert answer.status_code == 400 and "not on yourself" in answer.content.decode()
    assert list(PlayerNote.objects.values_list("text", "label")) == [("before", "red")]
    # a foreign "next" is not followed
    answer = client.post(
        f"/players/{bob.pk}/note/", {"text": "ok", "next": "https://evil.example/"}
    )
    assert answer["Location"] == f"/players/{bob.pk}/stats/"


def test_a_note_is_written_by_a_logged_in_player_only(players):
    _, bob, _ = players
    answer = browser().post(f"/players/{bob.pk}/note/", {"text": "anon"})
    assert answer.status_code == 302 and "/login" in answer["Location"]
    assert not PlayerNote.objects.exists()


def test_nobody_else_sees_a_note_on_the_profile_page(players):
    alice, bob, carol = players
    note_set(author=alice, subject_id=bob.pk, text=SECRET, label="red")
    assert SECRET in browser(alice).get(f"/players/{bob.pk}/stats/").content.decode()
    for viewer in (bob, carol):
        assert SECRET not in browser(viewer).get(f"/players/{bob.pk}/stats/").content.decode()


def test_the_replayer_shows_the_note_to_its_author_only(players, hand):
    alice, bob, carol = players
    note_set(author=alice, subject_id=carol.pk, text=SECRET, label="purple")
    page = browser(alice).get(f"/hands/{hand.pk}/").content.decode()
    assert SECRET in page
    assert 'class="note-mark note-purple"' in page  # on carol's seat, at every step
    assert f'id="note-form-{carol.pk}"' in page and f'id="note-form-{bob.pk}"' in page
    assert f'id="note-form-{alice.pk}"' not in page  # no note on yourself
    for viewer in (bob, carol, None):
        other = browser(viewer).get(f"/hands/{hand.pk}/").content.decode()
        assert SECRET not in other and "note-mark" not in other
    answer = browser(alice).post(
        f"/players/{bob.pk}/note/",
        {"text": "from the replayer", "label": "", "next": f"/hands/{hand.pk}/#notes"},
    )
    assert answer["Location"] == f"/hands/{hand.pk}/#notes"
    assert "from the replayer" in browser(alice).get(f"/hands/{hand.pk}/").content.decode()
