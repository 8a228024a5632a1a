"""Numbers from outside: one strict parser for query parameters, form fields and socket frames.

``str.isdigit()`` accepts "²" and "٣", which ``int()`` then refuses (or reads as a number
nobody typed): every whole number that comes from a request goes through
``parse_whole_number`` instead, which takes ASCII digits only and checks a range, and whose
error names the field. Callers turn ``NumberError`` into their own answer (a 400, a socket
answer), so bad input changes nothing.
"""

from __future__ import annotations

#: Beyond any chip count, id or version the site uses, and exact in a JavaScript number.
LARGEST = 2**53 - 1
_DIGITS = frozenset("0123456789")


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
