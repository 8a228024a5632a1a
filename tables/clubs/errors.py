"""The clubs' refusals: ``ServiceError`` subclasses with a stable ``code`` (never changed)."""

from __future__ import annotations

from tables.services.errors import ServiceError


class ClubInvalid(ServiceError):
    """A club setting that cannot be kept; ``field`` names it."""

    code = "invalid_club"

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


class NoSuchClub(ServiceError):
    """No club by that id for this player (a non-member is told the same)."""

    code = "no_such_club"


class BadInviteCode(ServiceError):
    """The invitation code is wrong."""

    code = "bad_invite_code"


class InviteCodeRetired(ServiceError):
    """The invitation code was reset: the old one never works again."""

    code = "invite_code_retired"


class NotClubAdmin(ServiceError):
    """Only the club's owner or admins may do this."""

    code = "not_club_admin"


class OwnerStays(ServiceError):
    """The owner cannot be removed, demoted, or leave their own club."""

    code = "owner_stays"


class RemovedFromClub(ServiceError):
    """A removed member cannot join again."""

    code = "removed_from_club"


class NotAMember(ServiceError):
    """The player is not an active member of the club."""

    code = "not_a_member"


class ScheduleInPast(ServiceError):
    """A game cannot be scheduled for a time already past."""

    code = "schedule_in_past"


class SeasonOverlaps(ServiceError):
    """A club's seasons do not overlap."""

    code = "season_overlaps"


class PointsTableInvalid(ServiceError):
    """A fixed points table must be whole, positive points that never rise with the place."""

    code = "points_table_invalid"
