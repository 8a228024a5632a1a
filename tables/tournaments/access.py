"""Who may see a tournament and who may run it (the pages, the API and admin ask here).

A private tournament is seen only by its organiser, its entrants, the guests who opened its
invite link, and staff; for everyone else it does not exist (404, not 403), and neither do its
tables and their hands (``tables.selectors.access`` hides them by the same rule). A
tournament is run (started) by its organiser and by staff.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db.models import Exists, OuterRef, Q, QuerySet

from tables.http import Viewer
from tables.models import Player
from tables.selectors.players import viewer_player
from tables.tournaments.models import Entry, Tournament

#: Features that let more players see some private tournaments (a club's members): ``f(player)
#: -> Q`` over ``Tournament``, OR-ed with the grants here.
visibility_grants: list[Callable[[Player], Q]] = []
#: Features that hide some tournaments from players let in otherwise (a club's from a
#: non-member): ``f(player) -> Q`` over ``Tournament``; an entrant still sees theirs.
visibility_denials: list[Callable[[Player], Q]] = []


def tournaments_visible_to(
    user: Viewer, tournaments: QuerySet[Tournament] | None = None
) -> QuerySet[Tournament]:
    """``tournaments`` (every one by default) without the private ones ``user`` may not see."""
    tournaments = Tournament.objects.all() if tournaments is None else tournaments
    if user is not None and getattr(user, "is_staff", False):
        return tournaments
    player = viewer_player(user)
    if player is None:
        return tournaments.filter(private=False)
    entered = Entry.objects.filter(tournament=OuterRef("pk"), player=player)
    invited = Tournament.guests.through.objects.filter(tournament=OuterRef("pk"), player=player)
    visible = Q(private=False) | Q(organiser=player) | Q(Exists(entered)) | Q(Exists(invited))
    for grant in visibility_grants:
        visible |= grant(player)
    tournaments = tournaments.filter(visible)
    for denial in visibility_denials:
        tournaments = tournaments.exclude(denial(player) & ~Exists(entered))
    return tournaments


def can_see_tournament(tournament: Tournament, user: Viewer) -> bool:
    if not tournament.private:
        return True
    return tournaments_visible_to(user, Tournament.objects.filter(pk=tournament.pk)).exists()


def tournament_visible(pk: int, user: Viewer) -> bool:
    """Whether a tournament with this id exists for ``user``."""
    return tournaments_visible_to(user, Tournament.objects.filter(pk=pk)).exists()


def can_run_tournament(tournament: Tournament, user: Viewer) -> bool:
    """The organiser or staff (who may start it)."""
    if user is not None and getattr(user, "is_staff", False):
        return True
    player = viewer_player(user)
    return player is not None and tournament.organiser_id == player.pk
