"""The tournaments' refusals: ``ServiceError`` subclasses with a stable ``code``."""

from __future__ import annotations

from tables.services.errors import ServiceError


class TournamentInvalid(ServiceError):
    """A setting that cannot be played; ``field`` names it (the API answers 400 with it)."""

    code = "invalid_tournament"

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


class NotOrganiser(ServiceError):
    """Only the organiser (or an admin) may do this."""

    code = "not_organiser"


class RegistrationClosed(ServiceError):
    """The tournament takes no more entries (started, finished or past late registration)."""

    code = "registration_closed"


class AlreadyRegistered(ServiceError):
    code = "already_registered"


class NotRegistered(ServiceError):
    code = "not_registered"


class TournamentFull(ServiceError):
    code = "tournament_full"


class TournamentNotRegistering(ServiceError):
    """Starting or unregistering once the tournament has started."""

    code = "tournament_started"


class TooFewEntrants(ServiceError):
    code = "too_few_entrants"


class RebuyRefused(ServiceError):
    """No rebuy now: rebuys are off or over, none left, too many chips, or during a hand."""

    code = "rebuy_refused"


class AddonRefused(ServiceError):
    """No add-on now: none offered, not its time, taken already, out, or during a hand."""

    code = "addon_refused"


class DealRefused(ServiceError):
    """No deal now, or not this answer: the message says why."""

    code = "deal_refused"
