"""What a deal or a hand's end made, for the table's runtime that wrote it.

A runtime's write (``tables.live.written``) listens here: ``hand_deal`` and a ``hand_act``
that ends its hand note the hand, its decisions and its engine state as they committed them,
so that the table's next version is built from them (``tables.selectors.snapshot_made``)
instead of the hand being read and replayed again.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass

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


#: Where the writes note what they made, while a runtime's write listens (its thread's
#: context); unset: nobody listens, nothing is noted.
hands_made: ContextVar[list[HandMade] | None] = ContextVar("hands_made", default=None)


def hand_made(table: Table, hand: Hand, decisions: list[Decision], state: EngineHand) -> None:
    """Note ``hand`` as the write leaves it (``table``: after its ``table_touch``)."""
    made = hands_made.get()
    if made is not None:
        made.append(HandMade(table.version, hand, decisions, state))
