"""Seven-card stud: two down cards and one up, three more up, the last down; antes and a
bring-in, fixed limit. Eight seats: 56 cards would be too many, hence the common card."""

from __future__ import annotations

from collections.abc import Sequence

from engine.evaluate import HandRank, evaluate
from engine.variants.base import ForcedBet, Variant

STUD_FORCED_BETS: frozenset[ForcedBet] = frozenset({"antes", "bring-in"})


def stud_strength(hole: Sequence[int], board: Sequence[int]) -> HandRank:
    return evaluate([*hole, *board])


STUD = Variant(
    name="stud",
    label="7 Card Stud",
    short="7S",
    structure="stud",
    hole_cards=7,
    max_seats=8,
    bettings=("fixed-limit",),
    forced_bets=STUD_FORCED_BETS,
    strength=stud_strength,
    phh={"fixed-limit": "F7S"},
)
