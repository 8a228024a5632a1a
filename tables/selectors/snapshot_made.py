"""The table's version after a deal, a hand's end or a run-out's street, built from what the
write made.

After a deal or an action that ended the hand, a table's runtime (``tables.live.written``)
holds the hand as its write left it (``tables.services.hands_made``): the hand's row, its
decisions and its engine state. ``snapshot_after_hand`` builds the next version from them and
from the version before, reading only what such a write may change besides (the table row
with its seats, the log's notices), so that the hand is neither read nor replayed again:
the very snapshot ``load_snapshot`` would read. After a run-out's street
(``tables.services.runouts.runout_advance``: the hand's ``runout`` one street further, the
table's ``next_hand_at``, its version) ``snapshot_after_street`` reads nothing at all.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from engine.hand import Hand as EngineHand
from tables.db import statements
from tables.models import Hand
from tables.selectors.banners import banner_for, seating_notice_for
from tables.selectors.hands import Decision
from tables.selectors.hosting import log_notices
from tables.selectors.snapshot import Snapshot, table_and_seats, timed
from tables.selectors.table_rows import RECENT_HANDS, RecentHand


def snapshot_after_hand(
    previous: Snapshot,
    version: int,
    hand: Hand,
    decisions: list[Decision],
    state: EngineHand,
) -> Snapshot | None:
    """The table at ``version``, one after ``previous``, where that version's write dealt
    ``hand`` or ended it, leaving it with ``decisions`` and ``state``. None where that cannot
    be told from them (the hand ended is not ``previous``'s, the table moved on already): the
    caller reads the table instead."""
    ended = hand.status == Hand.Status.FINISHED
    if version != previous.version + 1:
        return None
    if ended and (previous.hand is None or previous.hand.pk != hand.pk):
        return None
    if not ended and (hand.status != Hand.Status.RUNNING or decisions):
        return None
    recent = previous.recent
    if ended:
        if recent and recent[0].number >= hand.number:
            return None  # ``previous`` was read under an older version than what it shows
        recent = (RecentHand(hand.number, hand.pot), *recent[: RECENT_HANDS - 1])
    # The notices first, then the table row: where the row is still at ``version`` nothing
    # committed since the write, so the notices read before it are that version's too.
    notices = log_notices(hand.table_id, hand.number)
    table, seats = table_and_seats(hand.table_id)
    if table is None or table.version != version or table.created_at != previous.created_at:
        return None
    return timed(
        Snapshot(
            table,
            seats,
            hand,
            decisions,
            recent,
            state,
            banner_for(table),
            notices,
            seating_notice_for(table),
        )
    )


def snapshot_after_street(
    previous: Snapshot,
    version: int,
    hand_id: int,
    runout: dict[str, Any],
    next_hand_at: datetime | None,
) -> Snapshot | None:
    """The table at ``version``, one after ``previous``, where that version's write showed the
    next street of the run-out of ``previous``'s hand ``hand_id`` (now ``runout``) and set the
    table's ``next_hand_at``: all it changed, so nothing is read. None where ``previous`` is
    not the version before that street (another hand, another street): the caller reads."""
    hand = previous.hand
    if version != previous.version + 1 or hand is None or hand.pk != hand_id:
        return None
    if previous.running or not previous.hand_facts.runout_showing or previous.state is None:
        return None
    if hand.runout is None or hand.runout["shown"] + 1 != runout["shown"]:
        return None
    table = statements.row_copy(previous.table)
    table.version, table.next_hand_at = version, next_hand_at
    hand = statements.row_copy(hand)
    hand.runout = runout
    snapshot = Snapshot(
        table,
        previous.seats.values(),
        hand,
        list(previous.decisions),
        previous.recent,
        previous.state,  # a finished hand's engine state: nobody acts on it any more
        previous.banner,
        previous.notices,
        previous.seating_closed,
        previous.facts,  # the same row but for its clock and version
        # the same hand row but for its run-out, over on screen after its last street
        replace(previous.hand_facts, runout_showing=hand.runout_showing),
    )
    snapshot.street_times = previous.street_times  # its decisions' (a broadcast's), unchanged
    return snapshot
