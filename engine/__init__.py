"""Pure-Python poker engine: cards, shuffle, evaluation, the hand state machine, PHH, equity, bots.

Never imports Django: the site builds on it, not the other way round.
"""

from engine.cards import ALL_CARDS, Card, check_deck, format_cards, parse_cards
from engine.errors import CardError, DuplicateCardError, HandHistoryError, IllegalAction, PokerError
from engine.evaluate import (
    HandClass,
    HandRank,
    LowRank,
    best_hands,
    evaluate,
    evaluate_low,
    evaluate_omaha,
)

__all__ = [
    "ALL_CARDS",
    "Card",
    "CardError",
    "DuplicateCardError",
    "HandClass",
    "HandHistoryError",
    "HandRank",
    "IllegalAction",
    "LowRank",
    "PokerError",
    "best_hands",
    "check_deck",
    "evaluate",
    "evaluate_low",
    "evaluate_omaha",
    "format_cards",
    "parse_cards",
]
