"""Who belongs to a club, and the rules it plugs into the core's and the tournaments' access:
a club's tables and tournaments are private, seen by its active members only."""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q

from tables.clubs.models import Club, ClubTable, ClubTournament, Membership
from tables.models import Player

ACTIVE = Membership.Status.ACTIVE
ADMIN_ROLES = (Membership.Role.OWNER, Membership.Role.ADMIN)


def membership_of(club: Club | int, player: Player | None) -> Membership | None:
    """``player``'s membership of ``club`` (any status), or None."""
    if player is None:
        return None
    pk = club.pk if isinstance(club, Club) else club
    return Membership.objects.filter(club_id=pk, player=player).first()


def is_member(club: Club | int, player: Player | None) -> bool:
    found = membership_of(club, player)
    return found is not None and found.status == ACTIVE


def is_admin(club: Club | int, player: Player | None) -> bool:
    found = membership_of(club, player)
    return found is not None and found.status == ACTIVE and found.role in ADMIN_ROLES


def _active(player: Player | None, club_field: str) -> Exists:
    # a logged-out visitor (None) is nobody's member: the filter matches no membership
    return Exists(
        Membership.objects.filter(club=OuterRef(club_field), player=player, status=ACTIVE)
    )


def member_tables(player: Player | None) -> Q:
    """The tables of the clubs ``player`` belongs to (``tables.selectors.access`` grant)."""
    links = ClubTable.objects.filter(table=OuterRef("pk")).filter(_active(player, "club"))
    return Q(Exists(links))


def club_tables_of_others(player: Player | None) -> Q:
    """The club tables ``player`` is no member of (``tables.selectors.access`` denial; a
    logged-out visitor is no member of any)."""
    links = ClubTable.objects.filter(table=OuterRef("pk"))
    return Q(Exists(links)) & ~member_tables(player)


def member_tournaments(player: Player) -> Q:
    links = ClubTournament.objects.filter(tournament=OuterRef("pk")).filter(_active(player, "club"))
    return Q(Exists(links))


def club_tournaments_of_others(player: Player) -> Q:
    links = ClubTournament.objects.filter(tournament=OuterRef("pk"))
    return Q(Exists(links)) & ~member_tournaments(player)
