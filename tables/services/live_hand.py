"""The running hand as a table's runtime holds it in memory, for ``hand_act`` to act on in
place (``tables.services.hands``) instead of reading and replaying it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from engine.hand import Hand as EngineHand
from tables.models import Hand, Table
from tables.selectors.hands import Decision
from tables.selectors.snapshot import Snapshot


@dataclass
class LiveHand:
    """The running hand as a table's runtime holds it: its row (inputs only), its decisions
    and the engine hand after them, at ``version`` (the table's). ``hand_act`` acts on
    ``state`` in place when ``version`` is the locked row's, and then moves the rest along;
    ``spent``: it was changed, so after a failure the runtime reads it again; also left set
    (with the old ``version``) by a step that took or cleared ticked pre-actions, which
    change seats the runtime's own next version would not show: it reads the table."""

    version: int
    hand: Hand
    decisions: list[Decision]
    state: EngineHand
    deadline: datetime | None = None
    spent: bool = False
    #: the table's row at ``version`` (not to be changed: a copy is acted on), None: read it
    table: Table | None = None
    #: player id -> their seat in the hand (``Hand.seat_indexes``, worked out once)
    seats: dict[int, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.seats = self.hand.seat_indexes


def held_hand(snapshot: Snapshot | None) -> LiveHand | None:
    """``snapshot``'s running hand as a runtime holds it to act on in place (None: no hand
    running)."""
    if snapshot is None or not snapshot.running:
        return None
    if snapshot.hand is None or snapshot.state is None:
        return None
    return LiveHand(
        snapshot.version,
        snapshot.hand,
        list(snapshot.decisions),
        snapshot.state,
        snapshot.table.action_deadline,
        table=snapshot.table,
    )
