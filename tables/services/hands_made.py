"""What a deal, a hand's end, a run-out's street or its odds made, for the table's runtime
that wrote it.

A runtime's write (``tables.live.runtime``) listens here: ``hand_deal`` and a ``hand_act``
that ends its hand note the hand, its decisions and its engine state as they committed them;
``runout_advance`` notes the street it put on screen (the hand's new run-out, the table's new
``next_hand_at``); ``runout_odds_store`` the chances it filled in. The table's next version is
built from them (``tables.selectors.snapshot_made``) instead of the hand being read and
replayed again. ``notice_post`` notes that it wrote a notice: the log's notices after a deal or
a hand's end are read then, and otherwise carried over from the version before.
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


@dataclass(frozen=True, slots=True)
class OddsStored:
    """A run-out's chances filled in, at the table's ``version`` that write made: all it
    changed that a screen shows (``tables.services.runouts.runout_odds_store``)."""

    version: int
    hand_id: int
    runout: dict[str, Any]  # the hand's, its chances filled in
    odds_pending: bool  # the hand's: some chances still unknown
    next_hand_at: datetime | None  # the table's


#: What a write made that the table's next version is built from.
Made = HandMade | StreetShown | OddsStored

#: Where the writes note what they made, while a runtime's write listens (its thread's
#: context); unset: nobody listens, nothing is noted.
hands_made: ContextVar[list[Made] | None] = ContextVar("hands_made", default=None)
#: The tables a runtime's write posted a notice at, while it listens (unset: nobody listens).
notices_posted: ContextVar[list[int] | None] = ContextVar("notices_posted", default=None)


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


def odds_stored(table: Table, hand: Hand) -> None:
    """Note the chances ``hand``'s run-out now has (``table``: after its ``table_touch``)."""
    made = hands_made.get()
    if made is not None and hand.runout is not None:
        made.append(
            OddsStored(table.version, hand.pk, hand.runout, hand.odds_pending, table.next_hand_at)
        )


def notice_noted(table_id: int) -> None:
    """Note that a notice was posted at ``table_id`` (``host_pending.notice_post``)."""
    posted = notices_posted.get()
    if posted is not None:
        posted.append(table_id)
