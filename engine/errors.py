"""One error hierarchy for the engine: every error is a ``ValueError`` that means one thing."""


class PokerError(ValueError):
    """Base of every error the engine raises on bad input."""


class CardError(PokerError):
    """Text that is not a card, or cards that break a rule (duplicates, wrong count)."""


class DuplicateCardError(CardError):
    """The same card appears twice where every card must be distinct."""


class IllegalAction(PokerError):
    """An action the rules do not allow now; the message names the rule broken."""


class HandHistoryError(PokerError):
    """A hand history (PHH) that cannot be read or replayed; the message names the problem."""
