"""A run-out's odds, computed by its table's runtime from the hand it holds.

A write of the runtime (``tables.live.runtime``) that leaves its hand with a run-out whose
chances are unknown (``Hand.odds_pending``: ``tables.services.runouts.runout_record``, at the
action that ended the betting or the players' choice of runs) starts them at once: computed
from the runtime's engine hand (nothing read, nothing replayed) in a worker thread, off the
event loop and the write threads (exact enumeration is slow), then stored by
``runout_odds_store`` as a write of the runtime, in the table's turn and fenced by its lease,
whose next version is built from the one before (``tables.selectors.snapshot_made``).

The croupier stays the fallback (``tables.croupier``): it computes the hands nobody here is
computing (``odds_under_way``: a change another process or a REST call made, a runtime that
ended or lost its lease, a computation that failed here, a restarted server), and
``runout_odds_store`` fills only unknown chances, so the odds are stored once whoever
computes them.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from django.utils import timezone

from engine.runout import runout_odds
from tables.croupier import OddsFunction, allin_ev_compute, odds_under_way, runout_odds_compute
from tables.models import Hand
from tables.selectors.hands import runout_streets_of
from tables.selectors.snapshot import Snapshot
from tables.services.leases import LeaseLost
from tables.services.runouts import OddsWork, runout_odds_store

log = logging.getLogger("tables.live.runtime")  # the runtime's: it computes them

#: The engine's odds street by street (the croupier's; tests put a slow or failing one here).
engine_odds: OddsFunction = runout_odds
#: The computations under way, kept from the garbage collector until they end.
_running: set[asyncio.Task[None]] = set()

#: A write in the table's turn, fenced by the lease, its version shown (``TableRuntime.tick``)
#: and the name its CPU time is counted under.
InTurn = Callable[[Callable[[], Any], str], Awaitable[Any]]
#: Work in the table's turn that writes nothing (``TableRuntime.call``).
Turn = Callable[[Callable[[], Awaitable[None]]], Awaitable[None]]


class RunoutOdds:
    """One table's runtime's run-out odds: ``after`` each version it wrote."""

    def __init__(
        self, table_id: int, in_turn: InTurn, turn: Turn, latest: Callable[[], Snapshot | None]
    ) -> None:
        self.table_id = table_id
        self.in_turn, self.turn, self.latest = in_turn, turn, latest
        #: The run-out last started here (hand id, its runs' streets): not started twice.
        self.started: tuple[int, list[list[tuple[str, int]]]] | None = None
        #: Another run-out of the hand computed here came meanwhile (the players chose to run
        #: it twice while the odds of one run were computed): the store of the first writes
        #: nothing (``runout_odds_store``: not the stored run-out), so this one is started once
        #: the first ends (else it waited for the croupier's next pass).
        self.later = False
        #: Its computation and store (tests wait for it).
        self.task: asyncio.Task[None] | None = None

    def after(self, snapshot: Snapshot | None) -> None:
        """``snapshot``: the version a write of the runtime made, shown. Where its hand's
        run-out waits for its chances, start computing them (in the table's turn: nothing acts
        on the hand meanwhile)."""
        hand = snapshot.hand if snapshot is not None else None
        if snapshot is None or hand is None or snapshot.state is None:
            return
        if not hand.odds_pending or not hand.runout or hand.status == Hand.Status.VOIDED:
            return
        runout = (hand.pk, runout_streets_of(hand.runout["runs"]))
        if runout == self.started:
            return
        if hand.pk in odds_under_way:  # computed here (for another run-out), or by the croupier
            self.later = self.task is not None and not self.task.done()
            return
        self.started = runout
        try:
            # A hand waiting for its runs goes on being acted on in place: the worker thread
            # computes from a copy. A finished hand's engine state changes no more.
            state = copy.deepcopy(snapshot.state) if snapshot.running else snapshot.state
        except Exception:  # the write it follows committed: it must not look refused
            log.exception("table %s: run-out odds not started", self.table_id)
            return
        odds_under_way.add(hand.pk)
        self.task = asyncio.ensure_future(self._fill(OddsWork(hand.pk, self.table_id, state)))
        _running.add(self.task)
        self.task.add_done_callback(_running.discard)

    async def _fill(self, work: OddsWork) -> None:
        try:
            runs, ev_net = await asyncio.to_thread(_computed, work, engine_odds)

            def store() -> bool:
                now = timezone.now()
                return runout_odds_store(hand_id=work.hand_id, runs=runs, now=now, ev_net=ev_net)

            await self.in_turn(store, "odds")
        except LeaseLost:  # the table moved, or its runtime ended: the croupier's now
            pass
        except Exception:  # left to the croupier, which finds the hand still waiting
            log.exception(
                "table %s: run-out odds of hand %s",
                self.table_id,
                work.hand_id,
                extra={"table": self.table_id, "hand": work.hand_id},
            )
        finally:
            odds_under_way.discard(work.hand_id)
            if self.later:
                self.later = False
                with contextlib.suppress(LeaseLost):  # the runtime ended: the croupier's
                    await self.turn(self._again)

    async def _again(self) -> None:
        """In the table's turn: the run-out that came while another was computed."""
        self.after(self.latest())


def _computed(
    work: OddsWork, odds: OddsFunction
) -> tuple[list[list[dict[str, Any]]] | None, dict[int, float] | None]:
    """The croupier's computations of ``work``, in one trip to a worker thread."""
    runs = runout_odds_compute(work, odds)
    return runs, allin_ev_compute(work, runs)
