"""Who may see a tournament and who may run it (the pages, the API and admin ask here).

A private tournament is seen only by its organiser, its entrants, the guests who opened its
invite link, and staff; for everyone else it does not exist (404, not 403), and neither do its
tables and their hands (``tables.selectors.access`` hides them by the same rule). A
tournament is run (started) by its organiser and by staff.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import Exists, OuterRef, Q, QuerySet

from tables.models import Player
from tables.tournaments.models import Entry, Tournament

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.contrib.auth.models import AnonymousUser


def player_of(user: AbstractBaseUser | AnonymousUser | None) -> Player | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return Player.objects.filter(user=user).first()


def tournaments_visible_to(
    user: AbstractBaseUser | AnonymousUser | None, tournaments: QuerySet[Any] | None = None
) -> QuerySet[Tournament]:
    """``tournaments`` (every one by default) without the private ones ``user`` may not see."""
    tournaments = Tournament.objects.all() if tournaments is None else tournaments
    if user is not None and getattr(user, "is_staff", False):
        return tournaments
    player = player_of(user)
    if player is None:
        return tournaments.filter(private=False)
    entered = Entry.objects.filter(tournament=OuterRef("pk"), player=player)
    invited = Tournament.guests.through.objects.filter(tournament=OuterRef("pk"), player=player)
    return tournaments.filter(
        Q(private=False) | Q(organiser=player) | Exists(entered) | Exists(invited)
    )


def can_see_tournament(
    tournament: Tournament, user: AbstractBaseUser | AnonymousUser | None
) -> bool:
    if not tournament.private:
        return True
    return tournaments_visible_to(user, Tournament.objects.filter(pk=tournament.pk)).exists()


def tournament_visible(pk: int, user: AbstractBaseUser | AnonymousUser | None) -> bool:
    """Whether a tournament with this id exists for ``user``."""
    return tournaments_visible_to(user, Tournament.objects.filter(pk=pk)).exists()


def can_run_tournament(
    tournament: Tournament, user: AbstractBaseUser | AnonymousUser | None
) -> bool:
    """The organiser or staff (who may start it)."""
    if user is not None and getattr(user, "is_staff", False):
        return True
    player = player_of(user)
    return player is not None and tournament.organiser_id == player.pk
