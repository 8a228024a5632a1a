"""Mixed games: a rotation of (game, betting) pairs dealt in turn, or dealer's choice.

HORSE and 8-game deal their games in a fixed order, each for a number of hands (the host
sets it; one orbit by default). Dealer's choice lets the player on the button pick the game
and betting for the orbit from the host's list. One table's stakes serve every game of the
rotation by the usual convention (``stakes_for``): fixed-limit games are played at the small
and big bet (blinds half the small bet and the small bet; stud: its ante and bring-in), big-bet
games (no-limit, pot-limit) at the blinds.

>>> [game for game, _ in HORSE.games]
['holdem', 'omaha-hilo', 'razz', 'stud', 'stud-hilo']
>>> stakes_for("stud", "fixed-limit", Stakes(1, 2, 4, 8, 1, 2))["bring_in"]
2
>>> stakes_for("holdem", "fixed-limit", Stakes(1, 2, 4, 8, 1, 2))["big_blind"]
4
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from engine.errors import PokerError
from engine.variants.base import Variant

#: One game of a rotation: its name in the registry and its betting.
Pick = tuple[str, str]


class Stakes(NamedTuple):
    """A mixed table's stakes: the blinds (big-bet games), the small and big bet (fixed-limit
    games), the ante and the bring-in (stud games)."""

    small_blind: int
    big_blind: int
    small_bet: int
    big_bet: int
    ante: int
    bring_in: int


@dataclass(frozen=True, slots=True)
class MixedGame:
    """A rotation of games. ``games``: the rotation's order (dealer's choice: every game the
    host may allow, the host's list narrows it). ``dealers_choice``: the player on the button
    picks the next orbit's game instead of the rotation moving on."""

    name: str
    label: str
    short: str
    games: tuple[Pick, ...]
    dealers_choice: bool = False

    def next_pick(self, current: Pick | None) -> Pick:
        """The game dealt after ``current`` (the first when none or not in the rotation)."""
        if current not in self.games:
            return self.games[0]
        return self.games[(self.games.index(current) + 1) % len(self.games)]


def pick_text(pick: Pick) -> str:
    """``"holdem/fixed-limit"``: how a pick is stored and sent."""
    return f"{pick[0]}/{pick[1]}"


def parse_pick(text: object, variants: dict[str, Variant]) -> Pick:
    """The pick named ``"game/betting"``; a ``PokerError`` for anything else."""
    if not isinstance(text, str) or text.count("/") != 1:
        raise PokerError(f"a game is named game/betting (like holdem/no-limit), got {text!r}")
    game, betting = text.split("/")
    if game not in variants:
        raise PokerError(f"unknown game {game!r} (one of {', '.join(variants)})")
    if betting not in variants[game].bettings:
        raise PokerError(f"{game} is played {' or '.join(variants[game].bettings)} only")
    return game, betting


def stakes_for(game: Variant | str, betting: str, stakes: Stakes) -> dict[str, Any]:
    """The ``HandConfig`` fields of ``game`` played ``betting`` at a mixed table's ``stakes``
    (the module's convention)."""
    from engine.variants import variant  # the registry imports this module

    rules = variant(game) if isinstance(game, str) else game
    fields: dict[str, Any] = {"game": rules.name, "betting": betting}
    if rules.forced == "bring-in":
        return fields | {
            "small_blind": 0,
            "big_blind": 0,
            "small_bet": stakes.small_bet,
            "big_bet": stakes.big_bet,
            "ante": stakes.ante,
            "bring_in": stakes.bring_in,
        }
    if betting == "fixed-limit":
        fields |= {
            "small_blind": max(stakes.small_bet // 2, 1),
            "big_blind": stakes.small_bet,
            "small_bet": stakes.small_bet,
            "big_bet": stakes.big_bet,
        }
    else:
        fields |= {"small_blind": stakes.small_blind, "big_blind": stakes.big_blind}
    if rules.button_blind:  # one blind, the button's, and everyone antes
        fields |= {"small_blind": 0, "ante": stakes.ante or max(stakes.big_blind // 2, 1)}
    return fields


HORSE = MixedGame(
    name="horse",
    label="HORSE",
    short="HORSE",
    games=(
        ("holdem", "fixed-limit"),
        ("omaha-hilo", "fixed-limit"),
        ("razz", "fixed-limit"),
        ("stud", "fixed-limit"),
        ("stud-hilo", "fixed-limit"),
    ),
)

EIGHT_GAME = MixedGame(
    name="8-game",
    label="8-Game",
    short="8G",
    games=(
        ("27-triple-draw", "fixed-limit"),
        ("holdem", "fixed-limit"),
        ("omaha-hilo", "fixed-limit"),
        ("razz", "fixed-limit"),
        ("stud", "fixed-limit"),
        ("stud-hilo", "fixed-limit"),
        ("holdem", "no-limit"),
        ("omaha", "pot-limit"),
    ),
)


def dealers_choice(variants: dict[str, Variant]) -> MixedGame:
    """Dealer's choice over every game and betting of the registry."""
    picks = tuple((name, betting) for name, game in variants.items() for betting in game.bettings)
    return MixedGame(
        name="dealers-choice", label="Dealer's Choice", short="DC", games=picks, dealers_choice=True
    )
