"""Text at the site's edges: what comes in from outside, and how numbers read on pages.

In: one strict parser of numbers for query parameters, form fields and socket frames, and
the fields of an action (``act_fields``), which the socket's runtime and the play API both
parse. ``str.isdigit()`` accepts "²" and "٣", which ``int()`` then refuses (or reads as a
number nobody typed): every whole number that comes from a request goes through
``parse_whole_number`` instead, which takes ASCII digits only and checks a range, and whose
error names the field. Callers turn ``NumberError`` into their own answer (a 400, a socket
answer), so bad input changes nothing.

Out: a chip count as every page, partial, log line and template filter writes it
(``chips``), and an award's description without its boards' card codes. Both directions
live together, below the presenters, the selectors and the template tags that use them.
"""

from __future__ import annotations

import re
from typing import Any

from engine.errors import PokerError
from engine.types import ActionKind, discard_cards

#: Beyond any chip count, id or version the site uses, and exact in a JavaScript number.
LARGEST = 2**53 - 1
_DIGITS = frozenset("0123456789")


class BadFrame(ValueError):
    """A request that is not well formed (answered, nothing changes)."""

    code = "bad_request"


class NumberError(ValueError):
    """A number from outside that is malformed or out of range; the message names the field.

    ``problem`` is the message without the field's name ("must be a whole number."), for
    answers that already list problems by field.
    """

    def __init__(self, what: str, problem: str) -> None:
        super().__init__(f"{what} {problem}")
        self.what = what
        self.problem = problem


def parse_whole_number(
    value: object, *, what: str, minimum: int = 0, maximum: int = LARGEST
) -> int:
    """``value`` (an int, or text of ASCII digits with an optional leading ``-``, surrounding
    spaces allowed) as an int in ``minimum..maximum``; else ``NumberError`` naming ``what``.

    Booleans, floats, "1e3", "+5", "1_000", "١" and "²" are all refused.
    """
    if isinstance(value, bool):
        raise NumberError(what, "must be a whole number.")
    if isinstance(value, int):
        number = value
    elif isinstance(value, str):
        text = value.strip(" \t")
        digits = text[1:] if text.startswith("-") else text
        if not digits or not _DIGITS.issuperset(digits):
            raise NumberError(what, "must be a whole number.")
        if len(digits.lstrip("0")) > 16:  # past LARGEST: not worth int() reading it all
            number = -LARGEST - 1 if text.startswith("-") else LARGEST + 1
        else:
            number = int(text)
    else:
        raise NumberError(what, "must be a whole number.")
    if maximum < LARGEST and not minimum <= number <= maximum:
        raise NumberError(what, f"must be between {minimum} and {maximum}.")
    if number < minimum:
        raise NumberError(what, f"must be at least {minimum}.")
    if number > maximum:
        raise NumberError(what, f"must be at most {maximum}.")
    return number


def parse_optional_number(
    value: object, *, what: str, minimum: int = 0, maximum: int = LARGEST
) -> int | None:
    """``parse_whole_number``, with None or empty text meaning "not given" (None)."""
    if value is None or (isinstance(value, str) and not value.strip(" \t")):
        return None
    return parse_whole_number(value, what=what, minimum=minimum, maximum=maximum)


#: The decisions of ``act``: the engine's (``ActionKind``): the betting ones, the answers to
#: "run it twice?", and a draw game's discard (``cards``: the cards thrown away; none stands
#: pat).
ACTION_KINDS = tuple(str(kind) for kind in ActionKind)


def act_fields(data: dict[str, Any]) -> dict[str, Any]:
    """An ``act`` request's fields as ``hand_act`` takes them (``hand_id``, ``version``,
    ``action``); ``BadFrame`` or ``NumberError``, in the order the fields are checked."""
    kind = data.get("kind")
    if kind not in ACTION_KINDS:
        raise BadFrame("Unknown action.")
    amount = (
        parse_whole_number(data.get("amount"), what="The amount", minimum=1)
        if kind == "raise"
        else None
    )
    action: dict[str, Any] = {"kind": kind, "amount": amount}
    if kind == "discard":
        action["cards"] = discard_card_texts(data.get("cards", []))
    return {
        "hand_id": parse_whole_number(data.get("hand"), what="The hand", minimum=1),
        "version": parse_whole_number(data.get("version"), what="The version", minimum=0),
        "action": action,
    }


def discard_card_texts(value: object) -> list[str]:
    """A discard's cards: a list of card texts (``["7h", "2c"]``) or one text (``"7h2c"``)."""
    try:
        return [str(card) for card in discard_cards(value)]
    except PokerError as error:
        raise BadFrame(f"The cards to discard: {error}.") from None


def chips(amount: object) -> str:
    """A chip count with thousands separators (``10000`` -> ``10,000``); other values as given."""
    if isinstance(amount, int) and not isinstance(amount, bool):
        return f"{amount:,}"
    return "" if amount is None else str(amount)


_RUN_BOARD = re.compile(r"\b(first|second) run \([^)]*\):")


def without_board_codes(description: str) -> str:
    """A run-twice award's description without its board as card codes (the page draws the
    boards as cards): "first run (2h 7h 9h 3c 4d): flush" -> "first run: flush"."""
    return _RUN_BOARD.sub(r"\1 run:", description)
