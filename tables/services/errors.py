"""One error hierarchy for the services: every error is a ``ValueError`` meaning one thing.

Views, consumers, admin actions and the API catch ``ServiceError`` and show ``str(error)``: the
messages are written for the player. A service that raises has changed nothing.
"""


class ServiceError(ValueError):
    """Base of every refusal by a service; the message says why, for the player."""


class TableNotOpen(ServiceError):
    """The table is paused or closed."""


class SeatTaken(ServiceError):
    """Somebody already sits in that seat."""


class NoSuchSeat(ServiceError):
    """The seat number is not on this table."""


class AlreadySeated(ServiceError):
    """The player already has a seat at this table."""


class NotSeated(ServiceError):
    """The player has no seat at this table."""


class TableFull(ServiceError):
    """Every seat is taken."""


class ReseatTooSoon(ServiceError):
    """The player left this table moments ago (``POKER_RESEAT_WAIT_SECONDS``): no seat churn."""


class BuyInOutOfRange(ServiceError):
    """A buy-in or top-up outside the table's limits."""


class InsufficientBankroll(ServiceError):
    """Not enough chips in the bankroll."""


class InvalidAmount(ServiceError):
    """A chip amount that is not a positive whole number, or a missing reason."""


class HandInProgress(ServiceError):
    """Refused while a hand is being played (allowed between hands)."""


class NotEnoughPlayers(ServiceError):
    """A hand needs two players with chips who are not sitting out."""


class HandNotRunning(ServiceError):
    """The hand is over, voided, or not at this table."""


class StaleAction(ServiceError):
    """The action was made on an older state of the table (or was already applied)."""


class NotYourTurn(ServiceError):
    """Somebody else is to act (or the player is not in this hand)."""


class IllegalMove(ServiceError):
    """The rules do not allow this action now; the message names the rule."""
