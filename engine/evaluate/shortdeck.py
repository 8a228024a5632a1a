"""Short-deck (six-plus) hold'em hands, as pokerkit's ``ShortDeckHoldemHand`` ranks them: the
36 cards from sixes to aces; a flush beats a full house; A-6-7-8-9 is the lowest straight.
The best five of the cards given (5 to 7), as ``ShortDeckRank``: 1 (J-9-8-7-6, the worst high
card) .. 1,404 (a royal flush); higher is better. Twenty-one five-card lookups for seven
cards: the five ranks' prime product keys one dict, a flush's another.

>>> from engine.cards import parse_cards
>>> str(evaluate_short_deck(parse_cards("As 6d 7c 8h 9s Kd Kc")))
'Straight, 9-8-7-6-A'
>>> flush = evaluate_short_deck(parse_cards("Ah Th 8h 7h 6h Kd Kc"))
>>> full = evaluate_short_deck(parse_cards("Ah Ad Ac Kh Ks 7d 6c"))
>>> flush > full, str(flush)
(True, 'Flush, A-T-8-7-6')
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import prod

from engine.errors import CardError
from engine.evaluate.named import NamedRank, dashed

__all__ = ["ShortDeckRank", "evaluate_short_deck"]

_LOWEST = 4  # the six: engine rank indexes 4 (six) .. 12 (ace)
_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)  # by engine rank index
# Worst to best, as pokerkit's ShortDeckHoldemLookup adds them.
_CATEGORIES = (
    "High Card",
    "Pair",
    "Two Pair",
    "Three of a Kind",
    "Straight",
    "Full House",
    "Flush",
    "Four of a Kind",
    "Straight Flush",
)
_SHAPES = {(1, 1, 1, 1, 1): 0, (2, 1, 1, 1): 1, (2, 2, 1): 2, (3, 1, 1): 3, (3, 2): 5, (4, 1): 7}


class ShortDeckRank(NamedRank):
    """Strength of a short-deck hold'em hand: higher is better."""

    __slots__ = ()


def _straight_top(ranks: tuple[int, ...]) -> int | None:
    """The top card's index of a five-rank straight (A-6-7-8-9 counts nine high), or None."""
    distinct = sorted(set(ranks))
    if len(distinct) != 5:
        return None
    if distinct[-1] - distinct[0] == 4:
        return distinct[-1]
    if distinct == [4, 5, 6, 7, 12]:  # the ace plays below the six
        return 7
    return None


@cache
def _tables() -> tuple[dict[int, ShortDeckRank], dict[int, ShortDeckRank]]:
    """Prime product of the five ranks -> strength, without and with a flush."""
    keyed: list[tuple[tuple[int, ...], int, bool, str]] = []
    for ranks in combinations_with_replacement(range(12, _LOWEST - 1, -1), 5):
        counts = tuple(sorted((ranks.count(r) for r in set(ranks)), reverse=True))
        if counts[0] > 4:
            continue
        product = 1
        for r in ranks:
            product *= _PRIMES[r]
        shape = sorted(ranks, key=lambda r: (ranks.count(r), r), reverse=True)
        top = _straight_top(ranks)
        for suited in (False, True) if counts[0] == 1 else (False,):
            if top is not None:
                category = 8 if suited else 4
                order: tuple[int, ...] = (top,)
                shown = (*range(top, top - 4, -1), top - 4 if top > 7 else 12)
            else:
                category = 6 if suited else _SHAPES[counts]
                order = tuple(shape)
                shown = tuple(shape)
            text = f"{_CATEGORIES[category]}, {dashed(shown)}"
            keyed.append(((category, *order), product, suited, text))
    keyed.sort()
    ShortDeckRank.DESCRIPTIONS = ("", *(text for *_, text in keyed))
    plain: dict[int, ShortDeckRank] = {}
    flush: dict[int, ShortDeckRank] = {}
    for value, (_, product, suited, _) in enumerate(keyed, start=1):
        (flush if suited else plain)[product] = int.__new__(ShortDeckRank, value)
    return plain, flush


_WORST = prod(_PRIMES[r] for r in (9, 7, 6, 5, 4))  # J-9-8-7-6, the worst hand: value 1
_COMBOS = {n: tuple(combinations(range(n), 5)) for n in (5, 6, 7)}


def evaluate_short_deck(cards: Sequence[int]) -> ShortDeckRank:
    """The best short-deck hand among any five of ``cards`` (5 to 7 cards, sixes and up)."""
    combos = _COMBOS.get(len(cards))
    if combos is None:
        raise CardError(f"evaluate_short_deck needs 5, 6 or 7 cards, got {len(cards)}")
    try:
        primes = [_PRIMES[c >> 2] for c in cards]
        suits = [c & 3 for c in cards]
        if min(c >> 2 for c in cards) < _LOWEST:
            raise CardError(f"the short deck has no card below a six: {list(cards)!r}")
    except (IndexError, TypeError):
        raise CardError(f"not cards: {cards!r}") from None
    plain, flush = _tables()
    best = plain[_WORST]
    for a, b, c, d, e in combos:
        product = primes[a] * primes[b] * primes[c] * primes[d] * primes[e]
        if suits[a] == suits[b] == suits[c] == suits[d] == suits[e]:
            value = flush[product]
        else:
            value = plain[product]
        if value > best:
            best = value
    return best
