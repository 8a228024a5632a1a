"""Short-deck (six-plus) hold'em, as pokerkit's ``NoLimitShortDeckHoldem`` plays it: the 36
cards from sixes to aces, two hole cards and a board; antes and one blind, posted by the
button (heads-up by the other seat, as pokerkit reverses the blinds there), the seat left of
the button acting first; no limit. A flush beats a full house and A-6-7-8-9 is the lowest
straight (``engine.evaluate.shortdeck``). Ten seats (20 hole cards, 5 on the board, 3 burns)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.evaluate import ShortDeckRank, evaluate_short_deck
from engine.variants.base import SHORT_DECK, Variant


def short_deck_strength(hole: Sequence[int], board: Sequence[int]) -> ShortDeckRank:
    return evaluate_short_deck([*hole, *board])


SHORT_DECK_HOLDEM = Variant(
    name="short-deck",
    label="Short Deck Hold'em",
    short="6+",
    structure="board",
    hole_cards=2,
    max_seats=10,
    bettings=("no-limit",),
    forced_bets=frozenset({"antes", "button-blind"}),
    strength=short_deck_strength,
    deck=SHORT_DECK,
    phh={"no-limit": "NS"},
)
