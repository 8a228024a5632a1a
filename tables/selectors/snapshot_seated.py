"""The table's version after a player sat down (or asked the host to), built from what the
write made.

A sit-down changes the table's row (its version) and adds one seat, and nothing else a
snapshot holds: the hand on screen, its log, the recent hands, the notices and the banner are
the version before's. ``snapshot_after_seat`` builds that version from the one before, the
row as the write locked and bumped it and the seat it added (``tables.services.seats_made``),
reading nothing: the very snapshot ``load_snapshot`` would read, the hand neither read nor
replayed again.
"""

from __future__ import annotations

from tables.models import Table
from tables.selectors.snapshot import SeatRow, Snapshot


def snapshot_after_seat(
    previous: Snapshot, version: int, table: Table, seat: SeatRow | None
) -> Snapshot | None:
    """The table at ``version``, one after ``previous``, where that version's write added
    ``seat`` (None: it filed a request, only the version moved) and left the table's row as
    ``table``. None where ``previous`` is not the version before: the caller reads."""
    if version != previous.version + 1 or table.version != version:
        return None
    if table.pk != previous.table.pk or table.created_at != previous.created_at:
        return None
    seats = list(previous.seats.values())
    if seat is not None:
        if seat.number in previous.seats or previous.seat_of(seat.player_id) is not None:
            return None  # not the seats the write found: ``previous`` is not what it says
        seats.append(seat)
    snapshot = Snapshot(
        table,
        seats,
        previous.hand,
        list(previous.decisions),
        previous.recent,
        previous.state,  # the hand is not touched: the runtime holds it again from here
        previous.banner,
        previous.notices,
        previous.seating_closed,
        # the same row but for its version; a rotation's next game counts the players
        previous.facts if previous.facts.mixed_label is None else None,
        previous.hand_facts,
    )
    snapshot.street_times = previous.street_times  # the hand's, unchanged
    return snapshot
