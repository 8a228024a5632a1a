"""The table's version after a deal or a hand's end, built from what the write made.

After a deal or an action that ended the hand, a table's runtime (``tables.live.written``)
holds the hand as its write left it (``tables.services.hands_made``): the hand's row, its
decisions and its engine state. ``snapshot_after_hand`` builds the next version from them and
from the version before, reading only what such a write may change besides (the table row
with its seats, the log's notices), so that the hand is neither read nor replayed again:
the very snapshot ``load_snapshot`` would read.
"""

from __future__ import annotations

from engine.hand import Hand as EngineHand
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
