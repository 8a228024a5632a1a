"""An all-in run-out's chances, computed off the write path.

The action that ends the betting stores only the run-out's shape (``tables.services.runouts``:
``runout_record``, ``Hand.odds_pending``): exact enumeration takes up to about a second
(heads-up Hold'em preflop: 1,712,304 boards; Omaha more) and must not hold the table row,
nor on SQLite the one writer of every table. The croupier (``tables.croupier``) does
it in three steps, none of them holding a lock:

- ``hands_awaiting_odds``: which hands' chances are still unknown (an indexed read);
- ``runout_odds_work``: what to compute for one of them: the hand replayed from the
  database (a read);
- ``runout_odds_compute``: the chances themselves, from the engine alone (no database: on
  the server it runs in a worker thread of its own),

then hands them to the locked service ``runout_odds_store``, which writes them only if the
run-out is still the one they were computed for. With them goes the hand's all-in EV
(``allin_ev_compute``: each player's expected net at the all-in, for the statistics), which
reuses the first street's chances for the pot every live hand can win.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.allin_ev import allin_ev
from engine.cards import Card
from engine.hand import Hand as EngineHand
from engine.runout import StreetOdds, runout_odds
from tables.models import Hand, PlayerHand
from tables.selectors.hands import hand_state, with_deck

#: The engine's odds street by street for a hand and one run of its board (``runout_odds``'s
#: signature): injectable, so tests can make it slow or watch where it runs.
OddsFunction = Callable[[EngineHand, Sequence[Card]], list[StreetOdds]]


@dataclass(frozen=True)
class OddsWork:
    """The chances to compute for hand ``hand_id`` at table ``table_id``: its engine state
    (``state``), or None when there is nothing to compute (no run-out any more, a voided
    hand)."""

    hand_id: int
    table_id: int
    state: EngineHand | None


def hands_awaiting_odds() -> list[tuple[int, int]]:
    """(hand id, table id) of every hand whose run-out's chances are still unknown, oldest
    first."""
    pending = Hand.objects.filter(odds_pending=True).order_by("pk")
    return list(pending.values_list("pk", "table_id"))


def runout_odds_work(hand_id: int) -> OddsWork | None:
    """What to compute for hand ``hand_id`` (None: no such hand). A read, changing nothing."""
    hand = with_deck(Hand.objects).filter(pk=hand_id).first()
    if hand is None:
        return None
    if not hand.runout or hand.status == Hand.Status.VOIDED:
        return OddsWork(hand.pk, hand.table_id, None)
    return OddsWork(hand.pk, hand.table_id, hand_state(hand))


def runout_odds_compute(
    work: OddsWork, odds: OddsFunction = runout_odds
) -> list[list[dict[str, Any]]] | None:
    """Each run's streets with every live hand's chance (engine seat as text -> expected
    share of the pot, 0..1), in the form of ``runout_shape``; None when there is nothing to
    compute. The engine alone: no database, no lock (slow: see the module docstring)."""
    state = work.state
    if state is None:
        return None
    return [
        [
            {
                "street": street.street,
                "cards": len(street.board),
                "chances": {
                    str(seat): share for seat, share in zip(street.seats, street.share, strict=True)
                },
            }
            for street in odds(state, board)
        ]
        for board in state.boards
    ]


def allin_ev_compute(
    work: OddsWork, runs: list[list[dict[str, Any]]] | None
) -> dict[int, float] | None:
    """Each engine seat's all-in EV (expected net, ``engine.allin_ev``) of the finished hand
    of ``work``, or None (nothing to compute, or the hand still waits for its runs). The
    chances already computed (``runs``, ``runout_odds_compute``'s) at the all-in's street
    stand for the pots every live hand can win. The engine alone, as
    ``runout_odds_compute``."""
    state = work.state
    if state is None or not state.is_over:
        return None
    known: dict[tuple[int, ...], list[float]] = {}
    first = runs[0][0]["chances"] if runs and runs[0] else None
    if first is not None:
        seats = tuple(sorted(int(seat) for seat in first))
        known[seats] = [first[str(seat)] for seat in seats]
    ev = allin_ev(state, known)
    return None if ev is None else dict(enumerate(ev.net))


def hands_awaiting_allin_ev() -> list[int]:
    """Ids of the finished hands with an all-in whose EV is still unknown (hands older than
    the EV, or whose run-out's odds the croupier has not computed yet), oldest first."""
    rows = PlayerHand.objects.filter(
        all_in=True, ev_net=None, hand__status=Hand.Status.FINISHED
    ).order_by("hand_id")
    return list(rows.values_list("hand_id", flat=True).distinct())
