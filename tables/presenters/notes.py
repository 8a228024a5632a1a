"""A viewer's notes on players as the pages show them (``NoteMarks``): to their author only."""

from __future__ import annotations

from collections.abc import Mapping

from tables.presenters.models import NO_NOTES, NoteMark, NoteMarks


def note_marks(notes: Mapping[int, tuple[str, str, str]]) -> NoteMarks:
    """``notes`` (``tables.selectors.notes.notes_by_subject``: subject id -> (label, its
    name, text)) as the marks the seats and the replayer show."""
    if not notes:
        return NO_NOTES
    return NoteMarks({subject: NoteMark(*facts) for subject, facts in notes.items()})
