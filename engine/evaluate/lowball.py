"""The draw games' lows: deuce-to-seven (2-7) and badugi, as pokerkit ranks them.

Deuce-to-seven: five cards, the ace always high, straights and flushes count against the
hand (A-5-4-3-2 is ace high, not a straight): the worst high hand wins, 7-5-4-3-2 of two or
more suits the best. Its strength is ``DeuceSevenRank``, 1 (a royal flush) .. 7,462
(7-5-4-3-2), from the high evaluator's value of the same five cards through one table.

Badugi: of four cards, the most of different ranks and different suits make the hand, the
ace lowest; more cards beat fewer, then the lower highest card, and so on down
(4-3-2-A of four suits is the best). ``BadugiRank``: 1 (a lone king) .. 1,092.

>>> from engine.cards import parse_cards
>>> str(evaluate_deuce_seven(parse_cards("7s 5d 4c 3h 2s")))
'7-5-4-3-2'
>>> ace_high, six_high = parse_cards("As 5d 4c 3h 2s"), parse_cards("6s 5d 4c 3h 2s")
>>> evaluate_deuce_seven(ace_high) > evaluate_deuce_seven(six_high)  # the six-high is a straight
True
>>> badugi, two_cards = parse_cards("Kc 8d 3h As"), parse_cards("2c 3c 4d 5d")
>>> str(evaluate_badugi(badugi)), str(evaluate_badugi(two_cards))
('4-card badugi K-8-3-A', '2-card badugi 4-2')
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement
from typing import cast

from engine.errors import CardError
from engine.evaluate.named import NamedRank, dashed
from engine.evaluate.single import MAX_RANK, HandClass, evaluate

__all__ = ["BadugiRank", "DeuceSevenRank", "evaluate_badugi", "evaluate_deuce_seven"]


class DeuceSevenRank(NamedRank):
    """Strength of a deuce-to-seven low: higher is better (7-5-4-3-2 is 7,462)."""

    __slots__ = ()


class BadugiRank(NamedRank):
    """Strength of a badugi hand: higher is better (4-3-2-A of four suits is 1,092)."""

    __slots__ = ()


_WHEEL = (12, 3, 2, 1, 0)  # A-5-4-3-2: ace high in 2-7, no straight


@cache
def _deuce_seven_table() -> tuple[DeuceSevenRank, ...]:
    """High value -> the 2-7 strength of the same five cards: the high order, except that
    the wheel (a straight or straight flush there) is an ace-high hand or flush here."""
    keyed: list[tuple[tuple[int, ...], int, str]] = []  # (2-7 badness key, high value, text)
    for ranks in combinations_with_replacement(range(12, -1, -1), 5):
        if max(ranks.count(r) for r in ranks) > 4:
            continue
        distinct = len(set(ranks)) == 5
        for suited in (False, True) if distinct else (False,):
            cards = [r * 4 + (0 if suited else k % 4) for k, r in enumerate(ranks)]
            high = evaluate(cards)
            high_class: int = high.hand_class
            text = high.description
            if ranks == _WHEEL:  # the high evaluator's wheel is no straight here
                high_class = HandClass.FLUSH if suited else HandClass.HIGH_CARD
                text = f"Flush, {dashed(ranks)}" if suited else dashed(ranks)
            elif high_class == HandClass.HIGH_CARD:
                text = dashed(ranks)
            shape = sorted(ranks, key=lambda r: (ranks.count(r), r), reverse=True)
            # Royal flushes are straight flushes here: one class, ordered by their ranks.
            category = min(high_class, HandClass.STRAIGHT_FLUSH)
            keyed.append(((category, *shape), high, text))
    keyed.sort(reverse=True)  # the worst low (the best high hand) first
    assert len(keyed) == MAX_RANK
    DeuceSevenRank.DESCRIPTIONS = ("", *(text for _, _, text in keyed))
    table: list[DeuceSevenRank | None] = [None] * (MAX_RANK + 1)
    for value, entry in enumerate(keyed, start=1):
        table[entry[1]] = int.__new__(DeuceSevenRank, value)
    return cast("tuple[DeuceSevenRank, ...]", tuple(table))


def evaluate_deuce_seven(cards: Sequence[int]) -> DeuceSevenRank:
    """The deuce-to-seven strength of exactly five cards."""
    if len(cards) != 5:
        raise CardError(f"a deuce-to-seven hand is five cards, got {len(cards)}")
    return _deuce_seven_table()[evaluate(cards)]


@cache
def _badugi_table() -> dict[int, BadugiRank]:
    """Ace-low rank mask (ace bit 0 .. king bit 12) -> the strength of those ranks."""
    hands = [
        ranks for size in range(1, 5) for ranks in combinations(range(13), size)
    ]  # ace-low ranks, ascending within a hand

    def goodness(ranks: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
        return len(ranks), tuple(-r for r in reversed(ranks))  # more cards, then lower

    hands.sort(key=goodness)
    names = []
    for ranks in hands:
        high_first = tuple((r - 1) % 13 for r in reversed(ranks))  # back to engine ranks
        names.append(f"{len(ranks)}-card badugi {dashed(high_first)}")
    BadugiRank.DESCRIPTIONS = ("", *names)
    return {
        sum(1 << r for r in ranks): int.__new__(BadugiRank, value)
        for value, ranks in enumerate(hands, start=1)
    }


_SUBSETS = tuple(subset for size in (4, 3, 2, 1) for subset in combinations(range(4), size))


def evaluate_badugi(cards: Sequence[int]) -> BadugiRank:
    """The badugi strength of exactly four cards: its best hand of different ranks and
    suits (more cards first, so the first size with a valid hand holds the best)."""
    if len(cards) != 4 or len(set(cards)) != 4:
        raise CardError(f"a badugi hand is four different cards, got {list(cards)!r}")
    try:
        bits = [1 << ((c >> 2) + 1) % 13 for c in cards]
        suits = [1 << (c & 3) for c in cards]
    except TypeError:
        raise CardError(f"not cards: {cards!r}") from None
    table = _badugi_table()
    best: BadugiRank | None = None
    size = 5
    for subset in _SUBSETS:
        if len(subset) < size and best is not None:
            break
        size = len(subset)
        rank_mask = suit_mask = 0
        for i in subset:
            if rank_mask & bits[i] or suit_mask & suits[i]:
                break
            rank_mask |= bits[i]
            suit_mask |= suits[i]
        else:
            value = table[rank_mask]
            if best is None or value > best:
                best = value
    assert best is not None  # any one card is a hand
    return best
