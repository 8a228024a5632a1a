"""The level in play, the next one and how long until it: for a tournament's tables (their
screens and play state) and for its page.

Levels by hands count tournament-wide, at the table that has dealt the most (as
``services.play.before_hand`` deals them): the hands it finished, so the level shown while a
hand is played is the one it was dealt with. Levels by minutes run from the start, and stand
still during breaks (``selectors.tournament_clock``); during a break every screen says so.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, Q
from django.urls import reverse
from django.utils import timezone

from tables.models import Hand, Table
from tables.tournaments import selectors, structure
from tables.tournaments.models import Entry, Tournament
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
    at the last level (it stays). During a break (``on_break``) the level is the one play
    resumes at, ``break_minutes_left`` (rounded up) and ``break_ends_at`` say when."""

    number: int
    blinds: Blinds
    next: Blinds | None
    hands_left: int | None
    next_at: datetime | None
    on_break: bool = False
    break_minutes_left: int | None = None
    break_ends_at: datetime | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            **asdict(self.blinds),
            "next": asdict(self.next) if self.next is not None else None,
            "hands_left": self.hands_left,
            "next_at": _utc_text(self.next_at),
            "on_break": self.on_break,
            "break_minutes_left": self.break_minutes_left,
            "break_ends_at": _utc_text(self.break_ends_at),
        }


def _utc_text(moment: datetime | None) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment is not None else None


def _blinds(level: dict[str, Any]) -> Blinds:
    return Blinds(level["small_blind"], level["big_blind"], level.get("ante", 0))


def level_now(
    tournament: Tournament, *, hands_dealt: int = 0, now: datetime | None = None
) -> LevelNow:
    """The level after ``hands_dealt`` hands (levels by hands) or at ``now`` (levels by
    minutes, by ``selectors.tournament_clock``: breaks stop the levels' clock; the first level
    before the start)."""
    levels = tournament.levels
    last = len(levels) - 1
    hands_left = next_at = break_ends_at = break_left = None
    on_break = False
    if tournament.by_hands:
        index = structure.level_index(levels, hands=hands_dealt)
        boundary = sum(level["hands"] for level in levels[: index + 1])
        if index < last:
            hands_left = boundary - hands_dealt
    elif tournament.started_at is None:
        index = 0
    else:
        now = now or timezone.now()
        clock = selectors.tournament_clock(tournament, now)
        index, on_break = clock.level, clock.on_break
        if clock.minutes_left is not None:
            ends = now + timedelta(minutes=clock.minutes_left)
            if on_break:  # play resumes at ``index`` with all its minutes
                break_ends_at, break_left = ends, math.ceil(clock.minutes_left)
                if index < last:
                    next_at = ends + timedelta(minutes=levels[index]["minutes"])
            else:  # a break after this level puts the next one off by its length
                next_at = ends + timedelta(minutes=_break_after(tournament, index))
    following = _blinds(levels[index + 1]) if index < last else None
    return LevelNow(
        index + 1,
        _blinds(levels[index]),
        following,
        hands_left,
        next_at,
        on_break,
        break_left,
        break_ends_at,
    )


def _break_after(tournament: Tournament, index: int) -> int:
    """Minutes of the break that follows level ``index`` (0: none)."""
    every = tournament.break_every_levels
    if every and (index + 1) % every == 0 and index < len(tournament.levels) - 1:
        return tournament.break_minutes
    return 0


def tournament_level(tournament: Tournament) -> LevelNow:
    """The tournament's level, on its page and on every one of its tables: by hands, from the
    hands finished at its table furthest on (every table deals at that level); by minutes,
    by the clock."""
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


def table_seating_notice(table: Table) -> str | None:
    """Why a tournament table's screens offer no seat controls (``tables.selectors.banners``):
    the message the services refuse them with (``services.play.table_rules``)."""
    return SEATED_BY_TOURNAMENT if lookup.tournament_table(table.pk) is not None else None


def table_banner(table: Table) -> dict[str, Any] | None:
    """A tournament table's banner for its screens and play state (``tables.selectors.
    banners``): the tournament and its level; None for any other table (no query for a cash
    table after the first: ``lookup``)."""
    tt = lookup.tournament_table(table.pk)
    if tt is None:
        return None
    tournament = Tournament.objects.get(pk=tt.tournament_id)
    banner = tournament_banner(tournament)
    # Heads are public (the tournament's page lists them); the add-on's window is the
    # tournament's, each player's own right to it stays on the pages and the API.
    banner["bounties"] = (
        [
            {"player": name, "bounty": head}
            for name, head in Entry.objects.filter(
                tournament=tournament, player__seats__table=table
            )
            .order_by("player__seats__number")
            .values_list("player__user__username", "bounty")
        ]
        if tournament.bounty_kind != Tournament.Bounty.NONE
        else []
    )
    banner["addon"] = (
        {
            "chips": tournament.addon_chips,
            "price": tournament.addon_price,
            "open": selectors.addon_window_open(tournament),
        }
        if tournament.addon_chips
        else None
    )
    # a final-table deal pauses the tournament's clock: the tables say why nothing is dealt
    banner["deal_deciding"] = tournament.paused_at is not None
    return banner


def tournament_banner(tournament: Tournament) -> dict[str, Any]:
    """The tournament and its level as its tables show them (``table_banner``; the API's
    table list marks a tournament's tables with it)."""
    level = tournament_level(tournament)
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "url": reverse("tournaments:detail", args=[tournament.pk]),
        "level": level.as_json(),
        "blinds": level.blinds.text,
        "next_blinds": level.next.text if level.next else None,
    }
