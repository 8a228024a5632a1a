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
from engine.variants.mixed import (
    EIGHT_GAME,
    HORSE,
    MixedGame,
    Pick,
    Stakes,
    dealers_choice,
    parse_pick,
    pick_text,
    stakes_for,
)
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

#: Every betting round's name of every game, in order (preflop..river, third..seventh, ...).
ALL_STREETS: tuple[str, ...] = tuple(
    dict.fromkeys(street for game in VARIANTS.values() for street in game.streets)
)
#: The game a table or tournament gets when none is named.
DEFAULT_GAME = HOLDEM.name
#: The mixed games, by name: a rotation of the games above, or dealer's choice.
MIXED_GAMES: dict[str, MixedGame] = {
    mixed.name: mixed for mixed in (HORSE, EIGHT_GAME, dealers_choice(VARIANTS))
}


def mixed_game(name: str) -> MixedGame | None:
    """The mixed game called ``name``; None for a single game (or an unknown name)."""
    return MIXED_GAMES.get(name)


def parse_game_pick(text: object) -> Pick:
    """The (game, betting) named ``"game/betting"``, checked against the registry."""
    return parse_pick(text, VARIANTS)


def variant(name: str) -> Variant:
    """The game called ``name``, or a ``PokerError`` naming the games there are."""
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        raise PokerError(f"unknown game {name!r} (one of {', '.join(VARIANTS)})") from None


__all__ = [
    "ALL_BETTINGS",
    "ALL_STREETS",
    "DEFAULT_GAME",
    "MIXED_GAMES",
    "BOARD_STREETS",
    "DRAW_STREETS",
    "FULL_DECK",
    "SHORT_DECK",
    "STUD_STREETS",
    "VARIANTS",
    "Evaluator",
    "ForcedBet",
    "LowEvaluator",
    "MixedGame",
    "Pick",
    "Stakes",
    "Structure",
    "Variant",
    "mixed_game",
    "parse_game_pick",
    "pick_text",
    "stakes_for",
    "variant",
]
