"""The table's version after a run-out's chances were stored, built from the version before.

A table's runtime computes the odds of a run-out from the hand it holds and stores them in its
own write (``tables.live.runout_odds``, ``tables.services.runouts.runout_odds_store``): that
write changes the hand's run-out (its chances filled in) and ``odds_pending``, and the table's
version and ``next_hand_at``, nothing else a screen shows (the all-in EV it writes with them is
the statistics'). ``snapshot_after_odds`` builds that version from the one before, reading
nothing, as ``tables.selectors.snapshot_made.snapshot_after_street`` does for a street.
"""

from __future__ import annotations

import copy
from datetime import datetime
from typing import Any

from tables.selectors.snapshot import Snapshot


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
    ``odds_pending``) and set the table's ``next_hand_at``. None where ``previous`` is not the
    version before (another hand, another run-out, another street): the caller reads."""
    hand = previous.hand
    if version != previous.version + 1 or hand is None or hand.pk != hand_id:
        return None
    if previous.state is None or hand.runout is None or hand.runout["shown"] != runout["shown"]:
        return None
    if _streets(hand.runout) != _streets(runout):
        return None
    table = copy.copy(previous.table)
    table.version, table.next_hand_at = version, next_hand_at
    hand = copy.copy(hand)
    hand.runout, hand.odds_pending = runout, odds_pending
    snapshot = Snapshot(
        table,
        previous.seats.values(),
        hand,
        list(previous.decisions),
        previous.recent,
        previous.state,  # the same hand: a running one's goes on with the runtime's actions
        previous.banner,
        previous.notices,
        previous.seating_closed,
        previous.facts,  # the same row but for its clock and version
        previous.hand_facts,  # the same hand row but for its chances
    )
    snapshot.street_times = previous.street_times  # no street dealt
    return snapshot


def _streets(runout: dict[str, Any]) -> list[list[tuple[str, int]]]:
    """The run-out's runs and streets, chances left out (what identifies it)."""
    return [[(step["street"], step["cards"]) for step in run] for run in runout["runs"]]
