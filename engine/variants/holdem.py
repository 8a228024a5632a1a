"""Texas hold'em: two hole cards, five board cards, the best five of the seven."""

from __future__ import annotations

from collections.abc import Sequence

from engine.evaluate import HandRank, evaluate
from engine.variants.base import ALL_BETTINGS, Variant


def holdem_strength(hole: Sequence[int], board: Sequence[int]) -> HandRank:
    return evaluate([*hole, *board])


HOLDEM = Variant(
    name="holdem",
    label="Hold'em",
    short="HE",
    structure="board",
    hole_cards=2,
    max_seats=12,
    bettings=ALL_BETTINGS,
    forced_bets=frozenset({"blinds", "antes", "straddles", "bomb-pot"}),
    strength=holdem_strength,
    phh={"no-limit": "NT", "fixed-limit": "FT"},
    pkstate={
        "no-limit": "NoLimitHoldem",
        "pot-limit": "PotLimitHoldem",
        "fixed-limit": "LimitHoldem",
    },
)
