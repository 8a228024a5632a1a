"""One error hierarchy for the services: every error is a ``ValueError`` meaning one thing.

Views, consumers, admin actions and the API catch ``ServiceError`` and show ``str(error)``: the
messages are written for the player. Each class has a stable ``code`` for programs (the API's
and the socket's answers carry it beside the message); a code never changes once published.
A service that raises has changed nothing.
"""


class ServiceError(ValueError):
    """Base of every refusal by a service; the message says why, for the player."""

    code = "refused"


class TableNotOpen(ServiceError):
    """The table is paused or closed."""

    code = "table_not_open"


class SeatTaken(ServiceError):
    """Somebody already sits in that seat."""

    code = "seat_taken"


class NoSuchSeat(ServiceError):
    """The seat number is not on this table."""

    code = "no_such_seat"


class AlreadySeated(ServiceError):
    """The player already has a seat at this table."""

    code = "already_seated"


class SeatingClosed(ServiceError):
    """The table seats its players itself (a tournament's): no sitting down, leaving or top-up."""

    code = "seating_closed"


class NotSeated(ServiceError):
    """The player has no seat at this table."""

    code = "not_seated"


class TableFull(ServiceError):
    """Every seat is taken."""

    code = "table_full"


class ReseatTooSoon(ServiceError):
    """The player left this table moments ago (``POKER_RESEAT_WAIT_SECONDS``): no seat churn."""

    code = "reseat_too_soon"


class InvalidChoice(ServiceError):
    """A seat choice that is not one of those offered, or not open to this player now."""

    code = "invalid_choice"


class RemovedByHost(ServiceError):
    """The host removed the player during their hand: only the host's call, not undone."""

    code = "removed_by_host"


class BuyInOutOfRange(ServiceError):
    """A buy-in or top-up outside the table's limits."""

    code = "buy_in_out_of_range"


class InsufficientBankroll(ServiceError):
    """Not enough chips in the bankroll."""

    code = "insufficient_bankroll"


class InvalidName(ServiceError):
    """A name holding a control or format character (``tables.names``)."""

    code = "invalid_name"


class InvalidAmount(ServiceError):
    """A chip amount that is not a positive whole number, or a missing reason."""

    code = "invalid_amount"


class HandInProgress(ServiceError):
    """Refused while a hand is being played (allowed between hands)."""

    code = "hand_in_progress"


class NotEnoughPlayers(ServiceError):
    """A hand needs two players with chips who are not sitting out."""

    code = "not_enough_players"


class HandNotRunning(ServiceError):
    """The hand is over, voided, or not at this table."""

    code = "hand_not_running"


class StaleAction(ServiceError):
    """The action was made on an older state of the table (or was already applied)."""

    code = "stale_version"


class NotYourTurn(ServiceError):
    """Somebody else is to act (or the player is not in this hand)."""

    code = "not_your_turn"


class IllegalMove(ServiceError):
    """The rules do not allow this action now; the message names the rule, and ``code`` is
    the engine's code for it (``engine.errors.IllegalAction``: ``below_min_raise``...)."""

    code = "illegal_action"

    def __init__(self, message: str, code: str | None = None):
        super().__init__(message)
        if code is not None:
            self.code = code


# --- table chat (tables.services.chat) ------------------------------------------------------


class ChatNotAllowed(ServiceError):
    """Only the players (and the host) may chat, and spectators when the host allows it."""

    code = "chat_not_allowed"


class ChatMuted(ServiceError):
    """The host muted this player's chat at this game."""

    code = "chat_muted"


class InvalidChatMessage(ServiceError):
    """A chat message that is empty or longer than the limit."""

    code = "invalid_chat_message"


class ChatTooFast(ServiceError):
    """Too many chat messages in a short time."""

    code = "chat_rate_limited"


class NotHost(ServiceError):
    """Only the game's host (or staff) may do this."""

    code = "not_host"


class InvalidSettings(ServiceError):
    """A game's settings that do not hold together; ``errors`` maps each field to its problem."""

    code = "invalid"

    def __init__(self, errors: dict[str, str]):
        self.errors = errors
        super().__init__(" ".join(f"{field}: {message}" for field, message in errors.items()))


class TooManyGames(ServiceError):
    """The player already hosts the most open games one may host at once."""

    code = "too_many_games"


class NoSuchInvite(ServiceError):
    """The invite link is wrong, was replaced, or its game is closed."""

    code = "no_such_invite"


class NoSuchRequest(ServiceError):
    """The seat request is not pending at this table (answered, expired or never made)."""

    code = "no_such_request"


class RequestPending(ServiceError):
    """The player already has a request waiting for the host's answer."""

    code = "request_pending"


class TableClosed(ServiceError):
    """The game is closed: read-only, its history kept."""

    code = "table_closed"


class NoChoiceNow(ServiceError):
    """Dealer's choice: nobody is picking the game now."""

    code = "no_choice_now"


class BadChoice(ServiceError):
    """Dealer's choice: a game that is not on the host's list (or not a game)."""

    code = "bad_choice"


class NotAGuest(ServiceError):
    """Only a guest account (made with a name alone) is kept by choosing a password."""

    code = "not_a_guest"


class InvalidPassword(ServiceError):
    """A password Django's validators refuse (too short, too common, like the name)."""

    code = "invalid_password"


# --- shared hands (tables.services.sharing) -------------------------------------------------


class CannotShare(ServiceError):
    """Only a finished hand you played or could watch can be shared."""

    code = "cannot_share"


class NoSuchShare(ServiceError):
    """No link of yours by that token (or it was revoked already)."""

    code = "no_such_share"


# --- notes on players -------------------------------------------------------------------------


class InvalidNote(ServiceError):
    """A note's text or label is not one a note may hold (too long, an unknown colour...)."""

    code = "invalid_note"


class NoSuchPlayer(ServiceError):
    """No player has that id (or name)."""

    code = "no_such_player"


class InvalidPreference(ServiceError):
    """A display setting that is not one of its choices (a deck, a felt colour)."""

    code = "invalid_preference"


class InvalidSubscription(ServiceError):
    """A browser's push subscription the site will not post to (a push service it does not
    know, keys that are not the browser's)."""

    code = "invalid_subscription"
