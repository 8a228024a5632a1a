"""Deuce-to-seven lowball, as pokerkit plays it: five hole cards, the worst high hand wins
(the ace high, straights and flushes count against it: ``engine.evaluate.lowball``); blinds
(and antes if the table sets them), the seat left of the big blind acting first before the
draw, the seat left of the button after it.

* Triple draw (``FixedLimitDeuceToSevenLowballTripleDraw``): fixed limit, three draws; small
  bets before the first and after the first draw, big bets after the second and third.
* Single draw (``NoLimitDeuceToSevenLowballSingleDraw``): no limit, one draw.

Six seats: 30 hole cards of 52, so draws run the deck out and reshuffle the discards
(``engine.hand.drawing``)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.evaluate import DeuceSevenRank, evaluate_deuce_seven
from engine.variants.base import ForcedBet, Variant

DRAW_FORCED_BETS: frozenset[ForcedBet] = frozenset({"blinds", "antes"})


def keep_low_cards(hole: Sequence[int]) -> frozenset[int]:
    """Keep one card of each rank up to the eight (a made eight or better stands pat)."""
    kept: dict[int, int] = {}
    for card in sorted(hole):
        rank = card >> 2  # 0 is a deuce, 6 an eight, 12 an ace (high in 2-7)
        if rank <= 6 and rank not in kept:
            kept[rank] = card
    return frozenset(kept.values())


def deuce_seven_strength(hole: Sequence[int], board: Sequence[int]) -> DeuceSevenRank:
    return evaluate_deuce_seven([*hole, *board])


DEUCE_SEVEN_TRIPLE_DRAW = Variant(
    name="27-triple-draw",
    label="2-7 Triple Draw",
    short="27TD",
    structure="draw",
    hole_cards=5,
    max_seats=6,
    bettings=("fixed-limit",),
    forced_bets=DRAW_FORCED_BETS,
    strength=deuce_seven_strength,
    draws=3,
    keeps=keep_low_cards,
    phh={"fixed-limit": "F2L3D"},
)

DEUCE_SEVEN_SINGLE_DRAW = Variant(
    name="27-single-draw",
    label="2-7 Single Draw",
    short="27SD",
    structure="draw",
    hole_cards=5,
    max_seats=6,
    bettings=("no-limit",),
    forced_bets=DRAW_FORCED_BETS,
    strength=deuce_seven_strength,
    draws=1,
    keeps=keep_low_cards,
    phh={"no-limit": "N2L1D"},
)
