"""``NamedRank``: a hand's strength as an ``int`` (higher is better, equal ties) that also
describes itself; the evaluators of the draw and short-deck games give subclasses of it, each
with its own table of descriptions."""

from __future__ import annotations

from typing import ClassVar


class NamedRank(int):
    """A strength from 1 (the worst hand) to the game's number of distinct hands."""

    __slots__ = ()
    #: Index 0 unused: the description of each value.
    DESCRIPTIONS: ClassVar[tuple[str, ...]] = ("",)

    @property
    def description(self) -> str:
        return type(self).DESCRIPTIONS[self]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({int(self)})"

    def __str__(self) -> str:
        return self.description


def dashed(ranks: tuple[int, ...]) -> str:
    """``(5, 3, 2, 1, 0)`` -> ``"7-5-4-3-2"`` (rank indexes as ``engine.cards.RANKS``)."""
    from engine.cards import RANKS

    return "-".join(RANKS[r] for r in ranks)
