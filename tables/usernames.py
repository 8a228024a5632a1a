"""Usernames as people read them: one key per account for counting failed log-ins, and a
look-alike check for sign-up.

Django's forms normalise a username with NFKC before looking it up (``ｃａｒｏｌ`` logs in as
``carol``) and sign-up refuses a name that differs from an existing one only by case, so
``canonical`` (NFKC, trimmed, case-folded) is the key of every per-account counter: every
spelling that reaches one account shares its counter.

``lookalike`` finds an existing name that reads the same as a new one. Names are compared by a
skeleton in which each character stands for its whole class of look-alikes, built from
Unicode's confusables data (through confusable_homoglyphs): Cyrillic ``а`` and Latin ``a``;
``l``, ``1``, ``I`` and ``|``. Names are compared as typed (``AL1CE`` beside ``ALICE``) and
lower-cased, as names are taken whatever their case (Cyrillic ``АLICE`` beside ``alice``).
A look-alike of several characters (``rn`` for ``m``) is not caught. Characters that show
nothing (``engine.text``: U+3164 HANGUL FILLER...) are left out of a skeleton: new names may
not hold them (``tables.names``), and a name stored with one reads as the name without it. A
skeleton has as many characters as its name has visible ones, which lets the caller fetch only
the existing names of that length, and those holding such a character.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from functools import cache

from confusable_homoglyphs.confusables import (
    confusables_data,
)

from engine.text import BLANK_FILLERS, DEFAULT_IGNORABLE, without_invisible

MAX_LENGTH = 150  # Django's User.username


def canonical(username: str | None) -> str | None:
    """The counting key of a username as typed (``None`` when there is none)."""
    if not username:
        return None
    key = unicodedata.normalize("NFKC", str(username)).strip().casefold()
    return key[:MAX_LENGTH] or None


@cache
def _class_of() -> dict[str, str]:
    """Each confusable character -> the smallest character of its class (ASCII when the class
    has one): classes are the connected groups of the data's single-character pairs."""
    parent: dict[str, str] = {}

    def root(char: str) -> str:
        parent.setdefault(char, char)
        while parent[char] != char:
            parent[char] = parent[parent[char]]
            char = parent[char]
        return char

    for char, homoglyphs in confusables_data.items():
        if len(char) != 1:
            continue
        for homoglyph in homoglyphs:
            if len(homoglyph["c"]) == 1:
                a, b = root(char), root(homoglyph["c"])
                if a != b:
                    parent[max(a, b)] = min(a, b)
    return {char: root(char) for char in parent}


def _skeleton(name: str, case: Callable[[str], str] | None = None) -> str:
    classes = _class_of()
    out = []
    for char in name:
        if case is not None and len(case(char)) == 1:  # "İ".lower() is two: kept as it is
            char = case(char)
        out.append(classes.get(char, char))
    return "".join(out)


def skeletons(name: str) -> tuple[str, str]:
    """The name's skeletons as typed and lower-cased (each as long as the NFKC name without
    what shows nothing)."""
    name = without_invisible(unicodedata.normalize("NFKC", without_invisible(name)))
    return _skeleton(name), _skeleton(name, str.lower)


def invisible_pattern() -> str:
    """A regular expression class matching any character that shows nothing (for a database
    ``__regex`` lookup: the stored names that hold one)."""
    ranges = [f"{chr(first)}-{chr(last)}" for first, last in DEFAULT_IGNORABLE]
    return "[" + "".join(ranges) + "".join(sorted(BLANK_FILLERS)) + "]"


def lookalike(name: str, existing: Iterable[str]) -> str | None:
    """The first of ``existing`` that reads the same as ``name``, or ``None``."""
    mine = skeletons(name)
    for other in existing:
        if any(a == b for a, b in zip(mine, skeletons(other), strict=False)):
            return other
    return None
