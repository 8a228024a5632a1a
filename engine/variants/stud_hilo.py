"""Seven-card stud hi-lo: stud whose pots are split with the best eight-or-better low."""

from __future__ import annotations

from collections.abc import Sequence

from engine.evaluate import LowRank, evaluate_low8
from engine.variants.base import Variant
from engine.variants.stud import STUD_FORCED_BETS, stud_strength


def stud_low8(hole: Sequence[int], board: Sequence[int]) -> LowRank | None:
    return evaluate_low8([*hole, *board])


STUD_HILO = Variant(
    name="stud-hilo",
    label="7 Card Stud Hi/Lo",
    short="7S8",
    structure="stud",
    hole_cards=7,
    max_seats=8,
    bettings=("fixed-limit",),
    forced_bets=STUD_FORCED_BETS,
    strength=stud_strength,
    low8=stud_low8,
    phh={"fixed-limit": "F7S/8"},
)
