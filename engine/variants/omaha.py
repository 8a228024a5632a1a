"""Omaha: four hole cards, five board cards, exactly two of the hole and three of the board.
(Ten seats: 40 hole cards and 5 board cards.)"""

from __future__ import annotations

from collections.abc import Sequence

from engine.evaluate import HandRank, evaluate_omaha
from engine.variants.base import Variant


def omaha_strength(hole: Sequence[int], board: Sequence[int]) -> HandRank:
    return evaluate_omaha(hole, board)


OMAHA = Variant(
    name="omaha",
    label="Omaha",
    short="O",
    structure="board",
    hole_cards=4,
    max_seats=10,
    bettings=("pot-limit", "no-limit", "fixed-limit"),
    forced_bets=frozenset({"blinds", "antes", "straddles", "bomb-pot"}),
    strength=omaha_strength,
    hole_cards_used=2,
    phh={"pot-limit": "PO"},
    pkstate={"no-limit": "NoLimitOmaha", "pot-limit": "PLO", "fixed-limit": "LimitOmaha"},
)
