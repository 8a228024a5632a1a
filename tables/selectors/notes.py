"""Reads of notes on players: one author's, never anyone else's (``tables.models.notes``)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import QuerySet

from tables.models import Player, PlayerNote

#: One note as the presenters take it: (label, the label in words, text).
NoteFacts = tuple[str, str, str]


def author_notes(author: Player) -> QuerySet[PlayerNote]:
    """``author``'s notes, by their subject's name."""
    return (
        PlayerNote.objects.filter(author=author)
        .select_related("subject__user")
        .order_by("subject__user__username")
    )


def notes_by_subject(author_id: int | None) -> dict[int, NoteFacts]:
    """The notes of player ``author_id`` (None: a spectator, who has none) by subject id."""
    if author_id is None:
        return {}
    labels = dict(PlayerNote.Label.choices)
    return {
        subject: (label, str(labels[label]), text)
        for subject, label, text in PlayerNote.objects.filter(author_id=author_id).values_list(
            "subject_id", "label", "text"
        )
    }


def note_on(author_id: int, subject_id: int) -> PlayerNote | None:
    """Player ``author_id``'s note on player ``subject_id``, if they wrote one."""
    return PlayerNote.objects.filter(author_id=author_id, subject_id=subject_id).first()


def player_ids_by_name(names: Iterable[str]) -> dict[str, int]:
    """The ids of the players named ``names`` (exactly), by name; unknown names left out."""
    wanted = set(names)
    if not wanted:
        return {}
    return dict(
        Player.objects.filter(user__username__in=wanted).values_list("user__username", "pk")
    )
