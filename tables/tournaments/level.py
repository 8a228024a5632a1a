"""The level in play, the next one and how long until it: for a tournament's tables (their
screens and play state) and for its page.

Levels by hands count the hands dealt at a table (as ``services.play.level_of`` deals them);
levels by minutes run from the start. The level shown while a hand is played is the one it
was dealt with.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime, timedelta

from django.db.models import Count, Q
from django.urls import reverse
from django.utils import timezone

from tables.models import Hand, Table
from tables.tournaments import structure
from tables.tournaments.models import Tournament
from tables.tournaments.services import lookup
from tables.tournaments.services.play import SEATED_BY_TOURNAMENT


@dataclass(frozen=True)
class Blinds:
    small_blind: int
    big_blind: int
    ante: int

    @property
    def text(self) -> str:
        ante = f" ante {self.ante:,}" if self.ante else ""
        return f"{self.small_blind:,}/{self.big_blind:,}{ante}"


@dataclass(frozen=True)
class LevelNow:
    """``number`` from 1; ``hands_left``: hands of this level still to be dealt or played
    (levels by hands); ``next_at``: when the next level starts (levels by minutes); both None
    at the last level (it stays)."""

    number: int
    blinds: Blinds
    next: Blinds | None
    hands_left: int | None
    next_at: datetime | None

    def as_json(self) -> dict:
        return {
            "number": self.number,
            **asdict(self.blinds),
            "next": asdict(self.next) if self.next is not None else None,
            "hands_left": self.hands_left,
            "next_at": self.next_at.isoformat().replace("+00:00", "Z") if self.next_at else None,
        }


def _blinds(level: dict) -> Blinds:
    return Blinds(level["small_blind"], level["big_blind"], level.get("ante", 0))


def level_now(tournament: Tournament, *, hands_dealt: int = 0) -> LevelNow:
    """The level after ``hands_dealt`` hands (levels by hands) or at the time since the start
    (levels by minutes; the first level before the start)."""
    levels = tournament.levels
    hands_left = next_at = None
    if tournament.by_hands:
        index = structure.level_index(levels, hands=hands_dealt)
        boundary = sum(level["hands"] for level in levels[: index + 1])
        if index < len(levels) - 1:
            hands_left = boundary - hands_dealt
    elif tournament.started_at is None:
        index = 0
    else:
        minutes = (timezone.now() - tournament.started_at).total_seconds() / 60
        index = structure.level_index(levels, minutes=minutes)
        if index < len(levels) - 1:
            boundary = sum(level["minutes"] for level in levels[: index + 1])
            next_at = tournament.started_at + timedelta(minutes=boundary)
    following = _blinds(levels[index + 1]) if index < len(levels) - 1 else None
    return LevelNow(index + 1, _blinds(levels[index]), following, hands_left, next_at)


def hands_dealt_at(table_id: int) -> int:
    """Hands dealt at the table before the one being played (or the next one)."""
    return Hand.objects.filter(table_id=table_id).exclude(status=Hand.Status.RUNNING).count()


def tournament_level(tournament: Tournament) -> LevelNow:
    """The tournament's level: by hands, at its table furthest on (tables run at their own
    pace); by minutes, by the clock."""
    if not tournament.by_hands:
        return level_now(tournament)
    most = (
        Table.objects.filter(tournament_table__tournament=tournament)
        .annotate(dealt=Count("hands", filter=~Q(hands__status=Hand.Status.RUNNING)))
        .order_by("-dealt")
        .values_list("dealt", flat=True)
        .first()
    )
    return level_now(tournament, hands_dealt=most or 0)


def table_seating_notice(table) -> str | None:
    """Why a tournament table's screens offer no seat controls (``tables.selectors.banners``):
    the message the services refuse them with (``services.play.table_rules``)."""
    return SEATED_BY_TOURNAMENT if lookup.tournament_table(table.pk) is not None else None


def table_banner(table) -> dict | None:
    """A tournament table's banner for its screens and play state (``tables.selectors.
    banners``): the tournament and its level; None for any other table (no query for a cash
    table after the first: ``lookup``)."""
    tt = lookup.tournament_table(table.pk)
    if tt is None:
        return None
    tournament = Tournament.objects.get(pk=tt.tournament_id)
    level = level_now(tournament, hands_dealt=hands_dealt_at(table.pk))
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "url": reverse("tournaments:detail", args=[tournament.pk]),
        "level": level.as_json(),
        "blinds": level.blinds.text,
        "next_blinds": level.next.text if level.next else None,
    }
