"""The hand: ``Hand``, the state machine of one hand (``engine.hand.machine``: the betting
rounds and the commands), built from its state and queries (``engine.hand.state``), forced
bets and dealing, the run-outs' later boards included (``engine.hand.dealing``), the betting
rules (``engine.hand.betting``), the showdown (``engine.hand.payout``) and the views
(``engine.hand.views``), with the stud rules that depend on the showing cards
(``engine.hand.stud``) and the showdown's awards (``engine.hand.showdown``). The typed values
it makes are named here too."""

from engine.hand.machine import Hand
from engine.types import (
    ANTE_MODES,
    BETTINGS,
    GAMES,
    MAX_SEATS,
    STREETS,
    STUD_STREETS,
    Action,
    ActionKind,
    Award,
    Event,
    EventKind,
    HandConfig,
    Legal,
    Result,
)
from engine.view import SeatView, View

__all__ = [
    "ANTE_MODES",
    "BETTINGS",
    "GAMES",
    "MAX_SEATS",
    "STREETS",
    "STUD_STREETS",
    "Action",
    "ActionKind",
    "Award",
    "Event",
    "EventKind",
    "Hand",
    "HandConfig",
    "Legal",
    "Result",
    "SeatView",
    "View",
]
