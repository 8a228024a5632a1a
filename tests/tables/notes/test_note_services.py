"""Notes on players (issue 51): set, update, clear; a refusal says why and changes nothing."""

from __future__ import annotations

import pytest

from tables.models import PlayerNote
from tables.presenters.notes import note_marks
from tables.selectors.notes import author_notes, notes_by_subject
from tables.services.errors import InvalidNote, NoSuchPlayer
from tables.services.notes import note_clear, note_set


def rows() -> list[tuple[str, str, str, str]]:
    return [
        (n.author.name, n.subject.name, n.text, n.label)
        for n in PlayerNote.objects.select_related("author__user", "subject__user")
    ]


def test_set_update_and_clear(players):
    alice, bob, _ = players
    note = note_set(author=alice, subject_id=bob.pk, text="  Bluffs the river  ", label="red")
    assert (note.text, note.label) == ("Bluffs the river", "red")
    note_set(author=alice, subject_id=bob.pk, text="Calls too much", label="blue")
    assert rows() == [("alice", "bob", "Calls too much", "blue")]
    assert note_clear(author=alice, subject_id=bob.pk) is True
    assert rows() == []
    assert note_clear(author=alice, subject_id=bob.pk) is False  # nothing left: no error


def test_a_label_alone_or_a_text_alone_is_a_note(players):
    alice, bob, carol = players
    note_set(author=alice, subject_id=bob.pk, text="", label="green")
    note_set(author=alice, subject_id=carol.pk, text="tight", label="")
    assert sorted(rows()) == [("alice", "bob", "", "green"), ("alice", "carol", "tight", "")]


def test_a_note_is_stored_as_plain_text(players):
    alice, bob, _ = players
    note = note_set(
        author=alice, subject_id=bob.pk, text="tilts\x1b[2J\r\nafter a bad beat", label=""
    )
    assert note.text == "tilts [2J\nafter a bad beat"  # an escape acts on no screen


def test_setting_nothing_clears_the_note(players):
    alice, bob, _ = players
    note_set(author=alice, subject_id=bob.pk, text="tight", label="red")
    assert note_set(author=alice, subject_id=bob.pk, text="   ", label="") is None
    assert rows() == []


@pytest.mark.parametrize(
    ("subject", "text", "label", "error", "words"),
    [
        ("bob", "x" * (PlayerNote.MAX_TEXT + 1), "red", InvalidNote, "at most 500"),
        ("bob", "fine", "pink", InvalidNote, "red, orange, yellow, green, blue, purple"),
        ("bob", 42, "red", InvalidNote, "is text"),
        ("alice", "me", "red", InvalidNote, "yourself"),
        (None, "ghost", "red", NoSuchPlayer, "no such player"),
    ],
)
def test_refusals_change_nothing(players, subject, text, label, error, words):
    alice, bob, _ = players
    note_set(author=alice, subject_id=bob.pk, text="before", label="green")
    subject_id = {"alice": alice.pk, "bob": bob.pk, None: 999_999}[subject]
    with pytest.raises(error, match=words):
        note_set(author=alice, subject_id=subject_id, text=text, label=label)
    assert rows() == [("alice", "bob", "before", "green")]


def test_the_selector_reads_one_authors_notes_only(players):
    alice, bob, carol = players
    note_set(author=alice, subject_id=bob.pk, text="alice on bob", label="red")
    note_set(author=carol, subject_id=bob.pk, text="carol on bob", label="blue")
    assert [(n.subject.name, n.text) for n in author_notes(alice)] == [("bob", "alice on bob")]
    assert notes_by_subject(alice.pk) == {bob.pk: ("red", "Red", "alice on bob")}
    assert notes_by_subject(None) == {}  # a spectator has no notes
    marks = note_marks(notes_by_subject(alice.pk))
    assert marks.get(bob.pk) is not None and marks.get(bob.pk).text == "alice on bob"
    assert marks.get(carol.pk) is None
