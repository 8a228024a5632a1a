"""The evaluator's lookup tables, built here (read by ``single`` and ``batch``).

Everything is derived here, nothing is downloaded or pasted in (the high-hand tables at import,
in a fraction of a second; the low tables on first use):

* ``RANK_KEYS``: one key per rank such that the sum of the keys of any 5, 6 or 7 ranks (each
  rank at most four times) identifies that multiset of ranks. They are the smallest keys a
  greedy search finds (each new key is the least value that keeps all sums distinct for
  every hand size up to seven); the builder proves the property every time it runs (the
  length checks), so a wrong key fails loudly instead of mis-ranking hands.
* the 7,462 five-card equivalence classes in order (value 1 = 7-5-4-3-2 high, 7,462 = royal
  flush) with their class and description;
* ``NONFLUSH[n]``: rank-key sum -> best value for ``n`` = 5, 6, 7 cards without a flush;
* ``FLUSH``: 13-bit rank mask of the flush suit -> best flush or straight flush value;
* the same for ace-to-five low (``build_low``, on first use);
* ``KEYS``: each card's additive key, ``RANK_KEYS[rank] << SHIFT | 7 << 6 * suit``: summing
  the keys of the cards gives the rank multiset in the high bits and, in four 6-bit fields,
  seven times each suit's count; ``FLUSH_BITS`` marks a field with five or more cards.

The high tables hold plain ints (values 1..7,462); ``single`` swaps in its ``HandRank``
objects, ``batch`` copies them into NumPy arrays.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import combinations, combinations_with_replacement

from engine.cards import RANK_NAMES, RANK_PLURALS, RANKS

RANK_KEYS = (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181)

# Class numbers, kept in sync with engine.evaluate.single.HandClass.
(
    HIGH_CARD,
    PAIR,
    TWO_PAIR,
    THREE_OF_A_KIND,
    STRAIGHT,
    FLUSH_CLASS,
    FULL_HOUSE,
    FOUR_OF_A_KIND,
    STRAIGHT_FLUSH,
    ROYAL_FLUSH,
) = range(10)

_STRAIGHTS = [(top, frozenset(range(top - 4, top + 1))) for top in range(12, 3, -1)]
_STRAIGHTS.append((3, frozenset((12, 0, 1, 2, 3))))  # the wheel, five high


def _straight_top(ranks: frozenset[int]) -> int | None:
    """Highest straight's top rank among these ranks, or None."""
    for top, needed in _STRAIGHTS:
        if needed <= ranks:
            return top
    return None


def _describe(cls: int, groups: list[int]) -> str:
    """Text of a five-card class; ``groups`` are ranks by (count, rank) descending."""
    name, plural = RANK_NAMES, RANK_PLURALS
    if cls == ROYAL_FLUSH:
        return "Royal Flush"
    if cls == STRAIGHT_FLUSH:
        return f"Straight Flush, {name[groups[0]]} high"
    if cls == FOUR_OF_A_KIND:
        return f"Four of a Kind, {plural[groups[0]]}"
    if cls == FULL_HOUSE:
        return f"Full House, {plural[groups[0]]} over {plural[groups[1]]}"
    if cls == FLUSH_CLASS:
        return f"Flush, {name[groups[0]]} high"
    if cls == STRAIGHT:
        return f"Straight, {name[groups[0]]} high"
    if cls == THREE_OF_A_KIND:
        return f"Three of a Kind, {plural[groups[0]]}"
    if cls == TWO_PAIR:
        return f"Two Pair, {plural[groups[0]]} and {plural[groups[1]]}"
    if cls == PAIR:
        return f"Pair of {plural[groups[0]]}"
    return f"High Card, {name[groups[0]]}"


_FiveCardClass = tuple[tuple[int, tuple[int, ...]], int, str, tuple[int, ...], bool]


def _five_card_classes() -> list[_FiveCardClass]:
    """All 7,462 five-card classes, worst first: (sort key, class, description, ranks, flush)."""
    out: list[_FiveCardClass] = []
    for ranks in combinations_with_replacement(range(13), 5):
        counts = Counter(ranks)
        if max(counts.values()) > 4:
            continue
        groups = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
        shape = sorted(counts.values(), reverse=True)
        flush_options = (False, True) if len(counts) == 5 else (False,)
        for flush in flush_options:
            if len(counts) == 5:
                top = _straight_top(frozenset(ranks))
                if top is not None:
                    cls = (ROYAL_FLUSH if top == 12 else STRAIGHT_FLUSH) if flush else STRAIGHT
                    tiebreak = [top]
                    groups = [top]
                else:
                    cls = FLUSH_CLASS if flush else HIGH_CARD
                    tiebreak = groups
            else:
                cls = {
                    (4, 1): FOUR_OF_A_KIND,
                    (3, 2): FULL_HOUSE,
                    (3, 1, 1): THREE_OF_A_KIND,
                    (2, 2, 1): TWO_PAIR,
                    (2, 1, 1, 1): PAIR,
                }[tuple(shape)]
                tiebreak = groups
            # Royal flush sorts as the top straight flush.
            order = STRAIGHT_FLUSH if cls == ROYAL_FLUSH else cls
            out.append(((order, tuple(tiebreak)), cls, _describe(cls, groups), ranks, flush))
    out.sort(key=lambda item: item[0])
    return out


def _rank_multisets(size: int) -> list[tuple[int, ...]]:
    """Sorted rank tuples of ``size`` cards, no rank more than four times."""
    return [
        ranks
        for ranks in combinations_with_replacement(range(13), size)
        if not any(ranks[i] == ranks[i + 4] for i in range(size - 4))
    ]


def _key(ranks: Iterable[int]) -> int:
    return sum(map(RANK_KEYS.__getitem__, ranks))


def _extend(smaller: dict[int, int], size: int) -> dict[int, int]:
    """Best value of each ``size``-rank multiset: the best after dropping any one card.

    Also proves the rank keys: two multisets with the same key sum would collapse into one
    entry, and the length check below would fail.
    """
    table = {}
    keys = RANK_KEYS
    multisets = _rank_multisets(size)
    for ranks in multisets:
        key = _key(ranks)
        table[key] = max([smaller[key - keys[r]] for r in set(ranks)])
    if len(table) != len(multisets):
        raise AssertionError(f"rank keys collide for {size} cards")
    return table


def build_high(
    classes: list[_FiveCardClass] | None = None,
) -> tuple[list[int], list[str], dict[int, dict[int, int]], list[int]]:
    """Tables for high hands: values, classes, descriptions, NONFLUSH[5..7], FLUSH.
    ``classes``: ``_five_card_classes()``, when the caller has them already."""
    classes = classes if classes is not None else _five_card_classes()
    assert len(classes) == 7462
    hand_class = [HIGH_CARD]  # index 0 unused: values start at 1
    description = [""]
    nonflush5: dict[int, int] = {}
    flush = [0] * 8192
    for value, (_, cls, text, ranks, is_flush) in enumerate(classes, start=1):
        hand_class.append(cls)
        description.append(text)
        if is_flush:
            flush[sum(1 << r for r in ranks)] = value
        else:
            nonflush5[_key(ranks)] = value
    if len(nonflush5) != 6175:
        raise AssertionError("rank keys collide for 5 cards")
    for bits in (6, 7):
        for ranks in combinations(range(13), bits):
            mask = sum(1 << r for r in ranks)
            flush[mask] = max(flush[mask & ~(1 << r)] for r in ranks)
    nonflush6 = _extend(nonflush5, 6)
    nonflush7 = _extend(nonflush6, 7)
    return hand_class, description, {5: nonflush5, 6: nonflush6, 7: nonflush7}, flush


def build_low() -> tuple[list[str], dict[int, dict[int, int]]]:
    """Ace-to-five low: rank-key sum (ranks ace-low) -> value, higher is a better low.

    Straights and flushes do not count and the ace is the lowest card; among five cards the
    best low has no pair, then the lowest highest card, then the next, and so on. Values run
    from 1 (four kings and a queen) to 6,175 (5-4-3-2-A, the wheel). Ranks here are ace-low:
    0 = ace, 1 = two, ..., 12 = king.
    """
    labels = "A23456789TJQK"
    plural = ("Aces",) + RANK_PLURALS[:12]
    hands = []
    for ranks in _rank_multisets(5):
        counts = Counter(ranks)
        groups = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
        shape = tuple(sorted(counts.values(), reverse=True))
        # As a *high* hand (lower is a better low): pairing first, then ranks from the top.
        badness = (shape, tuple(groups))
        if shape == (1, 1, 1, 1, 1):
            text = "-".join(labels[r] for r in groups) + " low"
        else:
            kickers = [r for r in groups if counts[r] == 1]
            made = {
                (2, 1, 1, 1): "Pair of",
                (2, 2, 1): "Two Pair,",
                (3, 1, 1): "Three",
                (3, 2): "Full House,",
                (4, 1): "Four",
            }[shape]
            text = f"{made} {plural[groups[0]]}"
            if shape in ((2, 2, 1), (3, 2)):
                text += f" and {plural[groups[1]]}"
            if kickers:
                text += " (" + "-".join(labels[r] for r in kickers) + ")"
        hands.append((badness, ranks, text))
    hands.sort(key=lambda item: item[0], reverse=True)  # worst low first
    description = [""]
    low5 = {}
    for value, (_, ranks, text) in enumerate(hands, start=1):
        description.append(text)
        low5[_key(ranks)] = value
    low6 = _extend(low5, 6)
    low7 = _extend(low6, 7)
    return description, {5: low5, 6: low6, 7: low7}


# The high-hand tables, built once at import (a fraction of a second), and each value's
# ranks in the order they break ties (made ranks, then kickers, highest first), taken from
# the same classes: naming a kicker at a showdown (``kicker_over``) once rebuilt them all on
# first use, some 20 ms of the table's write thread; kept, about half a megabyte.
_CLASSES = _five_card_classes()
HAND_CLASS, DESCRIPTION, NONFLUSH, FLUSH = build_high(_CLASSES)
_TIEBREAKS: tuple[tuple[int, ...], ...] = ((), *(key[1] for key, *_ in _CLASSES))
del _CLASSES
MAX_RANK = 7462
# Per-card additive key: rank key in the high bits, 7 << (6 * suit) in the low 24 bits.
SHIFT = 24
FLUSH_BITS = sum(32 << (6 * suit) for suit in range(4))
KEYS = tuple((RANK_KEYS[c >> 2] << SHIFT) | (7 << (6 * (c & 3))) for c in range(52))
RANK_BIT = tuple(1 << (c >> 2) for c in range(52))

__all__ = [
    "DESCRIPTION",
    "FLUSH",
    "FLUSH_BITS",
    "HAND_CLASS",
    "KEYS",
    "MAX_RANK",
    "NONFLUSH",
    "RANK_BIT",
    "RANK_KEYS",
    "RANKS",
    "SHIFT",
    "build_high",
    "build_low",
]


def kicker_over(value: int, rival: int) -> str | None:
    """The rank by which high hand ``value`` beats ``rival``, a hand of the same description
    ("Pair of Kings" over "Pair of Kings"): "Ace", or None when they are not told apart by
    a kicker (another description, or no better)."""
    if not 1 <= rival < value <= len(_TIEBREAKS) - 1 or DESCRIPTION[value] != DESCRIPTION[rival]:
        return None
    for mine, theirs in zip(_TIEBREAKS[value], _TIEBREAKS[rival], strict=True):
        if mine != theirs:
            return RANK_NAMES[mine]
    return None
