"""Names are plain text: the one check of every name a person gives (tables, tournaments,
usernames), wherever it is taken (forms, the API, the admin, the services).

A name is printed by browsers, by the terminal client and by anyone's ``curl``: a control
character in it (an escape sequence that clears a screen or retitles a window, a tab or a
newline that fakes a row) or a format character (a bidi override that reverses what follows,
an invisible joiner) acts on the reader's screen instead of showing. Such names are refused
when given; names already stored are left as they are and stay readable (the terminal client
neutralises them on output).
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError

#: Unicode categories a name may not hold: controls (C0, DEL, C1: escapes, tabs, newlines),
#: format characters (bidi overrides U+202A-U+202E and isolates U+2066-U+2069, zero-width
#: joiners), line and paragraph separators (newlines to some readers) and lone surrogates.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})


def name_problem(value: str, field: str = "The name") -> str | None:
    """Why ``value`` cannot be a name, in words naming ``field`` (None when it can)."""
    for char in value:
        if unicodedata.category(char) in REFUSED_CATEGORIES:
            label = unicodedata.name(char, "").lower() or "a control character"
            return (
                f"{field} holds an invisible control character (U+{ord(char):04X}, {label}): "
                "use letters, digits, spaces and punctuation."
            )
    return None


def validate_name(value: str) -> None:
    """Django validator (forms, serializers, model fields): ``ValidationError`` with code
    ``control_character`` when ``value`` holds a character ``name_problem`` refuses."""
    problem = name_problem(value)
    if problem is not None:
        raise ValidationError(problem, code="control_character")
