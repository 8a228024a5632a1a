"""The site's side of a tournament: organising one (public or private, with its invite link),
opening the invite link, and cancelling one that has not started.

Locks: the tournament row (``setup.tournament_lock``), then player rows for the ledger.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from tables.http import Viewer
from tables.models import Player
from tables.services.errors import NoSuchInvite
from tables.services.hosting import new_invite_token
from tables.tournaments.access import can_run_tournament
from tables.tournaments.errors import NotOrganiser, TournamentInvalid, TournamentNotRegistering
from tables.tournaments.models import Tournament
from tables.tournaments.services import create, setup

NO_SUCH_INVITE = "That invite link does not work (it may have been replaced)."


def tournament_organise(
    *, organiser: Player | None, private: bool = False, **settings: Any
) -> Tournament:
    """Create a tournament (``create.tournament_create`` checks ``settings``; nothing is made
    when one is wrong) with its invite link; ``private`` hides it from all but its organiser,
    entrants, guests and staff. Lock: none (a new row)."""
    if not isinstance(private, bool):
        raise TournamentInvalid("private", "private is true or false.")
    with transaction.atomic():
        tournament = create.tournament_create(organiser=organiser, **settings)
        target = tournament.satellite_target  # one the organiser may see (checked)
        if not private and target is not None and target.private:  # rolled back
            raise TournamentInvalid(
                "satellite_target", "A public satellite cannot lead to a private tournament."
            )
        tournament.private = private
        tournament.invite_token = new_invite_token()
        tournament.save(update_fields=["private", "invite_token"])
        return tournament


def tournament_invite_join(*, token: str, player: Player) -> Tournament:
    """``player`` opened the invite link ``token``: they may see the tournament (and register
    while it takes entries). Lock: the tournament row."""
    if not isinstance(token, str) or not token:
        raise NoSuchInvite(NO_SUCH_INVITE)
    found = Tournament.objects.filter(invite_token=token).values_list("pk", flat=True).first()
    if found is None:
        raise NoSuchInvite(NO_SUCH_INVITE)
    with transaction.atomic():
        tournament = setup.tournament_lock(found)
        if tournament.invite_token != token:
            raise NoSuchInvite(NO_SUCH_INVITE)
        tournament.guests.add(player)
        return tournament


def tournament_invite_replace(*, tournament: Tournament, by: Viewer) -> Tournament:
    """A new invite link (the organiser or staff); the old one stops working at once."""
    with transaction.atomic():
        tournament = setup.tournament_lock(tournament)
        if not can_run_tournament(tournament, by):
            raise NotOrganiser("Only the organiser can replace the invite link.")
        tournament.invite_token = new_invite_token()
        tournament.save(update_fields=["invite_token"])
        return tournament


def tournament_cancel(*, tournament: Tournament, by: Viewer) -> Tournament:
    """Cancel a tournament before its start (the organiser or staff): every entry fee goes
    back through the ledger and it is finished with no entrants. A running tournament plays
    to its end (its chips are on its tables). Lock: the tournament row, then player rows."""
    with transaction.atomic():
        tournament = setup.tournament_lock(tournament)
        if not can_run_tournament(tournament, by):
            raise NotOrganiser("Only the organiser can cancel this tournament.")
        if tournament.status != Tournament.Status.REGISTERING:
            raise TournamentNotRegistering(
                f"{tournament.name} has started: it plays to its end and cannot be cancelled."
            )
        setup._cancel(tournament)  # the same refunds as a set-time start without entrants
        tournament.refresh_from_db()
        return tournament
