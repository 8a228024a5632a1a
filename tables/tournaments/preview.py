"""The organise page's preview of a structure: its levels (blinds, antes, lengths, breaks) as
a table, the starting stack in chips and big blinds, and the estimated duration for the
entrants expected (``structure.duration_estimate``). Read from the form's fields as typed
(query parameters), so a half-filled form still previews what it can.

*Custom* starts from the structure previewed last (``previewed``): with the custom field
empty, those levels are previewed, and the page's script (``static/js/tournament_structure.js``)
copies the preview's ``levels_text`` into the field as *Custom* is chosen, to edit there. It
does so at once, in the browser: an answer arriving late never overwrites what was typed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tables.tournaments import structure
from tables.tournaments.models import Tournament


@dataclass(frozen=True)
class PreviewRow:
    """A level (``number`` from 1) or, with ``number`` None, a break (``length`` only)."""

    number: int | None
    blinds: str
    ante: int
    length: str


@dataclass(frozen=True)
class StructurePreview:
    previewed: str  # the preset shown last: what *Custom* starts from
    rows: list[PreviewRow] = field(default_factory=list)
    estimate: structure.DurationEstimate | None = None
    entrants: int = 0
    starting_stack: int = 0
    big_blinds: int = 0  # the starting stack in first-level big blinds (rounded down)
    problem: str = ""  # why nothing can be previewed
    levels_text: str = ""  # the levels as the custom field reads them
    unit: str = "minutes"
    fixed_hands: int | None = None


def _number(data: Mapping[str, Any], key: str) -> int | None:
    text = str(data.get(key) or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 13 else None


def structure_preview(data: Mapping[str, Any]) -> StructurePreview:
    """The preview of the form's structure as ``data`` (its fields) has it."""
    chosen = str(data.get("structure") or "regular")
    previewed = str(data.get("previewed") or "")
    previewed = previewed if previewed in structure.PRESET_MINUTES else "regular"
    fixed = _number(data, "hands") if data.get("format") == Tournament.Format.FIXED_HANDS else None
    if chosen == "custom":
        text = str(data.get("levels") or "").strip()
        if text:
            levels, problem = structure.levels_from_text(text, str(data.get("level_unit")))
            if problem:
                return StructurePreview(previewed, problem=problem)
        else:  # start from the structure previewed before
            levels = structure.named_levels(previewed, fixed_hands=fixed) or []
    else:
        levels = structure.named_levels(chosen, fixed_hands=fixed) or []
        previewed = chosen if chosen in structure.PRESET_MINUTES else previewed
    if not levels:
        return StructurePreview(previewed, problem="Choose a structure.")
    by_minutes = "minutes" in levels[0]
    every = (_number(data, "break_every_levels") or 0) if by_minutes else 0
    pause = (_number(data, "break_minutes") or 0) if every else 0
    stack = _number(data, "starting_stack") or 1500
    big_blinds = _number(data, "starting_big_blinds")
    if big_blinds:
        stack = big_blinds * levels[0]["big_blind"]
    entrants = _number(data, "max_entrants") or _number(data, "seats_per_table") or 6
    return StructurePreview(
        previewed,
        rows=_rows(levels, every, pause),
        estimate=None
        if fixed
        else structure.duration_estimate(
            levels,
            entrants=entrants,
            starting_stack=stack,
            break_every=every,
            break_minutes=pause,
        ),
        entrants=entrants,
        starting_stack=stack,
        big_blinds=stack // levels[0]["big_blind"],
        levels_text=structure.levels_text(levels),
        unit="minutes" if by_minutes else "hands",
        fixed_hands=fixed,
    )


def tournament_estimate(tournament: Tournament, entrants: int) -> structure.DurationEstimate | None:
    """How long ``tournament`` is expected to last with its most entrants (else ``entrants``,
    two at least), as the organise page's preview says; None for a fixed-hands game."""
    if tournament.format == Tournament.Format.FIXED_HANDS:
        return None
    return structure.duration_estimate(
        tournament.levels,
        entrants=tournament.max_entrants or max(entrants, 2),
        starting_stack=tournament.starting_stack,
        break_every=tournament.break_every_levels,
        break_minutes=tournament.break_minutes,
    )


def _rows(levels: list[dict[str, Any]], every: int, pause: int) -> list[PreviewRow]:
    unit = "min" if "minutes" in levels[0] else "hands"
    rows = []
    for index, level in enumerate(levels):
        length = level["minutes"] if unit == "min" else level["hands"]
        blinds = f"{level['small_blind']:,}/{level['big_blind']:,}"
        rows.append(PreviewRow(index + 1, blinds, level.get("ante", 0), f"{length} {unit}"))
        if every and pause and (index + 1) % every == 0 and index < len(levels) - 1:
            rows.append(PreviewRow(None, "", 0, f"Break: {pause} min"))
    return rows
