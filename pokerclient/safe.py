"""What the server says, made safe to print on a terminal.

A name or a message from the server may hold control characters (an escape sequence clears
the screen or retitles the window, a newline or a tab fakes rows) or bidi overrides (they
reverse what follows). ``printable`` shows each such character as its escape (``\\x1b``,
``\\u202e``), visibly and harmlessly, and so each character that shows nothing and each
combining mark past the few a letter carries; every text the client prints from the server goes
through it, once, where it comes in (``rest.Api``, ``live.TableSocket``).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from engine.text import MAX_MARKS, hides, is_mark

#: Bidi marks, embeddings, overrides and isolates (Unicode's Bidi_Control characters).
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
#: Besides the controls (category Cc): line and paragraph separators end a line too.
UNSAFE_CATEGORIES = frozenset({"Cc", "Zl", "Zp"})


def _escape(char: str) -> str:
    code = ord(char)
    return (
        f"\\x{code:02x}"
        if code < 0x100
        else f"\\u{code:04x}"
        if code < 0x10000
        else f"\\U{code:08x}"
    )


def printable(text: str) -> str:
    """``text`` with every control, line-breaking or bidi control character, every character
    that shows nothing (``engine.text``: zero-width, fillers) and every combining mark past
    ``MAX_MARKS`` on one letter (they pile over the rows around) as its escape."""
    if text.isprintable() and text.isascii():
        return text  # the usual case, at no cost
    out, marks = [], 0
    for at, char in enumerate(text):
        marks = marks + 1 if is_mark(char) else 0
        unsafe = char in BIDI_CONTROLS or unicodedata.category(char) in UNSAFE_CATEGORIES
        out.append(_escape(char) if unsafe or hides(text, at) or marks > MAX_MARKS else char)
    return "".join(out)


def printable_data(value: Any) -> Any:
    """A JSON value with every string in it (keys too) made ``printable``."""
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, list):
        return [printable_data(item) for item in value]
    if isinstance(value, dict):
        return {printable(key): printable_data(item) for key, item in value.items()}
    return value


def printable_lines(text: str) -> str:
    """A multi-line text (a PHH file) with its line breaks kept and each line ``printable``."""
    return "\n".join(printable(line) for line in text.split("\n"))
