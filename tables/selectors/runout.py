"""An all-in run-out as it is dealt on screen, street by street: the hand's view cut to the
street on screen (``Snapshot.view`` gives this one to every presenter).

The engine deals the whole run-out and settles the pots in the action that ended the
betting; the site shows it one street at a time (``tables.services.runouts``: ``Hand.runout``
says how many streets are on screen). ``runout_frame`` turns the engine's view of the
finished hand (already filtered for its viewer: every live hand is face up once nobody can
bet) into the view of the street on screen: the board cut to it, no result, the chips won
not yet in the stacks, the log up to that street. It only hides, so it cannot show a viewer
anything the engine's filter did not give them. Pure: reads nothing.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.types import EventKind
from engine.view import View

#: The events of the end of a hand (after the last board card).
_SHOWDOWN = frozenset({EventKind.SHOW, EventKind.MUCK, EventKind.WIN})
#: The events dealing a later run's board (after the first run's).
_LATER_RUNS = frozenset({EventKind.DEAL_SECOND_BOARD, EventKind.DEAL_THIRD_BOARD})


def runout_frame(view: View, runout: dict[str, Any]) -> View:
    """``view`` (a finished hand) as it stands with ``runout["shown"]`` streets dealt."""
    step = runout["runs"][0][runout["shown"]]
    cards = step["cards"]
    won = [0] * len(view.seats)
    if view.result is not None:
        for award in view.result.awards:
            for seat, amount in zip(award.winners, award.amounts, strict=True):
                won[seat] += amount
    events = []
    board = 0
    for event in view.events:
        if event.kind is EventKind.DEAL_BOARD:
            board += len(event.cards)
            if board > cards:
                break
        elif event.kind in _LATER_RUNS or event.kind in _SHOWDOWN:
            break
        events.append(event)
    return replace(
        view,
        street=step["street"],
        seats=tuple(replace(seat, stack=seat.stack - won[seat.seat]) for seat in view.seats),
        board=view.board[:cards],
        second_board=view.second_board[:cards],
        third_board=view.third_board[:cards],
        events=tuple(events),
        result=None,
    )
