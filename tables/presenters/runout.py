"""An all-in run-out's odds on screen: each live hand's chance on the street shown.

``engine.runout.runout_frame`` cuts the hand's view to the street on screen (``Snapshot.view``
gives that one to every presenter); here ``runout_chances`` reads that street's chances from
``Hand.runout`` (stored by ``tables.services.runouts``; unknown until the croupier has computed
them). Pure: no ORM, no database read.
"""

from __future__ import annotations

from typing import Any


def runout_chances(runout: dict[str, Any] | None, seat: int) -> tuple[float, ...] | None:
    """Hand seat ``seat``'s chance (percent, one decimal) on the street on screen, one per
    run of the board; empty without a run-out or for a seat not live in it; None while the
    chances of that street are not known yet."""
    if not runout:
        return ()
    chances = []
    for run in runout["runs"]:
        known = run[min(runout["shown"], len(run) - 1)]["chances"]
        if known is None:
            return None
        share = known.get(str(seat))
        if share is None:
            return ()
        chances.append(round(100 * share, 1))
    return tuple(chances)
