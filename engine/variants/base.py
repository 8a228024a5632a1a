"""``Variant``: everything the engine asks about one game, in one frozen value.

A game is one module of ``engine.variants`` that builds a ``Variant`` and registers it; the
hand machine, the history formats, the bots and the config ask the registry
(``engine.variants.variant``) instead of comparing game names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from engine.evaluate import HandRank, LowRank, NamedRank

#: How the cards reach the players: hole cards and a shared board, seven-card stud's down
#: and up cards over five streets, or hole cards improved by draws.
Structure = Literal["board", "stud", "draw"]
#: The forced bets a game may post.
ForcedBet = Literal["blinds", "antes", "bring-in", "button-blind", "straddles", "bomb-pot"]
#: A hand's strength from its hole cards and the board (the board is empty in stud; stud
#: passes all seven of a seat's cards as its hole). Higher is better, equal is a tie.
Evaluator = Callable[[Sequence[int], Sequence[int]], "Rank"]
#: A hand's strength as the evaluators give it: it compares as an int and describes itself.
Rank = HandRank | LowRank | NamedRank
#: The cards a plain player keeps at a draw (the bots' policy), of the hand it holds.
KeepPolicy = Callable[[Sequence[int]], frozenset[int]]
#: The eight-or-better low of a hand, or None when it has none.
LowEvaluator = Callable[[Sequence[int], Sequence[int]], LowRank | None]

#: The 52 cards, and the short deck's 36 (sixes to aces: ranks 4.. in ``engine.cards``).
FULL_DECK = frozenset(range(52))
SHORT_DECK = frozenset(range(16, 52))
BOARD_STREETS = ("preflop", "flop", "turn", "river")
STUD_STREETS = ("third", "fourth", "fifth", "sixth", "seventh")
#: The draw games' betting rounds: before the first draw, then after each draw.
DRAW_STREETS = ("predraw", "draw1", "draw2", "draw3")
ALL_BETTINGS = ("no-limit", "pot-limit", "fixed-limit")


@dataclass(frozen=True, slots=True)
class Variant:
    """One game's rules.

    ``strength`` ranks the hand that wins the pot (or its high half); ``low8`` ranks the
    eight-or-better half of a split-pot game (None: the pot is not split). ``low_main``: the
    pot goes to the best low (razz), which also turns the stud bring-in and first-to-act
    rules around. ``hole_cards_used``: how many hole cards a hand must use (Omaha: 2), None
    for any. ``draws``: the draw rounds of a draw game, ``keeps`` the cards a plain player
    keeps at each (what ``engine.bots`` stands pat with). ``deck``: the cards it is dealt
    from (a hand is given all 52 in a shuffled order and deals those of them in its deck, in
    that order). ``phh`` and ``pkstate`` map each
    betting the format knows to its code; a betting not there cannot be written in that
    format.
    """

    name: str
    label: str
    short: str
    structure: Structure
    hole_cards: int
    max_seats: int
    bettings: tuple[str, ...]
    forced_bets: frozenset[ForcedBet]
    strength: Evaluator
    low8: LowEvaluator | None = None
    low_main: bool = False
    hole_cards_used: int | None = None
    deck: frozenset[int] = FULL_DECK
    draws: int = 0
    keeps: KeepPolicy | None = None
    phh: Mapping[str, str] = field(default_factory=dict)
    pkstate: Mapping[str, str] = field(default_factory=dict)

    @property
    def is_stud(self) -> bool:
        return self.structure == "stud"

    @property
    def deck_size(self) -> int:
        return len(self.deck)

    @property
    def button_blind(self) -> bool:
        """One blind, the button's (short deck): heads-up the other seat posts it."""
        return "button-blind" in self.forced_bets

    @property
    def is_split(self) -> bool:
        """The pot is split between the best high and the best eight-or-better low."""
        return self.low8 is not None

    @property
    def is_draw(self) -> bool:
        """Hole cards improved by ``draws`` draw rounds, a betting round before and after each."""
        return self.structure == "draw"

    @property
    def family(self) -> str:
        """The family a game is listed under: Hold'em, Omaha, Stud or Draw."""
        if self.structure == "stud":
            return "Stud"
        if self.structure == "draw":
            return "Draw"
        return "Omaha" if self.hole_cards_used == 2 else "Hold'em"

    @property
    def forced(self) -> str:
        """What opens the pot, for the forms and stakes: ``"blinds"``, the ``"button-blind"``
        (one blind) or stud's ``"bring-in"``."""
        if "bring-in" in self.forced_bets:
            return "bring-in"
        return "button-blind" if self.button_blind else "blinds"

    @property
    def streets(self) -> tuple[str, ...]:
        if self.structure == "stud":
            return STUD_STREETS
        if self.structure == "draw":
            return DRAW_STREETS[: self.draws + 1]
        return BOARD_STREETS

    def phh_code(self, betting: str) -> str | None:
        return self.phh.get(betting)

    def pkstate_code(self, betting: str) -> str | None:
        return self.pkstate.get(betting)
