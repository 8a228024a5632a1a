"""Per-table clocks: one asyncio timer per table, armed for the moment something may be due there
(``tables.services.clock.tables_due_at``: a hand to start, an action deadline, a bot's turn),
and re-armed whenever the table changes. Nothing polls the tables.

- When a timer fires, ``clock_tick`` runs for its table alone, on the thread of that table's
  writes (a player's action queued there goes in between), then its timer is armed for the
  table's next moment (below).
- A change this process made (``tables.services.events.local_listeners``, after its commit)
  re-arms that table's timer: an action moves the deadline, a hand that ended sets the next
  one's start. So does a tick that ended. A change that the table's runtime here made (a
  player's action, a tick in its turn) comes with the table as its write left it
  (``AFTER_WRITE``), from which the timer is armed at once (``clock.due_after_write``: the
  rule of ``clock.tables_due_at``, on the same facts), without reading the table again;
  unless a newer version was heard of meanwhile, and a read begun before that change arms
  nothing for the table (it may have missed the change).
- Any other change, and a tick that did nothing, has the table's next moment read again.
  The reads wait ``REREAD_DELAY_SECONDS`` and one is in flight at a time, so the tables that
  change and tick meanwhile are read together, in one query (a timer re-armed that much
  later either fires a little late, or early and finds nothing due under the lock).
- The deadlines live in the database, so every ``RESYNC_SECONDS`` (and at start) one query
  reads every table's next moment and re-arms what moved: a restarted process carries on
  where the stopped one left off, and the changes another process made are heard in time
  for its clocks (a timer that fires early does nothing: ``clock_tick`` decides under the
  lock).
- A table due but where the tick did nothing (a bot still thinking, no one to deal to yet,
  a tournament's rules that wait for a time) is looked at again after ``RETRY_SECONDS``, as
  every table was by the old poll.

A table whose lease another process holds (``tables.services.leases``) is that process's to
run: the reads leave it out, so no timer here is armed for it; the first resync after that
lease has expired (its owner died) arms it again. A timer armed before another process took
the table fires once: the tick looks at the lease (``croupier._tick_table``) and does
nothing, and the re-read leaves the table alone. A runtime here that takes the lease
(``TABLE_OWNED``) has its table read again at once, not at the next resync; the table that
such a runtime's write left is its own lease's (the write renewed it), so its timer is armed
from it without a look at the lease.

Two processes may both fire for one table: ``clock_tick`` is a locked, versioned service that
skips a table another transaction holds, so nothing is done twice.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db import DatabaseError
from django.utils import timezone

from tables.db.rows import IDS_AT_ONCE
from tables.db.threads import read_async, write_async
from tables.metrics import CLOCK_LATENESS_SECONDS
from tables.services import clock
from tables.services.events import AFTER_WRITE, TABLE_OWNED, published_after

if TYPE_CHECKING:
    from tables.selectors.snapshot import Snapshot
    from tables.services.live_hand import LiveHand

log = logging.getLogger(__name__)

#: Seconds between two reads of every table's next moment (a restart, another process).
RESYNC_SECONDS = 5.0
#: Seconds before a due table where nothing was done is looked at again.
RETRY_SECONDS = 0.5
#: Seconds a re-read after a change or a tick waits for the others to join it.
REREAD_DELAY_SECONDS = 0.05

#: (table id, now) -> what the tick did (None: nothing); on the table's write thread.
Tick = Callable[[int, datetime], Awaitable[str | None]]
#: (table id, now, the running hand as the table's runtime holds it) -> what the tick did,
#: not looking who holds the table's lease: for the runtime, which fences it with its own.
OwnedTick = Callable[[int, datetime, "LiveHand | None"], str | None]
#: (table id, the tick's work given the runtime's hand) -> the tick run in the turn of the
#: table's runtime in this process, or None where it has none (the live layer registers one:
#: ``tables.live.runtime``).
TurnRunner = Callable[
    [int, Callable[["LiveHand | None"], str | None]], Awaitable[str | None] | None
]
turn_runners: list[TurnRunner] = []


class TableTimers:
    """One event loop's timers, one per table. ``tick``: runs one table's clock (the croupier
    passes its own, which logs errors instead of raising them)."""

    def __init__(self, tick: Tick) -> None:
        self.tick = tick
        self.loop = asyncio.get_running_loop()
        # The context its tasks run in: not the one of a service's thread that published a
        # change (asgiref would take a read there for a nested call on that thread).
        self.context = contextvars.copy_context()
        self.handles: dict[int, asyncio.TimerHandle] = {}
        self.due: dict[int, datetime] = {}  # when each armed timer fires (wall clock)
        self.ticking: dict[int, asyncio.Task[Any]] = {}
        self.ticked_to: dict[int, Snapshot] = {}  # a tick's table after its write, for its end
        # To re-read: each table changed or ticked since the re-read in flight began, with the
        # moment of its tick when that tick did nothing (None: changed, or the tick did work).
        self.changed_tables: dict[int, datetime | None] = {}
        self.rereader: asyncio.Task[None] | None = None  # the re-read in flight
        self.versions: dict[int, int] = {}  # the newest version of each table heard of
        # Each table armed from its runtime's write (``AFTER_WRITE``), with its turn in
        # ``self.told``: a read begun before that turn may have missed the write.
        self.told: dict[int, int] = {}
        self.tells = 0
        self.fired = 0  # timers that fired (for operators and tests)
        self.rereads = 0  # re-reads after changes and ticks (for operators and tests)
        self.closed = False

    # --- arming ------------------------------------------------------------------------
    def arm(self, table_id: int, at: datetime | None) -> None:
        """Fire ``table_id``'s clock at ``at`` (``clock.DUE_NOW``: at once); None disarms it."""
        if at is not None and self.due.get(table_id) == at and table_id in self.handles:
            return
        handle = self.handles.pop(table_id, None)
        if handle is not None:
            handle.cancel()
        self.due.pop(table_id, None)
        if at is None:
            return
        now = timezone.now()
        delay = max(0.0, (at - now).total_seconds())
        self.due[table_id] = at
        self.handles[table_id] = self.loop.call_later(delay, self._fire, table_id, max(at, now))

    def armed_at(self, table_id: int) -> datetime | None:
        """When ``table_id``'s timer fires (None: not armed)."""
        return self.due.get(table_id) if table_id in self.handles else None

    async def resync(self, table_ids: list[int] | None = None) -> None:
        """Read the next moment of every table (or of ``table_ids``) in one query and arm
        their timers; a table the query no longer lists (closed, emptied) is disarmed."""
        begun = self.tells
        found = await read_async(clock.tables_due_at)(table_ids)
        for table_id in set(self.handles) if table_ids is None else table_ids:
            if table_id not in found and self._read_holds(table_id, begun):
                self.arm(table_id, None)
        for table_id, at in found.items():
            if self._read_holds(table_id, begun):
                self.arm(table_id, at)
        if table_ids is None:  # what was heard of tables no longer here goes with them
            for table_id in self.versions.keys() - found.keys():
                if self._read_holds(table_id, begun):
                    self.versions.pop(table_id, None)
                    self.told.pop(table_id, None)

    def _read_holds(self, table_id: int, begun: int) -> bool:
        """Whether a read begun at ``begun`` (``self.tells`` then) may arm ``table_id``: not
        while a tick is under way there (it re-arms the table when it ends), nor after a
        runtime's write told the table's next moment since (the read may predate it)."""
        return table_id not in self.ticking and self.told.get(table_id, -1) <= begun

    def changed(self, event: dict[str, Any]) -> None:
        """A change this process made (``local_listeners``, on the event loop): the table's
        deadlines may have moved; or this process took the table's lease (``TABLE_OWNED``):
        its clock, left to the previous owner, runs here now. A change that its runtime here
        made comes with the table after it (``AFTER_WRITE``): the timer is armed from that at
        once, unless a newer version was heard of meanwhile; any other is read again."""
        table_id = event.get("table_id")
        if event.get("type") not in ("table.changed", TABLE_OWNED) or table_id is None:
            return
        if asyncio.get_running_loop() is not self.loop:  # another loop's change (tests)
            return
        self.versions[table_id] = max(self.versions.get(table_id, 0), event.get("version", 0))
        after: Snapshot | None = event.get(AFTER_WRITE)
        if table_id in self.ticking:  # its tick re-arms it, from its own write where it wrote
            if after is not None:
                self.ticked_to[table_id] = after
            return
        if after is None or not self._arm_after_write(table_id, after):
            self._reread_soon(table_id, None)

    def _arm_after_write(self, table_id: int, after: Snapshot) -> bool:
        """Arm ``table_id``'s timer from ``after``, the table as its runtime's write left it
        (``clock.due_after_write``); False, arming nothing, where a newer version was heard
        of (another writer's change came first: the table is read again)."""
        if after.version < self.versions.get(table_id, 0) or self.closed:
            return False
        self.versions[table_id] = after.version
        self.changed_tables.pop(table_id, None)  # nothing a re-read would add
        self.tells += 1
        self.told[table_id] = self.tells
        self.arm(table_id, clock.due_after_write(after))
        return True

    def _reread_soon(self, table_id: int, idle_tick: datetime | None) -> None:
        """Re-read ``table_id``'s next moment with the next batch (``idle_tick``: the moment
        of its tick that did nothing)."""
        if self.closed:
            return
        # a change since makes it a change (its next moment is news, not a retry)
        earlier = self.changed_tables.get(table_id, idle_tick)
        self.changed_tables[table_id] = idle_tick if earlier is not None else None
        if self.rereader is None or self.rereader.done():
            self.rereader = self.loop.create_task(self._reread(), context=self.context.copy())
            self.rereader.add_done_callback(_log_failure)

    async def _reread(self) -> None:
        """Re-read the changed and ticked tables until none is left, a batch at a time: those
        that change while a read is in flight (it may have begun before their commit) go in
        the next."""
        while self.changed_tables:
            await asyncio.sleep(REREAD_DELAY_SECONDS)
            batch = dict(sorted(self.changed_tables.items())[:IDS_AT_ONCE])
            if not batch:  # each armed since from its runtime's write
                break
            for table_id in batch:
                del self.changed_tables[table_id]
            self.rereads += 1
            begun = self.tells
            try:
                found = await read_async(clock.tables_due_at)(list(batch))
            except DatabaseError:
                log.warning("clock timers: database unreachable, the next resync re-arms them")
                # a ticked table is looked at again soon; a changed one keeps its timer
                batch = {table_id: at for table_id, at in batch.items() if at is not None}
                found = dict.fromkeys(batch, clock.DUE_NOW)
            for table_id, idle_tick in batch.items():
                if self._read_holds(table_id, begun):
                    self.arm(table_id, _next_look(found.get(table_id), idle_tick))

    # --- firing ------------------------------------------------------------------------
    def _fire(self, table_id: int, fire_at: datetime | None = None) -> None:
        """``fire_at``: the moment it was armed to fire (its lateness is measured from it)."""
        self.handles.pop(table_id, None)
        self.due.pop(table_id, None)
        if fire_at is not None:
            CLOCK_LATENESS_SECONDS.observe(max(0.0, (timezone.now() - fire_at).total_seconds()))
        if table_id in self.ticking:
            return
        self.fired += 1
        task = self.loop.create_task(self._tick(table_id), context=self.context.copy())
        self.ticking[table_id] = task
        task.add_done_callback(_log_failure)

    async def _tick(self, table_id: int) -> None:
        now = timezone.now()
        what = None
        try:
            what = await self.tick(table_id, now)
        except DatabaseError:
            log.warning(
                "table %s: clock skipped, database unreachable", table_id, extra={"table": table_id}
            )
        finally:
            self.ticking.pop(table_id, None)
            after = self.ticked_to.pop(table_id, None)
        # not once cancelled; a tick that did nothing is read again (``_next_look``)
        if what is None or after is None or not self._arm_after_write(table_id, after):
            self._reread_soon(table_id, now if what is None else None)

    async def _quietly(self, work: Awaitable[None]) -> None:
        try:
            await work
        except DatabaseError:
            log.warning("clock timers: database unreachable, the next resync re-arms them")

    async def run(self) -> None:
        """Resync now and every ``RESYNC_SECONDS`` (the timers do the rest)."""
        try:
            while True:
                await self._quietly(self.resync())
                await asyncio.sleep(RESYNC_SECONDS)
        finally:
            self.close()

    def close(self) -> None:
        """Disarm every timer; a tick under way when it closes arms nothing after."""
        self.closed = True
        if self.rereader is not None:
            self.rereader.cancel()
        for handle in self.handles.values():
            handle.cancel()
        self.handles.clear()
        self.due.clear()


def _next_look(at: datetime | None, idle_tick: datetime | None) -> datetime | None:
    """When to fire a timer next: at ``at``, the table's next moment; but a table that is due
    at the moment of a tick that did nothing there (``idle_tick``: a bot still thinking, no
    one to deal to yet) is looked at again ``RETRY_SECONDS`` later, not ticked on and on."""
    if at is not None and idle_tick is not None and at <= idle_tick:
        return max(at, timezone.now()) + timedelta(seconds=RETRY_SECONDS)
    return at


def _log_failure(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("clock timer failed", exc_info=task.exception())


def write_tick(
    tick_table: Callable[[int, datetime], str | None], tick_owned: OwnedTick | None = None
) -> Tick:
    """``tick_table`` (sync) on the thread of that table's writes: in the table's turn where
    this process runs the table (``turn_runners``: ``tick_owned``, the same tick without
    ``tick_table``'s look at who runs the table, on the runtime's hand; default
    ``tick_table``), else on its own, what it changed published from the loop once done."""

    async def tick(table_id: int, now: datetime) -> str | None:
        def owned(live: LiveHand | None) -> str | None:
            if tick_owned is None:
                return tick_table(table_id, now)
            return tick_owned(table_id, now, live)

        for runner in turn_runners:
            turn = runner(table_id, owned)
            if turn is not None:
                return await turn
        return await published_after(write_async(table_id, tick_table)(table_id, now))

    return tick
