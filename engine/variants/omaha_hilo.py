"""Omaha hi-lo: Omaha whose pots are split with the best eight-or-better low (two hole cards
and three board cards for each half)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.evaluate import LowRank, evaluate_omaha_low8
from engine.variants.base import Variant
from engine.variants.omaha import omaha_strength


def omaha_low8(hole: Sequence[int], board: Sequence[int]) -> LowRank | None:
    return evaluate_omaha_low8(hole, board)


OMAHA_HILO = Variant(
    name="omaha-hilo",
    label="Omaha Hi/Lo",
    short="O8",
    structure="board",
    hole_cards=4,
    max_seats=10,
    bettings=("pot-limit", "no-limit", "fixed-limit"),
    forced_bets=frozenset({"blinds", "antes", "straddles", "bomb-pot"}),
    strength=omaha_strength,
    low8=omaha_low8,
    hole_cards_used=2,
    phh={"fixed-limit": "FO/8", "pot-limit": "PO/8"},
)
