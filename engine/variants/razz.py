"""Razz: seven-card stud for the best ace-to-five low (straights and flushes do not count);
the highest up-card brings it in and the best low showing acts first."""

from __future__ import annotations

from collections.abc import Sequence

from engine.evaluate import LowRank, evaluate_low
from engine.variants.base import Variant
from engine.variants.stud import STUD_FORCED_BETS


def razz_strength(hole: Sequence[int], board: Sequence[int]) -> LowRank:
    return evaluate_low([*hole, *board])


RAZZ = Variant(
    name="razz",
    label="Razz",
    short="RZ",
    structure="stud",
    hole_cards=7,
    max_seats=8,
    bettings=("fixed-limit",),
    forced_bets=STUD_FORCED_BETS,
    strength=razz_strength,
    low_main=True,
    phh={"fixed-limit": "FR"},
)
