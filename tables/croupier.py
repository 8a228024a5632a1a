"""The croupier: what keeps every table of a server process moving.

Each table has a clock of its own (``tables.timers``: an asyncio timer armed for the
moment something may be due there, re-armed whenever the table changes), which calls
``tables.services.clock.clock_tick`` for that table alone: starting hands when due, enforcing
action clocks (time bank, auto-check or fold, sitting out who timed out), seating bots and
letting them act. Deadlines live in the database, so a restart re-arms every clock from there,
and because every step is a locked, versioned service, two processes never act twice.

Beside the clocks, every ``INTERVAL`` seconds a light pass does what belongs to no table's
clock (``housekeeping_async``): the run-out odds below; every ``HOOKS_INTERVAL``, the other
apps' per-pass work (``hooks.croupier_pass``: tournaments and club games starting at their
time, final-table deals lapsing; a start a second or two after its minute is on time to a
player, and each pass of those reads costs an idle server more than all else it does); and,
every ``TIDY_INTERVAL``, tidying hosted games left empty.

It also computes the chances of all-in run-outs: up to about a second of exact enumeration
each, so never in a transaction nor on a thread of the writes. The action that ends the
betting stores only the run-out's shape (``tables.services.runouts``: ``runout_record``,
``Hand.odds_pending``); the table's runtime that wrote it computes them from the hand it holds
(``RunoutOdds``, below, with this module's functions), and this is the fallback for the
hands nobody in this process is computing (``odds_under_way``): in three steps none of which
holds a lock, the hands still waiting are read (``hands_awaiting_odds``), one hand is
replayed from the database (``runout_odds_work``), and its chances computed from the engine
alone (``runout_odds_compute``: no database), with the hand's all-in EV (``allin_ev_compute``: each
player's expected net at the all-in, for the statistics, reusing the first street's chances
for the pot every live hand can win). On the server each is a task of its own whose
computation runs in a worker thread (``asyncio.to_thread``), the pass going on meanwhile; the
result goes through the locked service ``runout_odds_store``, which writes it once however
many processes computed it, and only if the run-out is still the one it was computed for.
Hands still waiting for theirs are found in the database each pass, so a restart computes
what a stopped server left unknown.

Started lazily inside the server process (``ensure_started``, called on the first ASGI
connection: see ``autostart``) unless ``POKER_CROUPIER=0`` (the setting); or standalone with
``manage.py croupier``. Tests call ``Croupier().tick(now)`` directly with an injected time: one
whole pass over every table that is due (``clock.tables_due``), clocks and housekeeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from functools import partial
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone

from engine.allin_ev import allin_ev
from engine.cards import Card
from engine.hand import Hand as EngineHand
from engine.runout import StreetOdds, runout_odds
from tables.db.threads import read_async, write_async
from tables.http import Application, Receive, Scope, Send
from tables.models import Hand
from tables.selectors.hands import runout_streets_of
from tables.selectors.snapshot import Snapshot
from tables.services import clock, hooks, hosting
from tables.services.events import local_listeners, published_after
from tables.services.leases import LeaseLost, held_elsewhere
from tables.services.live_hand import LiveHand
from tables.services.runouts import (
    OddsWork,
    hands_awaiting_odds,
    runout_odds_store,
    runout_odds_work,
)
from tables.timers import TableTimers, write_tick

log = logging.getLogger(__name__)

INTERVAL = 0.5
#: Seconds between two runs of the other apps' per-pass work (``hooks.croupier_pass``).
HOOKS_INTERVAL = 2.0
#: Seconds between two looks for hosted games left empty for a day (``hosted_games_tidy``).
TIDY_INTERVAL = 60.0

#: Hands whose run-out odds are being computed in this process, by a croupier's task or by
#: the runtime of their table (``RunoutOdds``): nobody here starts them again.
odds_under_way: set[int] = set()

#: The engine's odds street by street for a hand and one run of its board (``runout_odds``'s
#: signature): injectable, so tests can make it slow or watch where it runs.
OddsFunction = Callable[[EngineHand, Sequence[Card]], list[StreetOdds]]


class Croupier:
    """``odds``: the engine's run-out odds (``engine.runout.runout_odds``; tests inject a
    slow or watching one)."""

    def __init__(self, interval: float = INTERVAL, odds: OddsFunction = runout_odds) -> None:
        self.interval = interval
        #: When each periodic part of the pass last ran ("hooks", "tidy"): ``_due``.
        self.ran_at: dict[str, datetime] = {}
        self.odds = odds
        #: This process's run-out computations under way, by hand id.
        self.odds_tasks: dict[int, asyncio.Task[Any]] = {}
        #: Hands whose computation failed here: not tried again until a restart (each try
        #: costs up to a second; the run-out goes on without its chances, see the pacing).
        self.odds_failed: set[int] = set()

    def _due(self, part: str, every: float, now: datetime) -> bool:
        """Whether ``part`` of the pass is due at ``now`` (``every`` seconds after it last ran),
        noting that it runs now."""
        last = self.ran_at.get(part)
        if last is not None and (now - last).total_seconds() < every:
            return False
        self.ran_at[part] = now
        return True

    def tick(self, now: datetime | None = None) -> list[tuple[int, str]]:
        """One pass over the tables at ``now``: what was done, as (table id, what) pairs."""
        now = now or timezone.now()
        done = []
        _croupier_pass(now)
        # on this thread, one after another, outside any transaction (the server: tick_async)
        for hand_id, table_id in hands_awaiting_odds():
            if hand_id in self.odds_failed or hand_id in odds_under_way:
                continue
            if self.odds_fill(hand_id, now):
                done.append((table_id, "odds"))
        if self._due("tidy", TIDY_INTERVAL, now):
            done.extend((pk, "closed-empty") for pk in _tidy(now))
        for table_id in clock.tables_due(now):  # one query; only these are locked
            what = _tick_table(table_id, now)
            if what:
                done.append((table_id, what))
        return done

    def tick_until_idle(
        self, now: datetime | None = None, limit: int = 100
    ) -> list[tuple[int, str]]:
        """Tick at ``now`` until nothing more is due (tests and the standalone command)."""
        done: list[tuple[int, str]] = []
        for _ in range(limit):
            step = self.tick(now)
            if not step:
                break
            done.extend(step)
        return done

    async def run(self) -> None:
        """The server's croupier: every table's clock (``TableTimers``, told of this process's
        changes) and the housekeeping pass every ``interval`` seconds."""
        log.info("croupier started (clocks per table, housekeeping every %ss)", self.interval)
        timers = TableTimers(write_tick(_tick_table, _tick_owned_table))
        clocks = asyncio.create_task(timers.run())
        local_listeners.append(timers.changed)
        try:
            while True:
                try:
                    await self.housekeeping_async()
                except Exception:
                    log.exception("croupier pass failed")
                await asyncio.sleep(self.interval)
        finally:
            local_listeners.remove(timers.changed)
            clocks.cancel()

    def _odds_done(self, hand_id: int, task: asyncio.Task[Any]) -> None:
        self.odds_tasks.pop(hand_id, None)
        odds_under_way.discard(hand_id)

    async def housekeeping_async(self) -> list[tuple[int, str]]:
        """What belongs to no table's clock: the per-pass hooks (on a reader thread, every
        ``HOOKS_INTERVAL``), the run-out odds (each a task computing in a worker thread),
        tidying hosted games."""
        now = timezone.now()
        done: list[tuple[int, str]] = []
        if self._due("hooks", HOOKS_INTERVAL, now):
            await database_sync_to_async(_croupier_pass)(now)
        for hand_id, _ in await read_async(hands_awaiting_odds)():
            if hand_id not in odds_under_way and hand_id not in self.odds_failed:
                task = asyncio.create_task(self.odds_fill_async(hand_id))
                self.odds_tasks[hand_id] = task
                odds_under_way.add(hand_id)
                task.add_done_callback(partial(self._odds_done, hand_id))
        if self._due("tidy", TIDY_INTERVAL, now):
            closed = await published_after(write_async(0, _tidy)(now))
            done.extend((pk, "closed-empty") for pk in closed)
        return done

    async def tick_async(self) -> list[tuple[int, str]]:
        """``tick`` on the server's event loop: the housekeeping, then every due table's clock,
        each its own call on the thread of that table's writes (players' actions queued there
        go in between), one table at a time (all at once made the passes of several
        processes wait on each other's row locks). The server's clocks are timers
        (``run``); this whole pass is for tests and operators."""
        done = await self.housekeeping_async()
        now = timezone.now()
        for table_id in await read_async(clock.tables_due)(now):
            what = await published_after(write_async(table_id, _tick_table)(table_id, now))
            if what:
                done.append((table_id, what))
        return done

    def odds_fill(self, hand_id: int, now: datetime | None = None) -> bool:
        """Compute and store the chances of hand ``hand_id``'s run-out on this thread, outside
        any transaction (``tick``: tests and the standalone command). Returns whether any
        were stored; an error is logged, not raised."""
        try:
            work = runout_odds_work(hand_id)
            if work is None:
                return False
            runs = runout_odds_compute(work, self.odds)
            ev_net = allin_ev_compute(work, runs)
            return runout_odds_store(
                hand_id=hand_id, runs=runs, now=now or timezone.now(), ev_net=ev_net
            )
        except Exception:
            log.exception("croupier: run-out odds of hand %s", hand_id, extra={"hand": hand_id})
            self.odds_failed.add(hand_id)
            return False

    async def odds_fill_async(self, hand_id: int) -> bool:
        """``odds_fill`` on the server: the hand is read on a reader thread, the odds are
        computed in a worker thread (the event loop, the readers and every table's writes go
        on meanwhile), and stored by one short locked write on the table's write thread."""
        try:
            work = await read_async(runout_odds_work)(hand_id)
            if work is None:
                return False
            runs = await asyncio.to_thread(runout_odds_compute, work, self.odds)
            ev_net = await asyncio.to_thread(allin_ev_compute, work, runs)
            store = write_async(work.table_id, runout_odds_store)
            return await published_after(
                store(hand_id=hand_id, runs=runs, now=timezone.now(), ev_net=ev_net)
            )
        except Exception:
            log.exception("croupier: run-out odds of hand %s", hand_id, extra={"hand": hand_id})
            self.odds_failed.add(hand_id)
            return False

    async def odds_settled(self) -> None:
        """Wait for this process's run-out computations under way (tests, shutting down)."""
        while self.odds_tasks:
            await asyncio.gather(*list(self.odds_tasks.values()), return_exceptions=True)


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


def _croupier_pass(now: datetime) -> None:
    """What other apps do once per pass (``hooks.croupier_pass``: tournaments starting at
    their time); an error is logged, not raised."""
    for listener in hooks.croupier_pass:
        try:
            listener(now)
        except Exception:
            log.exception("croupier: %s", listener)


def _tick_table(table_id: int, now: datetime) -> str | None:
    """``_tick_owned_table``, unless another process runs the table (its clock ticks it): the
    timers arm none such (``clock.tables_due_at``), but its lease may have changed hands
    since they read it."""
    try:
        if held_elsewhere(table_id):
            return None
    except Exception:
        log.exception("croupier: table %s", table_id, extra={"table": table_id})
        return None
    return _tick_owned_table(table_id, now)


def _tick_owned_table(table_id: int, now: datetime, live: LiveHand | None = None) -> str | None:
    """``clock_tick`` for one table, skipped if the table is busy (the next pass comes back
    to it); an error is logged, not raised (one broken table must not stop the others).
    Without ``_tick_table``'s look at the lease: for the runtime that holds it, which runs it
    in a transaction fenced by it, on its hand in memory (``live``: ``tables.live.runtime``)."""
    try:
        return clock.clock_tick(table=table_id, now=now, skip_busy=True, live=live)
    except Exception:
        log.exception("croupier: table %s", table_id, extra={"table": table_id})
        return None


def _tidy(now: datetime) -> list[int]:
    """``hosted_games_tidy``, an error logged rather than raised."""
    try:
        return hosting.hosted_games_tidy(now=now)
    except Exception:
        log.exception("croupier: tidying hosted games")
        return []


_tasks: dict[int, asyncio.Task[Any]] = {}


def ensure_started() -> asyncio.Task[Any] | None:
    """Start this process's croupier on the running event loop (once per loop), unless
    ``POKER_CROUPIER`` is off."""
    if not settings.POKER_CROUPIER:
        return None
    loop = asyncio.get_running_loop()
    task = _tasks.get(id(loop))
    if task is None or task.done():
        task = loop.create_task(Croupier().run())
        _tasks[id(loop)] = task
    return task


def autostart(application: Application) -> Application:
    """Wrap an ASGI application so the croupier starts with the first connection."""

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            ensure_started()
        return await application(scope, receive, send)

    return app


# --- a run-out's odds, computed by its table's runtime ------------------------------------
#
# A write of the runtime (``tables.live.runtime``) that leaves its hand with a run-out whose
# chances are unknown (``Hand.odds_pending``: ``tables.services.runouts.runout_record``, at the
# action that ended the betting or the players' choice of runs) starts them at once: computed
# from the runtime's engine hand (nothing read, nothing replayed) in a worker thread, off the
# event loop and the write threads, with this module's functions, then stored by
# ``runout_odds_store`` as a write of the runtime, in the table's turn and fenced by its
# lease, whose next version is built from the one before (``tables.selectors.snapshot_made``).
# The croupier's pass stays the fallback for the hands nobody here is computing.

#: Its errors are the runtime's.
runtime_log = logging.getLogger("tables.live.runtime")
#: The engine's odds street by street a runtime computes with (tests put a slow or failing
#: one here).
engine_odds: OddsFunction = runout_odds
#: The computations under way, kept from the garbage collector until they end.
_running: set[asyncio.Task[None]] = set()

#: A write in the table's turn, fenced by the lease, its version shown (``TableRuntime.tick``)
#: and the name its CPU time is counted under.
InTurn = Callable[[Callable[[LiveHand | None], Any], str], Awaitable[Any]]
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
            runtime_log.exception("table %s: run-out odds not started", self.table_id)
            return
        odds_under_way.add(hand.pk)
        self.task = asyncio.ensure_future(self._fill(OddsWork(hand.pk, self.table_id, state)))
        _running.add(self.task)
        self.task.add_done_callback(_running.discard)

    async def _fill(self, work: OddsWork) -> None:
        try:
            runs, ev_net = await asyncio.to_thread(_computed, work, engine_odds)

            def store(_hand: LiveHand | None) -> bool:  # a run-out's: no hand to act on
                now = timezone.now()
                return runout_odds_store(hand_id=work.hand_id, runs=runs, now=now, ev_net=ev_net)

            await self.in_turn(store, "odds")
        except LeaseLost:  # the table moved, or its runtime ended: the croupier's now
            pass
        except Exception:  # left to the croupier, which finds the hand still waiting
            runtime_log.exception(
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
