"""A hand's streets as the site names and counts them: statistics, the hand log, hand
histories and the replayer read them from here. Pure (no Django)."""

from __future__ import annotations

from typing import Any

from engine.config import STUD_STREETS
from engine.hand import Hand as EngineHand
from engine.types import DECISIONS, STREETS, Event, EventKind

#: Stud's streets as players name them (the engine's ``STUD_STREETS``).
STUD_STREET_NAMES = {
    "third": "3rd street",
    "fourth": "4th street",
    "fifth": "5th street",
    "sixth": "6th street",
    "seventh": "7th street",
}
_DEALS = frozenset({EventKind.DEAL_UP, EventKind.DEAL_HOLE, EventKind.DEAL_BOARD})


class StreetTracker:
    """Which betting street a hand's events are on, as the site counts them (statistics, the
    log, hand histories): 0 for the first (preflop, stud's 3rd street). A flop game moves on
    at each board card dealt (flop, turn, river); a stud game at the first card dealt after a
    decision, so a run-out with nobody left to bet is one move."""

    def __init__(self, stud: bool) -> None:
        self.stud = stud
        self.street = 0
        self._decided = False

    def see(self, event: Event) -> bool:
        """Count ``event``; true when it opens a new street."""
        kind = event.kind
        if kind in DECISIONS:
            self._decided = True
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


def decisions(state: EngineHand) -> list[dict[str, Any]]:
    """The players' decisions of an engine hand, with their street (no cards in them)."""
    names = STUD_STREETS if state.config.is_stud else STREETS
    streets = StreetTracker(state.config.is_stud)
    out = []
    for event in state.events:
        kind = event.kind
        streets.see(event)
        if kind in DECISIONS:
            assert event.seat is not None  # a decision is a seat's
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
