"""Badugi, as pokerkit's ``FixedLimitBadugi`` plays it: four hole cards, three draws, fixed
limit (small bets before the first and after the first draw, big bets after the second and
third); the most cards of different ranks and suits win, the ace low
(``engine.evaluate.lowball``). Eight seats (32 hole cards: the draws reshuffle the
discards when the deck runs out)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.evaluate import BadugiRank, evaluate_badugi
from engine.variants.base import Variant
from engine.variants.deuce_seven import DRAW_FORCED_BETS


def keep_badugi(hole: Sequence[int]) -> frozenset[int]:
    """Keep the lowest cards of different ranks and suits (the ace low), up to the nine."""
    kept: list[int] = []
    for card in sorted(hole, key=lambda c: ((c >> 2) + 1) % 13):
        rank, suit = ((card >> 2) + 1) % 13, card & 3
        if rank <= 8 and all(((k >> 2) + 1) % 13 != rank and k & 3 != suit for k in kept):
            kept.append(card)
    return frozenset(kept)


def badugi_strength(hole: Sequence[int], board: Sequence[int]) -> BadugiRank:
    return evaluate_badugi([*hole, *board])


BADUGI = Variant(
    name="badugi",
    label="Badugi",
    short="BD",
    structure="draw",
    hole_cards=4,
    max_seats=8,
    bettings=("fixed-limit",),
    forced_bets=DRAW_FORCED_BETS,
    strength=badugi_strength,
    draws=3,
    keeps=keep_badugi,
    phh={"fixed-limit": "FB"},
)
