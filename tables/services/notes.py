"""Notes on players (issue 51): a player's private note and colour label on another player,
one per author and subject, shown to its author alone.

No lock: a note changes no table, no chip and no hand. Each function is one transaction and
raises a ``ServiceError`` having changed nothing. After a change the author's own table
sockets re-read their notes (``tables.services.events.notes_changed_on_commit``), so the
seats of a table they watch show the new label at once; nobody else's socket hears of it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction

from engine.text import plain_text
from tables.models import Player, PlayerNote
from tables.services.errors import InvalidNote, NoSuchPlayer
from tables.services.events import notes_changed_on_commit

#: The labels a note may carry: ``(key, name)``, "" for none.
LABELS = tuple(PlayerNote.Label.choices)
COLOURS = tuple(key for key, _ in LABELS if key)


@dataclass(frozen=True)
class NoteInput:
    """One note as given (a form, the API, an import): checked by ``note_input``."""

    text: str
    label: str


def note_input(text: object, label: object) -> NoteInput:
    """The note as it is stored: plain text (``engine.text.plain_text``, its line breaks
    kept) trimmed, and a label of the palette; ``InvalidNote`` with the reason otherwise."""
    if not isinstance(text, str):
        raise InvalidNote("A note is text.")
    if label is None:
        label = ""
    if not isinstance(label, str) or label not in dict(LABELS):
        raise InvalidNote(f"A note's label is one of {', '.join(COLOURS)}, or none.")
    text = plain_text(text, keep_lines=True).strip()
    if len(text) > PlayerNote.MAX_TEXT:
        raise InvalidNote(
            f"A note has at most {PlayerNote.MAX_TEXT} characters (this one has {len(text)})."
        )
    return NoteInput(text, label)


def _subject(author: Player, subject_id: object, *, self_too: bool = False) -> Player:
    if not isinstance(subject_id, int) or isinstance(subject_id, bool):
        raise NoSuchPlayer("There is no such player.")
    subject = Player.objects.select_related("user").filter(pk=subject_id).first()
    if subject is None:
        raise NoSuchPlayer("There is no such player.")
    if subject.pk == author.pk and not self_too:
        raise InvalidNote("Notes are on other players, not on yourself.")
    return subject


def note_set(
    *, author: Player, subject_id: object, text: object, label: object
) -> PlayerNote | None:
    """``author``'s note on player ``subject_id`` is now ``text`` with ``label`` (made,
    or replaced). A note with neither text nor label is cleared (None is returned)."""
    note = note_input(text, label)
    subject = _subject(author, subject_id)
    with transaction.atomic():
        if not note.text and not note.label:
            _clear(author, subject.pk)
            return None
        stored, _ = PlayerNote.objects.update_or_create(
            author=author, subject=subject, defaults={"text": note.text, "label": note.label}
        )
        _tell_author(author)
    return stored


def note_clear(*, author: Player, subject_id: object) -> bool:
    """``author`` has no note on ``subject_id`` any more; whether there was one (none on
    themselves: nothing to clear, no error)."""
    subject = _subject(author, subject_id, self_too=True)
    with transaction.atomic():
        return _clear(author, subject.pk)


def notes_import(*, author: Player, notes: Iterable[tuple[object, object, object]]) -> int:
    """Set each ``(subject_id, text, label)`` of an import, all or none: the first bad one
    is refused (its position in the error) and nothing is written. How many were set."""
    checked = []
    for at, (subject_id, text, label) in enumerate(notes, start=1):
        try:
            checked.append((_subject(author, subject_id), note_input(text, label)))
        except (InvalidNote, NoSuchPlayer) as error:
            raise type(error)(f"Note {at}: {error}") from None
    with transaction.atomic():
        for subject, note in checked:
            if not note.text and not note.label:
                PlayerNote.objects.filter(author=author, subject=subject).delete()
                continue
            PlayerNote.objects.update_or_create(
                author=author, subject=subject, defaults={"text": note.text, "label": note.label}
            )
        _tell_author(author)
    return len(checked)


def _clear(author: Player, subject_id: int) -> bool:
    deleted, _ = PlayerNote.objects.filter(author=author, subject_id=subject_id).delete()
    if deleted:
        _tell_author(author)
    return bool(deleted)


def _tell_author(author: Player) -> None:
    notes_changed_on_commit(author.user_id)
