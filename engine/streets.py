"""A hand's streets as the site names and counts them: statistics, the hand log, hand
histories and the replayer read them from here. Pure (no Django)."""

from __future__ import annotations

from typing import Any

from engine.config import HandConfig
from engine.hand import Hand as EngineHand
from engine.types import DECISIONS, Event, EventKind

#: Stud's streets as players name them (the engine's ``STUD_STREETS``).
STUD_STREET_NAMES = {
    "third": "3rd street",
    "fourth": "4th street",
    "fifth": "5th street",
    "sixth": "6th street",
    "seventh": "7th street",
}
#: The draw games' betting rounds as players name them (the engine's ``DRAW_STREETS``).
DRAW_STREET_NAMES = {
    "predraw": "Before the draw",
    "draw1": "After the first draw",
    "draw2": "After the second draw",
    "draw3": "After the third draw",
}
_DEALS = frozenset({EventKind.DEAL_UP, EventKind.DEAL_HOLE, EventKind.DEAL_BOARD})


class StreetTracker:
    """Which betting street a hand's events are on, as the site counts them (statistics, the
    log, hand histories): 0 for the first (preflop, stud's 3rd street, a draw game's betting
    before the draw). A flop game moves on at each board card dealt (flop, turn, river); a
    stud game at the first card dealt after a decision, so a run-out with nobody left to bet
    is one move; a draw game at each draw round's first discard (the betting after it).
    ``structure``: the game's (``Variant.structure``: board, stud or draw)."""

    def __init__(self, structure: str) -> None:
        self.stud = structure == "stud"
        self.draw = structure == "draw"
        self.street = 0
        self._decided = False
        self._drawing = False

    def copy(self) -> StreetTracker:
        """A tracker counting on from where this one is."""
        out = StreetTracker.__new__(StreetTracker)
        out.__dict__.update(self.__dict__)
        return out

    def see(self, event: Event) -> bool:
        """Count ``event``; true when it opens a new street."""
        kind = event.kind
        if self.draw and kind is EventKind.DISCARD:
            if self._drawing:
                return False
            self._drawing = True
            self.street += 1
            return True
        if kind in DECISIONS:
            self._decided = True
            self._drawing = False
            return False
        if self.stud:
            if kind in _DEALS and self._decided:
                self._decided = False
                self.street += 1
                return True
            return False
        if kind is EventKind.DEAL_BOARD:
            self.street += 1
            return True
        return False


def street_names(config: HandConfig) -> dict[str, str]:
    """The game's streets as players name them (a board game's are the engine's words)."""
    structure = config.variant.structure
    if structure == "stud":
        return STUD_STREET_NAMES
    if structure == "draw":
        return {street: DRAW_STREET_NAMES[street] for street in config.streets}
    return {street: street.capitalize() for street in config.streets}


def decisions(state: EngineHand) -> list[dict[str, Any]]:
    """The players' decisions of an engine hand, with their street (no cards in them: a
    draw's ``amount`` is how many cards, never which)."""
    names = state.config.streets
    streets = StreetTracker(state.config.variant.structure)
    out = []
    for event in state.events:
        kind = event.kind
        streets.see(event)
        if kind in DECISIONS and event.seat is not None:  # a decision is always a seat's
            out.append(
                {
                    "street": names[min(streets.street, len(names) - 1)],
                    "seat": event.seat,
                    "name": state.players[event.seat],
                    "kind": str(kind),
                    "amount": None if kind in _NO_AMOUNT else event.amount,
                }
            )
    return out


_NO_AMOUNT = frozenset({EventKind.FOLD, EventKind.CHECK})
