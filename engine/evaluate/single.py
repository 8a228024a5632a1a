"""Hand evaluation: the best poker hand of 5, 6 or 7 cards as one comparable integer.

``evaluate(cards)`` returns a :class:`HandRank`: an ``int`` from 1 (7-5-4-3-2 high) to 7,462
(royal flush), higher is better, equal is a tie. Each of the 7,462 values is one shared,
precomputed object that also knows its :class:`HandClass` and a description::

    >>> from engine import evaluate, parse_cards
    >>> rank = evaluate(parse_cards("Kh Kd Ks 2c 2d 9s 3h"))
    >>> rank.hand_class.name, rank.description
    ('FULL_HOUSE', 'Full House, Kings over Twos')
    >>> evaluate(parse_cards("As 2d 3c 4h 5s")).description
    'Straight, Five high'

How it is fast without compiled code: every card has an additive key ``rank_key << 24 | 7
<< 6 * suit``. Summing the keys of the cards gives, in the high bits, a number that
identifies the multiset of ranks (see ``engine.evaluate.tables``) and, in four 6-bit fields,
seven times the count of each suit; bit 5 of a field is set exactly when that suit has five
or more cards. Without a flush, one dict lookup on the rank part gives the answer; with a
flush (about 3% of seven-card hands) a 13-bit mask of the flush suit's ranks indexes a list.
No sorting, no allocation: the result is one of the precomputed ``HandRank`` objects.

The hot path trusts its input (distinct card ints 0..51, see ``engine.cards``); an
impossible hand (a rank five times, a number out of range, a wrong count) raises
``CardError``, but repeated cards of different ranks are not detected. Check untrusted
input with ``engine.cards.ensure_distinct`` or parse it with ``parse_cards``.

Also here: ``evaluate_omaha`` (exactly two hole cards and three board cards),
``evaluate_low`` (ace-to-five low for Razz; higher is better there too) and ``best_hands``
(which of several five-card hands, given as text, win).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from enum import IntEnum
from itertools import combinations
from typing import cast

from engine.cards import parse_cards
from engine.errors import CardError
from engine.evaluate import tables
from engine.evaluate.tables import (
    FLUSH_BITS as _FLUSH_BITS,
    KEYS as _KEYS,
    MAX_RANK,
    RANK_BIT as _RANK_BIT,
    SHIFT as _SHIFT,
)

__all__ = [
    "MAX_RANK",
    "HandClass",
    "HandRank",
    "LowRank",
    "best_hands",
    "evaluate",
    "evaluate_low",
    "evaluate_omaha",
    "hand_class_counts",
]


class HandClass(IntEnum):
    """Category of a poker hand, ordered from worst to best."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9

    @property
    def label(self) -> str:
        """``"Full House"``, ``"Royal Flush"`` ..."""
        return self.name.replace("_", " ").title().replace(" A ", " a ").replace(" Of ", " of ")


_CLASS_OF = tuple(HandClass(c) for c in tables.HAND_CLASS)
_DESCRIPTION = tuple(tables.DESCRIPTION)


class HandRank(int):
    """Strength of a high hand: 1 (7-5-4-3-2 high) .. 7,462 (royal flush); higher wins."""

    __slots__ = ()

    def __new__(cls, value: int) -> HandRank:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_RANK:
            raise ValueError(f"not a hand rank (1..{MAX_RANK}): {value!r}")
        return _RANKS[value]

    @property
    def hand_class(self) -> HandClass:
        return _CLASS_OF[self]

    @property
    def description(self) -> str:
        return _DESCRIPTION[self]

    def __repr__(self) -> str:
        return f"HandRank({int(self)})"

    def __str__(self) -> str:
        return _DESCRIPTION[self]

    def __format__(self, spec: str) -> str:
        return (
            format(_DESCRIPTION[self], spec)
            if not spec or spec[-1] == "s"
            else format(int(self), spec)
        )


# Index 0 is unused (values start at 1).
_RANKS = cast(
    "tuple[HandRank, ...]",
    (None, *(int.__new__(HandRank, v) for v in range(1, MAX_RANK + 1))),
)
# The lookup tables hold the shared HandRank objects themselves: no second lookup per call.
_NONFLUSH = {
    n: {key: _RANKS[v] for key, v in table.items()} for n, table in tables.NONFLUSH.items()
}
# None for a mask no flush has (fewer than five ranks): never looked up for distinct cards.
_FLUSH = cast("tuple[HandRank, ...]", tuple(_RANKS[v] if v else None for v in tables.FLUSH))


def _flush_value(cards: Iterable[int], key: int) -> HandRank:
    """Best value when ``key`` says one suit has five or more cards."""
    suit = 0
    while not key & (32 << (6 * suit)):
        suit += 1
    mask = 0
    for card in cards:
        if card & 3 == suit:
            mask |= _RANK_BIT[card]
    return _FLUSH[mask]


def _make_evaluate() -> Callable[[Sequence[int]], HandRank]:
    keys, flush_bits, flush_value = _KEYS, _FLUSH_BITS, _flush_value
    table5, table6, table7 = _NONFLUSH[5], _NONFLUSH[6], _NONFLUSH[7]

    def evaluate(cards: Sequence[int]) -> HandRank:
        """Best hand of 5, 6 or 7 distinct cards (ints 0..51); see the module docstring."""
        # Unpacked and summed in line for each size: a loop, or a failed unpacking caught,
        # would cost as much as the rest of the call.
        try:
            size = len(cards)
            if size == 7:
                a, b, c, d, e, f, g = cards
                key = keys[a] + keys[b] + keys[c] + keys[d] + keys[e] + keys[f] + keys[g]
                if key & flush_bits:
                    return flush_value(cards, key)
                return table7[key >> 24]
            if size == 5:
                a, b, c, d, e = cards
                key = keys[a] + keys[b] + keys[c] + keys[d] + keys[e]
                if key & flush_bits:
                    return flush_value(cards, key)
                return table5[key >> 24]
        except (KeyError, IndexError, TypeError):
            raise CardError(f"not distinct cards: {cards!r}") from None
        return _evaluate_6(cards)

    def _evaluate_6(cards: Sequence[int]) -> HandRank:
        try:
            a, b, c, d, e, f = cards
            key = keys[a] + keys[b] + keys[c] + keys[d] + keys[e] + keys[f]
            if key & flush_bits:
                return flush_value(cards, key)
            return table6[key >> 24]
        except (ValueError, KeyError, IndexError, TypeError):
            raise CardError(f"evaluate needs 5, 6 or 7 distinct cards, got {cards!r}") from None

    return evaluate


evaluate = _make_evaluate()
assert _SHIFT == 24  # the literal in the hot path above


def evaluate_omaha(hole: Sequence[int], board: Sequence[int]) -> HandRank:
    """Best Omaha hand: exactly two of the hole cards (4 for Omaha, up to 6 for its
    variants) with exactly three of the 3 to 5 board cards."""
    if not 2 <= len(hole) <= 6 or not 3 <= len(board) <= 5:
        raise CardError(
            f"Omaha needs 2-6 hole cards and 3-5 board cards, got {len(hole)} and {len(board)}"
        )
    try:
        keys, bit = _KEYS, _RANK_BIT
        pairs = [(keys[a] + keys[b], bit[a] | bit[b]) for a, b in combinations(hole, 2)]
        threes = [
            (keys[a] + keys[b] + keys[c], bit[a] | bit[b] | bit[c])
            for a, b, c in combinations(board, 3)
        ]
    except (IndexError, TypeError):
        raise CardError(f"not cards: {hole!r} {board!r}") from None
    table, flush, flush_bits = _NONFLUSH[5], _FLUSH, _FLUSH_BITS
    best = _RANKS[1]
    try:
        for pair_key, pair_mask in pairs:
            for three_key, three_mask in threes:
                key = pair_key + three_key
                value = flush[pair_mask | three_mask] if key & flush_bits else table[key >> 24]
                if value > best:
                    best = value
    except KeyError:
        raise CardError(f"not distinct cards: {hole!r} {board!r}") from None
    return best


# --- Ace-to-five low (Razz) -------------------------------------------------------------

_LOW_LABELS = "A23456789TJQK"
MAX_LOW = 6175


class LowRank(int):
    """Strength of an ace-to-five low: 1 (four kings and a queen) .. 6,175 (5-4-3-2-A).

    Higher is better, as for :class:`HandRank`, so ``max`` picks the winner either way.
    Straights and flushes do not count against a low and the ace is the lowest card.
    """

    __slots__ = ()

    def __new__(cls, value: int) -> LowRank:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_LOW:
            raise ValueError(f"not a low rank (1..{MAX_LOW}): {value!r}")
        return _low_tables()[0][value]

    @property
    def description(self) -> str:
        """``"7-5-4-3-A low"``, ``"Pair of Twos (7-5-4)"`` ..."""
        return _low_tables()[1][self]

    def __repr__(self) -> str:
        return f"LowRank({int(self)})"

    def __str__(self) -> str:
        return self.description


# (instances by value, descriptions by value, rank-key sum -> value per size, card keys)
_LowTables = tuple[tuple[LowRank, ...], tuple[str, ...], dict[int, dict[int, int]], tuple[int, ...]]
_LOW: _LowTables | None = None


def _low_tables() -> _LowTables:
    """Built on first use (Razz is rare): (instances, descriptions, tables, card keys)."""
    global _LOW
    if _LOW is None:
        descriptions, lows = tables.build_low()
        instances = cast(  # index 0 unused, as for _RANKS
            "tuple[LowRank, ...]",
            (None, *(int.__new__(LowRank, v) for v in range(1, MAX_LOW + 1))),
        )
        keys = tuple(tables.RANK_KEYS[((c >> 2) + 1) % 13] for c in range(52))
        _LOW = (instances, tuple(descriptions), lows, keys)
    return _LOW


def evaluate_low(cards: Sequence[int]) -> LowRank:
    """Best ace-to-five low of 5, 6 or 7 cards; higher is better (5-4-3-2-A is best)."""
    instances, _, lows, keys = _low_tables()
    try:
        return instances[lows[len(cards)][sum([keys[c] for c in cards])]]
    except (KeyError, IndexError, TypeError):
        raise CardError(f"evaluate_low needs 5, 6 or 7 distinct cards, got {cards!r}") from None


# --- The kata ---------------------------------------------------------------------------


def best_hands(hands: list[str]) -> list[str]:
    """The five-card hands (as text, e.g. ``"4S 5S 7H 8D JC"``) that tie for best.

    Returns them exactly as given, in input order. ``10`` and ``T`` are both tens. A hand
    that is not five distinct cards raises ``CardError`` naming it.
    """
    ranks = []
    for text in hands:
        try:
            cards = parse_cards(text)
        except CardError as error:
            raise CardError(f"bad hand {text!r}: {error}") from None
        if len(cards) != 5:
            raise CardError(f"bad hand {text!r}: a hand has 5 cards, not {len(cards)}")
        ranks.append(evaluate(cards))
    if not ranks:
        return []
    top = max(ranks)
    return [text for text, rank in zip(hands, ranks, strict=True) if rank == top]


def hand_class_counts(values: Iterable[int]) -> dict[HandClass, int]:
    """How many of ``values`` (hand ranks) fall in each class; handy for checks and demos."""
    counts = dict.fromkeys(HandClass, 0)
    for value in values:
        counts[_CLASS_OF[value]] += 1
    return counts
