"""Editing a tournament before it starts: the organiser (or staff) changes any setting the
organise form holds, checked as at its creation (``create.tournament_settings``).

Once it has started its settings are the ones being played: an edit is refused and nothing
changes. The entries stay as they are: while anyone is in, the entry fee and the bounty each
paid stay, and the entrants fit the tournament (``max_entrants`` at or above them). A
tournament whose seats satellites give keeps its entry fee (a seat is worth that fee).

Lock: the tournament row.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from tables.http import Viewer
from tables.services.errors import ServiceError
from tables.tournaments import structure
from tables.tournaments.access import can_run_tournament
from tables.tournaments.errors import NotOrganiser, TournamentInvalid, TournamentNotRegistering
from tables.tournaments.models import Tournament
from tables.tournaments.services.create import tournament_settings
from tables.tournaments.services.setup import tournament_lock

Status, Start = Tournament.Status, Tournament.Start
#: What each entrant paid at registration: it stays while anyone is in.
PAID_AT_ENTRY = ("entry_fee", "bounty_kind", "bounty")
#: The settings a tournament holds under the names ``tournament_edit`` takes them by.
HELD = (
    "name",
    "format",
    "game",
    "betting",
    "seats_per_table",
    "max_entrants",
    "entry_fee",
    "bounty_kind",
    "bounty",
    "starting_stack",
    "hands",
    "late_registration_levels",
    "rebuy_levels",
    "max_rebuys",
    "max_reentries",
    "addon_chips",
    "addon_price",
    "break_every_levels",
    "break_minutes",
    "start",
    "start_at",
    "payouts",
    "payout_percentages",
    "action_seconds",
    "time_bank_refill_seconds",
    "private",
)


def tournament_edit(
    *, tournament: Tournament | int, by: Viewer, private: bool = False, **settings: Any
) -> Tournament:
    """Give the tournament ``settings`` (those of ``create.tournament_create`` but its bots:
    they are entries) and ``private``, before its start. ``NotOrganiser`` for anyone but the
    organiser or staff, ``TournamentNotRegistering`` once it started, ``TournamentInvalid``
    naming the field that cannot be; nothing changes on a refusal."""
    if not isinstance(private, bool):
        raise TournamentInvalid("private", "private is true or false.")
    with transaction.atomic():
        locked = tournament_lock(tournament)
        refusal = edit_refusal(locked, by)
        if refusal is not None:
            raise refusal
        fields = tournament_settings(organiser=locked.organiser, **settings)
        _entries_fit(locked, fields)
        target = fields["satellite_target"]
        if target is not None and target.pk == locked.pk:
            raise TournamentInvalid("satellite_target", "A tournament is not its own satellite.")
        if not private and target is not None and target.private:
            raise TournamentInvalid(
                "satellite_target", "A public satellite cannot lead to a private tournament."
            )
        for name, value in {**fields, "private": private}.items():
            setattr(locked, name, value)
        locked.save(update_fields=[*fields, "private"])
        return locked


def tournament_change(*, tournament: Tournament | int, by: Viewer, **changes: Any) -> Tournament:
    """Change only the settings in ``changes`` (the API's ``PATCH``): the others stay as the
    tournament holds them. Checked and refused exactly as ``tournament_edit``."""
    with transaction.atomic():
        locked = tournament_lock(tournament)
        refusal = edit_refusal(locked, by)  # before reading settings it may not change
        if refusal is not None:
            raise refusal
        settings = {**settings_held(locked, changes), **changes}
        return tournament_edit(tournament=locked, by=by, **settings)


def settings_held(tournament: Tournament, changes: dict[str, Any]) -> dict[str, Any]:
    """``tournament_edit``'s settings as ``tournament`` holds them. Its levels are a preset's
    name while they are that preset's (so changing the hands of a fixed-hands game, or the
    preset, deals the preset's levels), unless ``changes`` give levels or a preset. A one-table
    game taking as many entrants as it has seats goes on doing so as its seats change."""
    settings = {name: getattr(tournament, name) for name in HELD}
    settings["satellite_target"] = tournament.satellite_target_id
    settings["structure_name"] = tournament.structure
    preset = structure.named_levels(tournament.structure, fixed_hands=tournament.hands)
    if "structure_name" not in changes and preset != tournament.levels:
        settings["levels"] = tournament.levels
    one_table = settings["format"] != Tournament.Format.MULTI_TABLE
    if one_table and tournament.max_entrants == tournament.seats_per_table:
        settings["max_entrants"] = None  # "its seats", as organised: they follow the seats
    return settings


def edit_refusal(tournament: Tournament, by: Viewer) -> ServiceError | None:
    """Why ``by`` may not edit ``tournament`` now (None: they may): not its organiser or
    staff, or it has started. The edit page asks it before showing the form."""
    if not can_run_tournament(tournament, by):
        return NotOrganiser("Only the organiser can edit this tournament.")
    if tournament.status != Status.REGISTERING:
        return TournamentNotRegistering(
            f"{tournament.name} has started: its settings can no longer change."
        )
    return None


def _entries_fit(tournament: Tournament, fields: dict[str, Any]) -> None:
    """The tournament's entries (and the satellites into it) hold under ``fields``."""
    entries = tournament.entries.count()
    if entries:
        for name in PAID_AT_ENTRY:
            if fields[name] != getattr(tournament, name):
                raise TournamentInvalid(
                    name,
                    f"{entries} entrant(s) paid the entry fee and bounty as they are: they "
                    "stay while anyone is in.",
                )
    most = fields["max_entrants"]
    if most is not None and entries > most:
        raise TournamentInvalid(
            "max_entrants", f"{entries} players have entered: max_entrants is at least that."
        )
    if most is not None and fields["start"] == Start.WHEN_FULL and entries >= most:
        raise TournamentInvalid(
            "start", f"It is full already ({entries} entrants): start it, or take more entrants."
        )
    satellites = Tournament.objects.filter(satellite_target=tournament).exclude(
        status=Status.FINISHED
    )
    if fields["entry_fee"] != tournament.entry_fee and satellites.exists():
        raise TournamentInvalid(
            "entry_fee", "Satellites give seats in it at its entry fee: the fee stays."
        )
