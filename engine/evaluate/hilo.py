"""Eight-or-better lows for the hi-lo games (Omaha hi-lo, stud hi-lo).

A low qualifies with five cards of different ranks, none above an eight, the ace lowest;
straights and flushes do not count against it. Its strength is the ace-to-five
:class:`~engine.evaluate.single.LowRank` of those five cards (higher is better, 8-7-6-5-4 the
worst qualifying low, 5-4-3-2-A the best), or ``None`` when no low qualifies.

How it is fast: each card is one bit of an eight-bit mask (ace bit 0 .. eight bit 7; nines
and up add nothing), and a 256-entry table maps a mask to the low its five lowest ranks make.

>>> from engine.cards import parse_cards
>>> str(evaluate_low8(parse_cards("As 2d 3c 8h 7s Kd Qc")))
'8-7-3-2-A low'
>>> evaluate_low8(parse_cards("As 2d 3c 8h 8s Kd Qc")) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from engine.errors import CardError
from engine.evaluate.single import LowRank, evaluate_low

__all__ = ["LOW8_BIT", "evaluate_low8", "evaluate_omaha_low8"]

#: Each card's bit in an eight-or-better mask: ace 1, two 2, ..., eight 128; nine and up 0.
LOW8_BIT = tuple((1 << (((c >> 2) + 1) % 13)) & 0xFF for c in range(52))


def _lowest_five(mask: int) -> list[int]:
    """The five lowest set bits of ``mask`` as cards (clubs): the low those ranks make."""
    ranks = [bit for bit in range(8) if mask >> bit & 1][:5]
    return [((r - 1) % 13) * 4 + (k % 2) for k, r in enumerate(ranks)]


#: Mask of distinct low ranks -> the qualifying low, or None with fewer than five ranks: made
#: on first use (``_low8_table``), as the ace-to-five tables it reads are: a process that
#: never ranks a low (most imports of the engine: a command, a client) does not build them.
_LOW8: tuple[LowRank | None, ...] = ()


def _low8_table() -> tuple[LowRank | None, ...]:
    global _LOW8
    if not _LOW8:  # two threads at once make the same table: either one is kept
        _LOW8 = tuple(
            evaluate_low(_lowest_five(mask)) if bin(mask).count("1") >= 5 else None
            for mask in range(256)
        )
    return _LOW8


def evaluate_low8(cards: Sequence[int]) -> LowRank | None:
    """The best eight-or-better low among any five of ``cards`` (5 to 7), or ``None``."""
    if not 5 <= len(cards) <= 7:
        raise CardError(f"evaluate_low8 needs 5, 6 or 7 cards, got {len(cards)}")
    mask = 0
    bits = LOW8_BIT
    try:
        for card in cards:
            mask |= bits[card]
    except (IndexError, TypeError):
        raise CardError(f"not cards: {cards!r}") from None
    try:
        return _LOW8[mask]
    except IndexError:  # the table's first use (a mask is 0..255): nothing to pay after it
        return _low8_table()[mask]


def evaluate_omaha_low8(hole: Sequence[int], board: Sequence[int]) -> LowRank | None:
    """The best Omaha eight-or-better low, exactly two hole cards with exactly three of the
    board, or ``None`` when no such five make a low."""
    if not 2 <= len(hole) <= 6 or not 3 <= len(board) <= 5:
        raise CardError(
            f"Omaha needs 2-6 hole cards and 3-5 board cards, got {len(hole)} and {len(board)}"
        )
    bits = LOW8_BIT
    try:
        # Only pairs and threes of different low ranks can be part of a low.
        pairs = {bits[a] | bits[b] for a, b in combinations(hole, 2) if bits[a] & ~bits[b]}
        threes = {
            bits[a] | bits[b] | bits[c]
            for a, b, c in combinations(board, 3)
            if bin(bits[a] | bits[b] | bits[c]).count("1") == 3
        }
    except (IndexError, TypeError):
        raise CardError(f"not cards: {hole!r} {board!r}") from None
    table = _LOW8 or _low8_table()
    best: LowRank | None = None
    for pair in pairs:
        if bin(pair).count("1") != 2:
            continue
        for three in threes:
            if pair & three:
                continue
            value = table[pair | three]
            if value is not None and (best is None or value > best):
                best = value
    return best
