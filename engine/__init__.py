"""Pure-Python poker engine: cards, shuffle, evaluation, the hand state machine, PHH, equity, bots.

Never imports Django: the site builds on it, not the other way round.
"""

from engine.cards import ALL_CARDS, Card, check_deck, format_cards, parse_cards
from engine.errors import CardError, DuplicateCardError, HandHistoryError, IllegalAction, PokerError

__all__ = [
    "ALL_CARDS", "Card", "CardError", "DuplicateCardError", "HandHistoryError", "IllegalAction",
    "PokerError", "check_deck", "format_cards", "parse_cards",
]
