"""The table's version after a deal, a hand's end or a run-out's street, built from what the
write made.

After a deal or an action that ended the hand, a table's runtime (``tables.live.runtime``)
holds the hand as its write left it (``tables.services.hands_made``): the hand's row, its
decisions and its engine state. ``snapshot_after_hand`` builds the next version from them and
from the version before, reading only what such a write may change besides (the table row
with its seats, the log's notices), so that the hand is neither read nor replayed again:
the very snapshot ``load_snapshot`` would read. After a run-out's street
(``tables.services.runouts.runout_advance``: the hand's ``runout`` one street further, the
table's ``next_hand_at``, its version) ``snapshot_after_street`` reads nothing at all, nor
does ``snapshot_after_odds`` after a run-out's chances were stored by the table's runtime
(``tables.croupier.RunoutOdds``: the hand's run-out with its chances and ``odds_pending``, the
table's ``next_hand_at``, its version; the all-in EV stored with them is the statistics').
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from engine.hand import Hand as EngineHand
from tables.db.statements import row_copy
from tables.models import Hand
from tables.selectors.banners import banner_for, seating_notice_for
from tables.selectors.hands import Decision, runout_streets_of
from tables.selectors.hosting import log_notices, notices_carried
from tables.selectors.snapshot import HandFacts, Snapshot, table_and_seats, timed
from tables.selectors.table_rows import RECENT_HANDS, RecentHand


def snapshot_after_hand(
    previous: Snapshot,
    version: int,
    hand: Hand,
    decisions: list[Decision],
    state: EngineHand,
    notices_posted: bool = True,
) -> Snapshot | None:
    """The table at ``version``, one after ``previous``, where that version's write dealt
    ``hand`` or ended it, leaving it with ``decisions`` and ``state``. None where that cannot
    be told from them (the hand ended is not ``previous``'s, the table moved on already): the
    caller reads the table instead. ``notices_posted`` False: the write posted no notice, so
    the log's notices are ``previous``'s (for the next hand, those it still shows), not read
    where they can be told from them."""
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
    # committed since the write, so the notices read before it are that version's too; and
    # each notice comes with a version of its own, so none came since ``previous`` but the
    # write's.
    shown_hand = previous.hand.number if previous.hand is not None else None
    notices = None if notices_posted else notices_carried(previous.notices, shown_hand, hand.number)
    if notices is None:
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
    hand = row_copy(hand)
    hand.runout = runout
    # the same hand row but for its run-out, over on screen after its last street
    facts = replace(previous.hand_facts, runout_showing=hand.runout_showing)
    return _with_runout(previous, version, next_hand_at, hand, facts)


def snapshot_after_odds(
    previous: Snapshot,
    version: int,
    hand_id: int,
    runout: dict[str, Any],
    odds_pending: bool,
    next_hand_at: datetime | None,
) -> Snapshot | None:
    """The table at ``version``, one after ``previous``, where that version's write filled in
    the chances of the run-out of ``previous``'s hand ``hand_id`` (now ``runout`` and
    ``odds_pending``: ``tables.croupier.RunoutOdds``) and set the table's ``next_hand_at``. None
    where ``previous`` is not the version before (another hand, another run-out, another
    street): the caller reads."""
    hand = previous.hand
    if version != previous.version + 1 or hand is None or hand.pk != hand_id:
        return None
    if previous.state is None or hand.runout is None or hand.runout["shown"] != runout["shown"]:
        return None
    if runout_streets_of(hand.runout["runs"]) != runout_streets_of(runout["runs"]):
        return None
    hand = row_copy(hand)
    hand.runout, hand.odds_pending = runout, odds_pending
    # the same hand row but for its chances
    return _with_runout(previous, version, next_hand_at, hand, previous.hand_facts)


def _with_runout(
    previous: Snapshot,
    version: int,
    next_hand_at: datetime | None,
    hand: Hand,
    hand_facts: HandFacts,
) -> Snapshot:
    """``previous`` at ``version`` with its hand's row now ``hand`` (its run-out changed) and
    the table's ``next_hand_at``: all such a write changes, so nothing is read."""
    table = row_copy(previous.table)
    table.version, table.next_hand_at = version, next_hand_at
    snapshot = Snapshot(
        table,
        previous.seats.values(),
        hand,
        list(previous.decisions),
        previous.recent,
        previous.state,  # the same hand's: a running one's goes on with the runtime's actions
        previous.banner,
        previous.notices,
        previous.seating_closed,
        previous.facts,  # the same row but for its clock and version
        hand_facts,
    )
    snapshot.street_times = previous.street_times  # no street dealt: its decisions' times
    return snapshot
