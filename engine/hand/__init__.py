"""The hand: ``Hand``, the state machine of one hand (``engine.hand.machine``, built from ``state``, ``dealing``, ``betting``, ``runouts``, ``settle`` and ``views``), with the
stud rules that depend on the showing cards (``engine.hand.stud``) and the showdown's
awards (``engine.hand.showdown``). The typed values it makes are named here too."""

from engine.hand.machine import (
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
    Hand,
    HandConfig,
    Legal,
    Result,
    SeatView,
    View,
)

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
