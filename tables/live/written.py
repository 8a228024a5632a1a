"""A write of a table's runtime and the table after it, in one trip to the table's write thread.

After each write that changed its table, the runtime (``tables.live.runtime``) shows its
sockets the new version: built in memory after an action (``snapshot_after_action``), else
read. That read runs here, on the write's thread right after its transaction committed, not
in a second trip from the event loop to a database thread and back: a timeout, every command
but an action. After a deal or a hand's end the hand is not read but taken as the write left
it (``snapshot_after_hand``: only the table row and its seats are read, and the log's notices
where the write posted one);
after a run-out's street or its odds stored nothing is read (``snapshot_after_street``,
``snapshot_after_odds``: the version before, the street further on or the chances filled in);
nor after a sit-down (``snapshot_after_seat``: the version before, with the seat taken).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from django.db import DatabaseError

from tables.selectors.snapshot import Snapshot, load_snapshot, snapshot_after_action
from tables.selectors.snapshot_made import (
    snapshot_after_hand,
    snapshot_after_odds,
    snapshot_after_street,
)
from tables.selectors.snapshot_seated import snapshot_after_seat
from tables.services.events import outbox
from tables.services.hands_made import (
    Made,
    OddsStored,
    StreetShown,
    hands_made,
    notices_posted,
)
from tables.services.live_hand import LiveHand
from tables.services.seats_made import SeatMade, seats_made

log = logging.getLogger("tables.live.runtime")  # the runtime's: it made the write
T = TypeVar("T")


@dataclass
class Written(Generic[T]):
    """What a write returned, what it published, and the table after it."""

    result: T
    #: What the write published on commit, for the runtime to publish from the event loop.
    events: list[dict[str, Any]] = field(default_factory=list)
    #: The newest version its ``table.changed`` events say (0: it changed nothing).
    version: int = 0
    #: The table at ``version`` or later (None: unchanged, no such table, or the read failed).
    snapshot: Snapshot | None = None
    #: The table was read from the database for it (else built, or not needed).
    read: bool = False
    #: Built one action later on the runtime's hand, which goes on (else a new hand in play).
    same_hand: bool = False


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


def _built(before: Snapshot, made: Made, posted: bool) -> Snapshot | None:
    """``before`` one version later, where the write noted all it made (None: read it);
    ``posted``: it posted a notice."""
    if isinstance(made, OddsStored):
        return snapshot_after_odds(
            before, made.version, made.hand_id, made.runout, made.odds_pending, made.next_hand_at
        )
    if isinstance(made, StreetShown):
        return snapshot_after_street(
            before, made.version, made.hand_id, made.runout, made.next_hand_at
        )
    return snapshot_after_hand(
        before, made.version, made.hand, made.decisions, made.state, notices_posted=posted
    )


def written_and_read(
    table_id: int, write: Callable[[], T], before: Snapshot | None, live: LiveHand | None
) -> Written[T]:
    """On the table's write thread: ``write`` (which commits before it returns), then the
    table after it where it changed: ``before`` one action later when ``live`` (the runtime's
    hand, acted on in place) made just that; after a deal or a hand's end, ``before`` with the
    hand as the write left it; after a run-out's street, ``before`` a street further; after a
    sit-down (or a request to the host), ``before`` with the seat (the version); else read
    (from ``before`` on, unless ``live`` was changed in place and left behind). A read that
    fails leaves the write done: no snapshot, and the runtime shows the next change."""
    events: list[dict[str, Any]] = []
    made: list[Made] = []
    token = outbox.set(events)  # what the write publishes on commit lands there
    noted = hands_made.set(made)  # and a hand it dealt or ended, or a street shown, there
    seated: list[SeatMade] = []
    sat = seats_made.set(seated)  # and a sit-down, there
    posted: list[int] = []
    told = notices_posted.set(posted)  # and a notice it posted, there
    try:
        result = write()
    finally:
        notices_posted.reset(told)
        seats_made.reset(sat)
        hands_made.reset(noted)
        outbox.reset(token)
    versions = [e["version"] for e in events if e.get("type") == "table.changed"]
    if not versions:
        return Written(result, events)
    newest = max(versions)
    if live is not None and before is not None and live.version == newest == before.version + 1:
        built = snapshot_after_action(
            before, live.version, live.deadline, live.decisions, live.state
        )
        if built is not None:
            return Written(result, events, newest, built, same_hand=True)
    try:
        if before is not None and len(made) == 1 and made[0].version == newest:
            built = _built(before, made[0], bool(posted))
            if built is not None:
                return Written(result, events, newest, built)
        if before is not None and not made and len(seated) == 1 and seated[0].version == newest:
            built = snapshot_after_seat(before, newest, seated[0].table, seated[0].seat)
            if built is not None:
                return Written(result, events, newest, built)
        previous = None if live is not None and live.spent else before
        snapshot = load_snapshot(table_id, previous)
    except DatabaseError:
        log.warning(
            "table %s: database unreachable, update skipped", table_id, extra={"table": table_id}
        )
        snapshot = None
    except Exception:  # a write that committed must not look refused
        log.exception("table %s: not read after a write", table_id, extra={"table": table_id})
        snapshot = None
    return Written(result, events, newest, snapshot, read=True)
