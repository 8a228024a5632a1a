"""Characters that show nothing, for every text a person gives and every screen that prints
one: the site's name check (``tables.names``) and the terminal client (``pokerclient.safe``).

Python's ``unicodedata`` lacks Unicode's Default_Ignorable_Code_Point property: its ranges are
written out below from DerivedCoreProperties.txt (the same since Unicode 7; reserved code
points in them included, as the property does). A renderer draws none of them, so ``bob`` and
``bob`` + U+3164 HANGUL FILLER look the same. ``BLANK_FILLERS`` are letters or symbols drawn as
a blank though Unicode does not call them ignorable. Combining marks stack on the character
before them: past ``MAX_MARKS`` in a row they only pile up (and break a terminal's columns).
"""

from __future__ import annotations

import bisect
import unicodedata

#: Default_Ignorable_Code_Point, as inclusive (first, last) code point ranges, in order.
DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),  # soft hyphen
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x061C, 0x061C),  # arabic letter mark
    (0x115F, 0x1160),  # hangul choseong and jungseong fillers
    (0x17B4, 0x17B5),  # khmer inherent vowels
    (0x180B, 0x180F),  # mongolian variation selectors and vowel separator
    (0x200B, 0x200F),  # zero-width space, joiners, directional marks
    (0x202A, 0x202E),  # bidi embeddings and overrides
    (0x2060, 0x206F),  # word joiner, invisible operators, bidi isolates
    (0x3164, 0x3164),  # hangul filler
    (0xFE00, 0xFE0F),  # variation selectors
    (0xFEFF, 0xFEFF),  # zero-width no-break space (byte order mark)
    (0xFFA0, 0xFFA0),  # halfwidth hangul filler
    (0xFFF0, 0xFFF8),  # reserved specials
    (0x1BCA0, 0x1BCA3),  # shorthand format controls
    (0x1D173, 0x1D17A),  # musical beam and phrase controls
    (0xE0000, 0xE0FFF),  # tags and variation selectors supplement
)
_FIRSTS = [first for first, _ in DEFAULT_IGNORABLE]

#: Drawn as blank, though neither ignorable nor a space: the braille pattern blank.
BLANK_FILLERS = frozenset("\u2800")

#: The most combining marks one character carries (Vietnamese and pointed Hebrew need 2-3).
MAX_MARKS = 3


def is_ignorable(char: str) -> bool:
    """Whether ``char`` (one character) is Default_Ignorable_Code_Point."""
    code = ord(char)
    at = bisect.bisect_right(_FIRSTS, code) - 1
    return at >= 0 and DEFAULT_IGNORABLE[at][0] <= code <= DEFAULT_IGNORABLE[at][1]


def is_invisible(char: str) -> bool:
    """Whether ``char`` shows nothing: ignorable or a blank filler."""
    return char in BLANK_FILLERS or is_ignorable(char)


#: Text and emoji presentation selectors: ignorable, yet a symbol's own (``♠`` + U+FE0F draws
#: the emoji), so kept after a symbol.
EMOJI_SELECTORS = frozenset("\ufe0e\ufe0f")


def hides(text: str, at: int) -> bool:
    """Whether ``text[at]`` shows nothing where it stands (``is_invisible``, but for an emoji
    selector right after a symbol)."""
    char = text[at]
    if char in EMOJI_SELECTORS and at > 0:
        return not unicodedata.category(text[at - 1]).startswith("S")
    return is_invisible(char)


def is_mark(char: str) -> bool:
    """Whether ``char`` is a combining mark drawn on the character before it (Mn, Me)."""
    return unicodedata.category(char) in ("Mn", "Me")


def without_invisible(text: str) -> str:
    """``text`` without the characters that show nothing (``is_invisible``)."""
    return "".join(char for char in text if not is_invisible(char))


def plain_text(text: str, *, keep_lines: bool = False) -> str:
    """Free text a person gives (a chat line, a club's description) as it is stored: each run of
    control characters and line separators one space (line ends kept as ``\\n`` when
    ``keep_lines``), format characters (bidi overrides, zero-width joiners) and what shows
    nothing removed, marks past ``MAX_MARKS`` on one letter dropped."""
    if keep_lines:
        text = text.replace("\r\n", "\n")
    out: list[str] = []
    marks = 0
    for at, char in enumerate(text):
        category = unicodedata.category(char)
        marks = marks + 1 if is_mark(char) else 0
        if keep_lines and char == "\n":
            out.append(char)
        elif category in ("Cc", "Zl", "Zp"):
            if not out or out[-1] != " ":
                out.append(" ")
        elif category != "Cf" and not hides(text, at) and marks <= MAX_MARKS:
            out.append(char)
    return "".join(out)
