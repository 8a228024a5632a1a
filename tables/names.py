"""Names are plain text: the one check of every name a person gives (players, guests, tables,
tournaments, clubs and their seasons and games), wherever it is taken (forms, the API, the
admin, the services), and the one key two names are the same by.

A name is printed by browsers, by the terminal client and by anyone's ``curl``: a control
character in it (an escape sequence that clears a screen or retitles a window, a tab or a
newline that fakes a row) or a format character (a bidi override that reverses what follows,
an invisible joiner) acts on the reader's screen instead of showing. A character that shows
nothing (Unicode's Default_Ignorable code points and the blank fillers, ``engine.text``: U+3164
HANGUL FILLER, U+2800 BRAILLE PATTERN BLANK) makes ``bob`` + filler a second ``bob``, or a
name that shows blank; marks stacked past ``engine.text.MAX_MARKS`` on one letter spill over
the lines around it. Such names are refused when given; names already stored are left as they
are and stay readable (the terminal client neutralises them on output).

``name_key`` is a name's skeleton for uniqueness: NFKC, case-folded, what shows nothing
removed, spaces collapsed. Two names with one key read the same.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from django.core.exceptions import ValidationError

from engine.text import MAX_MARKS, hides, is_mark, without_invisible

#: Unicode categories a name may not hold: controls (C0, DEL, C1: escapes, tabs, newlines),
#: format characters (bidi overrides U+202A-U+202E and isolates U+2066-U+2069, zero-width
#: joiners), line and paragraph separators (newlines to some readers) and lone surrogates.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})


def _label(char: str, fallback: str) -> str:
    return f"U+{ord(char):04X}, {unicodedata.name(char, '').lower() or fallback}"


def _invisible_problem(value: str, field: str) -> str | None:
    for at, char in enumerate(value):
        if unicodedata.category(char) in REFUSED_CATEGORIES:
            return (
                f"{field} holds an invisible control character ({_label(char, 'a control')}): "
                "use letters, digits, spaces and punctuation."
            )
        if hides(value, at):
            return (
                f"{field} holds an invisible character ({_label(char, 'showing nothing')}): "
                "use letters, digits, spaces and punctuation."
            )
    return None


def _shape_problem(value: str, field: str) -> str | None:
    run = 0
    for at, char in enumerate(unicodedata.normalize("NFC", value)):
        run = run + 1 if is_mark(char) else 0
        if run and at == 0:
            return f"{field} starts with a combining mark (U+{ord(char):04X})."
        if run > MAX_MARKS:
            return (
                f"{field} stacks combining marks (U+{ord(char):04X}): at most {MAX_MARKS} "
                "on one letter."
            )
    if not name_key(value):
        return f"{field} shows nothing: use letters, digits or punctuation."
    return None


def name_problem(value: str, field: str = "The name") -> str | None:
    """Why ``value`` cannot be a name, in words naming ``field`` (None when it can)."""
    return _invisible_problem(value, field) or (_shape_problem(value, field) if value else None)


def name_key(value: str) -> str:
    """The skeleton two names are the same by: NFKC, case-folded, without what shows nothing
    (``engine.text.is_invisible``), its spaces collapsed and trimmed."""
    folded = unicodedata.normalize("NFKC", without_invisible(value)).casefold()
    return " ".join(without_invisible(folded).split())


def same_name(value: str, existing: Iterable[str]) -> str | None:
    """The first of ``existing`` with the key of ``value`` (``name_key``), or None."""
    key = name_key(value)
    return next((other for other in existing if name_key(other) == key), None)


def validate_name(value: str) -> None:
    """Django validator (forms, serializers, model fields): ``ValidationError`` with code
    ``control_character`` when ``value`` holds a character ``name_problem`` refuses."""
    problem = name_problem(value)
    if problem is not None:
        raise ValidationError(problem, code="control_character")
