"""Creating a tournament: every setting checked against what can be played, then the row
(and its bots' entries) made in one transaction."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import models, transaction

from engine.types import MAX_SEATS
from engine.variants import VARIANTS, variant
from tables.models import Player, Table
from tables.names import name_problem
from tables.tournaments import structure
from tables.tournaments.errors import TournamentInvalid
from tables.tournaments.models import Tournament
from tables.tournaments.services.bots import tournament_bot
from tables.tournaments.services.bounties import bounty_check
from tables.tournaments.services.satellites import satellite_target_check
from tables.tournaments.services.setup import TOURNAMENT_TIME_BANK, entry_add

Format, Start = Tournament.Format, Tournament.Start
#: Most seats at a tournament table (the issue's 2–10, within the engine's limit per game).
MOST_SEATS = 10


def _whole(value: object, field: str, *, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise TournamentInvalid(field, f"{field} must be a whole number, at least {low}.")
    if high is not None and value > high:
        raise TournamentInvalid(field, f"{field} must be at most {high}.")
    return value


def tournament_game_problem(game: str, betting: str) -> str:
    """Why ``game`` played ``betting`` cannot be a tournament's ("" when it can). Every game
    can: the levels' blinds become each game's stakes (``Table.level_stakes``); a mixed
    game's games bring their own bettings."""
    if game not in VARIANTS:
        return ""
    rules = variant(game)
    if betting not in rules.bettings:
        return f"{rules.label} is played {' or '.join(rules.bettings)}."
    return ""


def _choice(value: object, field: str, choices: type[models.TextChoices]) -> str:
    if not isinstance(value, str) or value not in choices.values:
        raise TournamentInvalid(field, f"{field} is one of: {', '.join(choices.values)}.")
    return value


def tournament_settings(
    *,
    organiser: Player | None,
    name: str,
    format: str = Format.SIT_AND_GO,
    game: str = Table.DEFAULT_GAME,
    betting: str = Table.Betting.NO_LIMIT,
    seats_per_table: int = 6,
    max_entrants: int | None = None,
    entry_fee: int = 0,
    bounty_kind: str = Tournament.Bounty.NONE,
    bounty: int = 0,
    satellite_target: Tournament | int | None = None,
    starting_stack: int = 1500,
    starting_big_blinds: int | None = None,
    structure_name: str = "regular",
    levels: list[Any] | None = None,
    hands: int | None = None,
    late_registration_levels: int = 0,
    rebuy_levels: int = 0,
    max_rebuys: int = 1,
    max_reentries: int = 0,
    addon_chips: int = 0,
    addon_price: int = 0,
    break_every_levels: int = 0,
    break_minutes: int = 0,
    start: str = Start.MANUAL,
    start_at: datetime | None = None,
    payouts: str = Tournament.Payouts.STANDARD,
    payout_percentages: list[Any] | None = None,
    action_seconds: int = 20,
    time_bank_refill_seconds: int = 0,
) -> dict[str, Any]:
    """A tournament's fields from its settings, each checked (``TournamentInvalid`` names
    the first that cannot be played): what ``tournament_create`` makes and ``edit`` changes.

    Freezeout unless asked: ``rebuy_levels`` (rebuys during the first levels, at most
    ``max_rebuys`` each; an add-on of ``addon_chips`` for ``addon_price`` at their end) and
    ``max_reentries`` (during late registration). Breaks (levels by minutes only):
    ``break_minutes`` after every ``break_every_levels`` levels. ``starting_big_blinds``:
    the starting stack in the first level's big blinds (instead of ``starting_stack``).
    ``satellite_target``: its prizes are seats in that tournament (``services.satellites``).
    """
    name = (name or "").strip() if isinstance(name, str) else ""
    if not name or len(name) > 60:
        raise TournamentInvalid("name", "Give the tournament a name (1 to 60 characters).")
    name_refused = name_problem(name, "The tournament's name")
    if name_refused:
        raise TournamentInvalid("name", name_refused)
    _choice(format, "format", Format)
    if not isinstance(game, str) or game not in Table.GAMES:
        raise TournamentInvalid("game", f"game is one of: {', '.join(Table.GAMES)}.")
    _choice(betting, "betting", Table.Betting)
    game_problem = tournament_game_problem(game, betting)
    if game_problem:
        raise TournamentInvalid("game", game_problem)
    most = min(MOST_SEATS, MAX_SEATS.get(game, MOST_SEATS))
    _whole(seats_per_table, "seats_per_table", low=2, high=most)
    if format == Format.MULTI_TABLE:
        if max_entrants is not None:
            _whole(max_entrants, "max_entrants", low=2, high=100_000)
    else:  # one table
        max_entrants = seats_per_table if max_entrants is None else max_entrants
        _whole(max_entrants, "max_entrants", low=2, high=seats_per_table)
    _whole(entry_fee, "entry_fee", low=0, high=10**12)
    bounty_check(bounty_kind, bounty, entry_fee)
    target = satellite_target_check(
        satellite_target, organiser=organiser, entry_fee=entry_fee, format=format
    )
    if format == Format.FIXED_HANDS:
        hands = _whole(hands, "hands", low=1, high=10_000)
    elif hands is not None:
        raise TournamentInvalid("hands", "Only a fixed-hands tournament has a number of hands.")
    if levels is None:
        levels = structure.named_levels(structure_name, fixed_hands=hands)
        if levels is None:
            raise TournamentInvalid(
                "structure", f"structure is one of: {', '.join(structure.PRESET_MINUTES)}."
            )
        structure_name = "doubling" if "hands" in levels[0] else structure_name
    else:
        problem = structure.levels_problem(levels)
        if problem:
            raise TournamentInvalid("levels", problem)
        levels = [{"ante": 0, **level} for level in levels]
        structure_name = "custom" if structure_name != "doubling" else structure_name
    if starting_big_blinds is not None:  # the stack chosen in first-level big blinds
        big_blinds = _whole(starting_big_blinds, "starting_big_blinds", low=1, high=10**6)
        starting_stack = big_blinds * levels[0]["big_blind"]
    _whole(starting_stack, "starting_stack", low=1, high=10**12)
    _whole(late_registration_levels, "late_registration_levels", low=0, high=len(levels))
    if late_registration_levels and format == Format.FIXED_HANDS:
        raise TournamentInvalid("late_registration_levels", "Bots fill a fixed-hands game.")
    _comebacks_check(
        format, levels, late_registration_levels, rebuy_levels, max_rebuys, max_reentries
    )
    _breaks_check(levels, break_every_levels, break_minutes)
    field, addon_refused = structure.addon_problem(rebuy_levels, addon_chips, addon_price)
    if addon_refused:
        raise TournamentInvalid(field, addon_refused)
    _choice(start, "start", Start)
    if start == Start.AT_TIME:
        if start_at is None:
            raise TournamentInvalid("start", "Give the start time.")
    elif start == Start.WHEN_FULL and max_entrants is None:
        raise TournamentInvalid("start", "Only a tournament with max_entrants starts when full.")
    _choice(payouts, "payouts", Tournament.Payouts)
    percentages = list(payout_percentages or [])
    if payouts == Tournament.Payouts.CUSTOM and (
        not percentages
        or any(isinstance(p, bool) or not isinstance(p, int) or p <= 0 for p in percentages)
        or sum(percentages) != 100
        or percentages != sorted(percentages, reverse=True)
    ):
        raise TournamentInvalid(
            "payouts",
            "Give whole percentages for places 1, 2, 3..., largest first, adding up to 100.",
        )
    _whole(action_seconds, "action_seconds", low=3, high=600)
    _whole(time_bank_refill_seconds, "time_bank_refill_seconds", low=0, high=TOURNAMENT_TIME_BANK)
    return {
        "name": name,
        "format": format,
        "game": game,
        "betting": betting,
        "seats_per_table": seats_per_table,
        "max_entrants": max_entrants,
        "entry_fee": entry_fee,
        "bounty_kind": bounty_kind,
        "bounty": bounty,
        "satellite_target": target,
        "seat_value": target.entry_fee if target is not None else 0,
        "starting_stack": starting_stack,
        "structure": structure_name,
        "levels": levels,
        "hands": hands,
        "late_registration_levels": late_registration_levels,
        "rebuy_levels": rebuy_levels,
        "max_rebuys": max_rebuys,
        "max_reentries": max_reentries,
        "addon_chips": addon_chips,
        "addon_price": addon_price,
        "break_every_levels": break_every_levels,
        "break_minutes": break_minutes if break_every_levels else 0,
        "start": start,
        "start_at": start_at if start == Start.AT_TIME else None,
        "payouts": payouts,
        "payout_percentages": percentages,
        "action_seconds": action_seconds,
        "time_bank_refill_seconds": time_bank_refill_seconds,
    }


def tournament_create(
    *, organiser: Player | None, bot_entrants: int = 0, **settings: Any
) -> Tournament:
    """Create a tournament from ``settings`` (``tournament_settings``: every one checked) and
    enter ``bot_entrants`` bots; ``TournamentInvalid`` names the first field that cannot be
    played, and nothing is created.
    """
    fields = tournament_settings(organiser=organiser, **settings)
    _whole(bot_entrants, "bot_entrants", low=0, high=fields["max_entrants"] or 10_000)
    with transaction.atomic():
        tournament = Tournament.objects.create(organiser=organiser, **fields)
        for _ in range(bot_entrants):
            entry_add(tournament=tournament, player=tournament_bot(tournament))
        return tournament


def _comebacks_check(
    format: str,
    levels: list[Any],
    late_registration_levels: int,
    rebuy_levels: int,
    max_rebuys: int,
    max_reentries: int,
) -> None:
    """Rebuys and re-entry: their settings can be played (``TournamentInvalid`` names one)."""
    _whole(rebuy_levels, "rebuy_levels", low=0, high=len(levels))
    _whole(max_rebuys, "max_rebuys", low=1, high=100)
    _whole(max_reentries, "max_reentries", low=0, high=100)
    if format == Format.FIXED_HANDS and (rebuy_levels or max_reentries):
        field = "rebuy_levels" if rebuy_levels else "max_reentries"
        raise TournamentInvalid(field, "A fixed-hands game has no rebuys or re-entries.")
    if max_reentries and not late_registration_levels:
        raise TournamentInvalid(
            "max_reentries", "Re-entry is during late registration: set late_registration_levels."
        )


def _breaks_check(levels: list[Any], break_every_levels: int, break_minutes: int) -> None:
    _whole(break_every_levels, "break_every_levels", low=0, high=len(levels))
    if not break_every_levels:
        return
    if "hands" in levels[0]:
        raise TournamentInvalid(
            "break_every_levels", "Breaks are for levels by minutes (these levels count hands)."
        )
    _whole(break_minutes, "break_minutes", low=1, high=120)
