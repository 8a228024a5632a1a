"""What a deal, a hand's end or a run-out's street made, for the table's runtime that wrote it.

A runtime's write (``tables.live.written``) listens here: ``hand_deal`` and a ``hand_act``
that ends its hand note the hand, its decisions and its engine state as they committed them;
``runout_advance`` notes the street it put on screen (the hand's new run-out, the table's new
``next_hand_at``). The table's next version is built from them
(``tables.selectors.snapshot_made``) instead of the hand being read and replayed again.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from engine.hand import Hand as EngineHand
from tables.models import Hand, Table
from tables.selectors.hands import Decision


@dataclass(frozen=True, slots=True)
class HandMade:
    """A hand as a write left it, at the table's ``version`` that write made."""

    version: int
    hand: Hand
    decisions: list[Decision]
    state: EngineHand


@dataclass(frozen=True, slots=True)
class StreetShown:
    """A run-out's next street put on screen, at the table's ``version`` that write made: all
    it changed (``tables.services.runouts.runout_advance``)."""

    version: int
    hand_id: int
    runout: dict[str, Any]  # the hand's, its ``shown`` one more
    next_hand_at: datetime | None  # the table's


#: Where the writes note what they made, while a runtime's write listens (its thread's
#: context); unset: nobody listens, nothing is noted.
hands_made: ContextVar[list[HandMade | StreetShown] | None] = ContextVar("hands_made", default=None)


def hand_made(table: Table, hand: Hand, decisions: list[Decision], state: EngineHand) -> None:
    """Note ``hand`` as the write leaves it (``table``: after its ``table_touch``)."""
    made = hands_made.get()
    if made is not None:
        made.append(HandMade(table.version, hand, decisions, state))


def street_shown(table: Table, hand: Hand) -> None:
    """Note the run-out's street ``hand`` now shows (``table``: after its ``table_touch``)."""
    made = hands_made.get()
    if made is not None and hand.runout is not None:
        made.append(StreetShown(table.version, hand.pk, hand.runout, table.next_hand_at))
