"""One error hierarchy for the engine: every error is a ``ValueError`` that means one thing."""


class PokerError(ValueError):
    """Base of every error the engine raises on bad input."""


class CardError(PokerError):
    """Text that is not a card, or cards that break a rule (duplicates, wrong count)."""


class DuplicateCardError(CardError):
    """The same card appears twice where every card must be distinct."""


class IllegalAction(PokerError):
    """An action the rules do not allow now; the message names the rule broken and ``code``
    names it for programs (stable: the play API's and the socket's refusals carry it):
    ``hand_over``, ``not_your_turn``, ``fold_when_free``, ``check_facing_bet``,
    ``nothing_to_call``, ``invalid_amount``, ``stack_covers_call``, ``nobody_to_raise``,
    ``betting_not_reopened``, ``raise_cap_reached``, ``above_stack``, ``above_max_raise``,
    ``below_min_raise``, ``bring_in_required``; ``illegal_action`` for any other."""

    def __init__(self, message: str, code: str = "illegal_action") -> None:
        super().__init__(message)
        self.code = code


class HandHistoryError(PokerError):
    """A hand history (PHH) that cannot be read or replayed; the message names the problem."""


class FormatCannotHold(HandHistoryError):
    """A hand a file format has no way to write (its game, or a rule the format has no field
    for); ``code`` names the format and what, for programs: ``no_phh_for_<game>_<betting>``
    (``no_phh_for_five-card-draw_no-limit``), ``no_yaml_for_stud_fixed-limit``,
    ``no_yaml_for_bomb-pot``."""

    def __init__(self, message: str, file_format: str, what: str) -> None:
        super().__init__(message)
        self.code = f"no_{file_format}_for_{what}"
