"""The games, one module each, and the registry everything asks about them.

>>> from engine.variants import variant
>>> razz = variant("razz")
>>> razz.label, razz.structure, razz.low_main, razz.phh_code("fixed-limit")
('Razz', 'stud', True, 'FR')
>>> variant("omaha").pkstate_code("pot-limit"), variant("omaha-hilo").pkstate_code("pot-limit")
('PLO', None)
>>> variant("whist")  # doctest: +ELLIPSIS
Traceback (most recent call last):
engine.errors.PokerError: unknown game 'whist' (one of holdem, omaha, ...)

Adding a game: one module here that builds its ``Variant``, one line in ``VARIANTS`` below,
and its tests; see ``docs/reference/engine.md``.
"""

from __future__ import annotations

from engine.errors import PokerError
from engine.variants.badugi import BADUGI
from engine.variants.base import (
    ALL_BETTINGS,
    BOARD_STREETS,
    DRAW_STREETS,
    FULL_DECK,
    SHORT_DECK,
    STUD_STREETS,
    Evaluator,
    ForcedBet,
    LowEvaluator,
    Structure,
    Variant,
)
from engine.variants.deuce_seven import DEUCE_SEVEN_SINGLE_DRAW, DEUCE_SEVEN_TRIPLE_DRAW
from engine.variants.five_card_draw import FIVE_CARD_DRAW
from engine.variants.holdem import HOLDEM
from engine.variants.omaha import OMAHA
from engine.variants.omaha_hilo import OMAHA_HILO
from engine.variants.razz import RAZZ
from engine.variants.short_deck import SHORT_DECK_HOLDEM
from engine.variants.stud import STUD
from engine.variants.stud_hilo import STUD_HILO

#: Every game the engine deals, by its ``HandConfig.game`` name, in the order they are listed.
VARIANTS: dict[str, Variant] = {
    game.name: game
    for game in (
        HOLDEM,
        OMAHA,
        OMAHA_HILO,
        STUD,
        STUD_HILO,
        RAZZ,
        SHORT_DECK_HOLDEM,
        DEUCE_SEVEN_TRIPLE_DRAW,
        DEUCE_SEVEN_SINGLE_DRAW,
        BADUGI,
        FIVE_CARD_DRAW,
    )
}


def variant(name: str) -> Variant:
    """The game called ``name``, or a ``PokerError`` naming the games there are."""
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        raise PokerError(f"unknown game {name!r} (one of {', '.join(VARIANTS)})") from None


__all__ = [
    "ALL_BETTINGS",
    "BOARD_STREETS",
    "DRAW_STREETS",
    "FULL_DECK",
    "SHORT_DECK",
    "STUD_STREETS",
    "VARIANTS",
    "Evaluator",
    "ForcedBet",
    "LowEvaluator",
    "Structure",
    "Variant",
    "variant",
]
