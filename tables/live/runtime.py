"""``TableRuntime``: a live table's one home in a server process.

One object per table per process that has sockets on it (per event loop and channel layer).
It holds the table as it is now (``Snapshot``: rows, the hand and its engine state in memory),
its sockets, and one queue of work run strictly in order: every request of its sockets, the
table's clock, a socket joining, a change another writer made (every request answered within
``REQUEST_SECONDS``). Nothing else renders the table or acts on it in this process.

- **Owner.** One process at a time runs a table: the one holding its lease
  (``tables.services.leases``). The owner applies each command to its engine hand in place
  (``tables.services.live_hand.LiveHand``: no read, no replay), in one short transaction that
  also renews the lease (an owner that lost it cannot commit), then builds the next version
  from what it knows (``snapshot_after_action``; else reads it on the write's thread, in the
  same trip: ``written_and_read``) and sends each socket its frame. Its clock's ticks
  are fenced by the lease too. A change it did not make (a REST call, an admin, the other
  processes' clock) arrives as ``table.changed`` at a version it did not expect: it reads
  the table again.
- **Follower.** A socket may connect to a process that does not own its table: that
  process's runtime forwards its requests to the owner's channel (``runtime.request``) and
  relays the answer; its sockets' frames come from each version the owner publishes (its own
  changes, while a follower says every second that it follows): one action later, built on
  the follower's own engine hand from the action the owner names (``tables.live.refresh``),
  else read. A follower takes the lease when the owner's expires (the owner died or lost
  the database), and then owns the table, rebuilt from the database log.
- **One clock per loop** (``_keep_up``, every ``KEEP_UP_SECONDS``): renews the owners' leases,
  lets followers take expired ones, and catches up with changes no message told of (over
  Redis, pub/sub keeps nothing for a process that was not listening; in one process, another
  process's command wrote the database) or that it heard of but could not read.

The embedded set-up (one process, SQLite, the in-memory layer) is the same code: every runtime
is its table's owner.

Here: the sockets, the queue, the commands and the write's trip (``written_and_read``), the
click's whole way through the runtime. The lease, forwarding, stopping and the clocks are
``tables.live.ownership``'s; what it reads of a change it did not make, ``tables.live.refresh``'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from channels.layers import BaseChannelLayer, get_channel_layer
from django.db import DatabaseError

from tables.croupier import RunoutOdds
from tables.db.threads import write_async
from tables.live.ownership import REQUEST_SECONDS, TOO_SLOW, RuntimeKey, TableOwnership
from tables.live.refresh import TableReads, acted_members
from tables.models import Player
from tables.operations import OPERATIONS, run_op
from tables.selectors.snapshot import Snapshot, load_snapshot, snapshot_after_action
from tables.selectors.snapshot_made import (
    snapshot_after_hand,
    snapshot_after_odds,
    snapshot_after_street,
)
from tables.selectors.snapshot_seated import snapshot_after_seat
from tables.services.events import AFTER_WRITE, lease_fenced, outbox, publish, table_group
from tables.services.hands import hand_act
from tables.services.hands_made import (
    Made,
    OddsStored,
    StreetShown,
    hands_made,
    notices_posted,
)
from tables.services.leases import MOVING, PROCESS, LeaseLost, lease_release
from tables.services.live_hand import LiveHand, held_hand
from tables.services.seats_made import SeatMade, seats_made
from tables.text import act_fields

log = logging.getLogger(__name__)
T = TypeVar("T")


class RuntimeSocket(Protocol):
    """A socket as its runtime serves it (``TableConsumer``, which this module does not
    import)."""

    runtime: TableRuntime | None
    closed: bool

    @property
    def channel_layer(self) -> BaseChannelLayer: ...
    @property
    def table_id(self) -> int: ...
    async def show(self, snapshot: Snapshot, again: bool = False) -> None: ...
    async def table_chat(self, event: dict[str, Any]) -> None: ...
    async def close(self, code: int | bool | None = None, reason: str | None = None) -> None: ...


#: Tells the sender how its request went (its message), before the new version goes out.
Answer = Callable[[str], Awaitable[None]] | None


class TableRuntime(TableReads, TableOwnership):
    """One table in this process: its state, its sockets, its queue of work (see the module)."""

    #: (event loop, channel layer, table id) -> runtime
    runtimes: ClassVar[dict[RuntimeKey, TableRuntime]] = {}
    #: For operators and the benchmark (``tables.live.operators.process_figures``): how long
    #: each request forwarded to another process took to be answered.
    forwarded_seconds: ClassVar[deque[float]] = deque(maxlen=100_000)
    #: The same counts as each runtime's, for the whole process since it started (and the
    #: leases taken: a table moving here).
    totals: ClassVar[Counter[str]] = Counter()

    def __init__(self, key: RuntimeKey, layer: BaseChannelLayer, table_id: int) -> None:
        self.key, self.layer, self.table_id = key, layer, table_id
        self.group = table_group(table_id)
        self.loop = key[0]
        self.sockets: set[RuntimeSocket] = set()
        self.snapshot: Snapshot | None = None
        self.version = 0  # the newest version known to exist (its snapshot may be on its way)
        self.awaited = 0  # a version the last catch-up found missing here
        self.epoch: int | None = None  # the lease this process holds (None: a follower)
        self.held_until = 0.0  # monotonic: when it stops acting unless the lease was renewed
        self.owner_channel = ""  # a follower's: where it forwards requests
        self.live: LiveHand | None = None
        self.queue = asyncio.Queue()  # typed by ``TableOwnership``
        self.ready: asyncio.Future[None] = self.loop.create_future()
        self.channel = ""
        self.listener: asyncio.Task[None] | None = None
        self.worker: asyncio.Task[None] | None = None
        self.forwarded: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.requesters: dict[int, Player] = {}  # whose requests came forwarded (the owner's)
        self.ids = itertools.count(1)
        self.reads = 0  # the table read from the database (for tests and the benchmark)
        self.commands = 0  # commands carried out as the owner
        self.forwards = 0  # requests sent to the owner elsewhere
        self.revealed_at: datetime | None = None  # a timed broadcast's last reveal pushed
        self.odds = RunoutOdds(table_id, self.tick, self.call, lambda: self.snapshot)

    # --- sockets ---------------------------------------------------------------------------
    @classmethod
    async def join(cls, consumer: RuntimeSocket) -> TableRuntime:
        """``consumer`` follows its table: the process's runtime of it, made (and its lease
        tried) on the first socket. Its first frame is ``show_latest``'s."""
        layer = consumer.channel_layer
        key: RuntimeKey = (asyncio.get_running_loop(), layer, consumer.table_id)
        runtime = cls.runtimes.get(key)
        existing = runtime is not None
        if runtime is None:
            runtime = cls.runtimes[key] = cls(key, layer, consumer.table_id)
            runtime.listener = asyncio.ensure_future(runtime._listen())
            runtime.worker = asyncio.ensure_future(runtime._work())
            cls._clock_running()
        runtime.sockets.add(consumer)
        consumer.runtime = runtime
        try:
            await asyncio.shield(runtime.ready)
            if existing and runtime.listener is not None and not runtime.listener.done():
                # Join the group again for each socket: a Redis that restarted has forgotten
                # it, and the sockets it cut off reconnect here.
                await layer.group_add(runtime.group, runtime.channel)
        except Exception:
            runtime.sockets.discard(consumer)
            raise
        return runtime

    async def leave(self, consumer: RuntimeSocket) -> None:
        self.sockets.discard(consumer)
        if not self.sockets and self.runtimes.get(self.key) is self:
            del self.runtimes[self.key]
            for task in (self.listener, self.worker):
                if task is not None:
                    task.cancel()
            while not self.queue.empty():  # nobody will run them: their callers stop waiting
                _, future = self.queue.get_nowait()
                future.cancel()
            if self.epoch is not None:
                self.epoch = None
                with contextlib.suppress(DatabaseError):
                    await write_async(self.table_id, lease_release)([self.table_id], PROCESS)

    @classmethod
    def following(cls, table_id: int, layer: BaseChannelLayer | None = None) -> TableRuntime | None:
        """This loop's runtime of ``table_id`` on ``layer`` (None: no socket here follows)."""
        layer = layer or get_channel_layer()
        return cls.runtimes.get((asyncio.get_running_loop(), layer, table_id))

    @property
    def owner(self) -> bool:
        return self.epoch is not None and time.monotonic() < self.held_until

    def followed(self) -> bool:  # here, not in ``ownership``: each change asks it
        return time.monotonic() < self.followed_until

    # --- the queue -------------------------------------------------------------------------
    async def call(self, work: Callable[[], Awaitable[T]]) -> T:
        """Run ``work`` in the table's turn (after everything queued before it)."""
        if self.worker is None or self.worker.done():
            raise LeaseLost(MOVING)  # the runtime ended (its last socket left, its layer failed)
        future: asyncio.Future[T] = self.loop.create_future()
        self.queue.put_nowait((work, future))
        return await future

    async def _work(self) -> None:
        while True:
            work, future = await self.queue.get()
            if future.done():  # its caller stopped waiting (``request``'s limit): not done
                continue
            try:
                result = await work()
            except asyncio.CancelledError:
                if not future.done():
                    future.cancel()
                raise
            except BaseException as error:  # the caller's to handle
                if not future.done():
                    future.set_exception(error)
                else:
                    table = self.table_id
                    extra = {"table": table}
                    log.warning("table %s: queued work failed (%r)", table, error, extra=extra)
            else:
                if not future.done():
                    future.set_result(result)

    # --- the table's state -----------------------------------------------------------------
    def _now(self, snapshot: Snapshot | None) -> None:
        """``snapshot`` is the table now (its engine hand this runtime's to act on)."""
        self.snapshot = snapshot
        self.live = held_hand(snapshot)
        if snapshot is not None:
            self.version = max(self.version, snapshot.version)

    async def _fan_out(self, snapshot: Snapshot, again: bool = False) -> None:
        for consumer in list(self.sockets):
            if consumer.closed:
                continue
            try:
                await consumer.show(snapshot, again)
            except Exception:  # one broken socket must not starve the others
                log.exception("table %s: update not sent", self.group)

    # --- commands --------------------------------------------------------------------------
    async def request(
        self,
        user: Any,
        player: Player,
        data: dict[str, Any],
        answer: Answer = None,
        fields: dict[str, Any] | None = None,
    ) -> str:
        """Carry out a socket's request in the table's turn: here if this process owns the
        table, else at the owner's. ``answer`` gets the sender's message before any socket
        gets the new version; raises what the service raised (nothing changed). ``fields``:
        the request's fields parsed already (the REST play API's), ``data`` its ``op``."""
        # A follower that knows the owner's channel forwards at once (its clock looks again
        # every second); one that does not looks (and takes a free lease).
        if not self.owner and (self.owner_channel or not await self._take_if_free()):
            message = await self._forward(player, data, fields)
            if answer is not None:
                await answer(message)
            return message
        return await self._in_turn(lambda: self._command(user, player, data, answer, fields))

    async def _in_turn(self, work: Callable[[], Awaitable[T]]) -> T:
        try:  # every request is answered: a turn stuck behind something is not waited out
            return await asyncio.wait_for(self.call(work), REQUEST_SECONDS)
        except TimeoutError:
            log.warning("table %s: a request waited too long", self.table_id)
            raise LeaseLost(TOO_SLOW) from None

    async def _command(
        self,
        user: Any,
        player: Player,
        data: dict[str, Any],
        answer: Answer = None,
        fields: dict[str, Any] | None = None,
    ) -> str:
        # An action goes straight to its service (``hand_act``), its fields parsed here: a
        # malformed one is refused before the write thread (the other ops': in ``run_op``).
        op = data.get("op")
        act = (act_fields(data) if fields is None else fields) if op == "act" else None
        await self._owned_latest()
        live = self.live if act is not None else None
        request: Callable[[], str] = (
            functools.partial(_act, self.table_id, player, act, live)
            if act is not None
            else functools.partial(
                run_op, table_id=self.table_id, user=user, data=data, player=player
            )
            if fields is None
            else functools.partial(OPERATIONS[str(op)].carry_out, self.table_id, player, **fields)
        )
        return await self._apply(request, live, _command_name(data), answer)

    async def carry_out(self, work: Callable[[], T], name: str) -> T:
        """Another writer's change (``tables.operations.in_table_turn``: a host's control) as
        the owner's command, its version shown; ``LeaseLost`` where it cannot own the table."""

        async def in_turn() -> T:
            await self._owned_latest()
            return await self._apply(work, None, name)

        return await self._in_turn(in_turn)

    async def _apply(
        self, work: Callable[[], T], live: LiveHand | None, name: str, answer: Answer = None
    ) -> T:
        written = await self._fenced(work, live, name)
        self.commands += 1
        self.totals["commands"] += 1
        if answer is not None:
            await answer(str(written.result))
        await self._publish_and_show(written)
        return written.result

    async def _owned_latest(self) -> None:
        if not self.owner and not await self._take():  # late renewing: its own lease again
            raise LeaseLost(MOVING)
        await self._latest()

    async def _latest(self) -> Snapshot | None:
        """The table as it is now: read first (``_read``) where this runtime has nothing yet
        or heard of a later version; a click's own check, which most often reads nothing."""
        if self.snapshot is None or self.snapshot.version < self.version:
            return await self._read()
        return self.snapshot

    async def _fenced(self, work: Callable[[], T], live: LiveHand | None, name: str) -> Written[T]:
        """``work`` in one transaction with the lease, and the table after it (see
        ``_write``); once more after taking the lease again if it had expired with nobody
        taking it (a stalled loop, a clock that jumped)."""
        for attempt in (1, 2):
            if self.epoch is None and not await self._take():
                raise LeaseLost(MOVING)
            epoch = self.epoch  # the one it acts with, whatever the clock finds meanwhile
            assert epoch is not None  # held: just checked or taken, no wait since
            try:
                return await self._write(epoch, work, live, name)
            except LeaseLost:
                self.epoch = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def _write(
        self, epoch: int, work: Callable[[], T], live: LiveHand | None, name: str
    ) -> Written[T]:
        """``work`` in one transaction that renews the lease taken at ``epoch`` (``LeaseLost``:
        nothing written), and the table after it, built or read in the same trip to the write
        thread (``written_and_read``); ``name``: what its CPU time is counted as. ``live``
        changed in place and then refused or failed is dropped: the table is read again."""
        fenced = functools.partial(lease_fenced, self.table_id, PROCESS, epoch, work)
        try:
            return await write_async(self.table_id, written_and_read, name)(
                self.table_id, fenced, self.snapshot, live
            )
        finally:
            if live is not None and live.spent:
                self.snapshot, self.live = None, None

    async def _publish_and_show(self, written: Written[Any]) -> None:
        """After a write of this runtime: its sockets get the new version (built in memory
        after an action, a deal or a hand's end, else read with the write), then the other
        processes hear of it."""
        if written.read:
            self.reads += 1
            self.totals["reads"] += 1
        if written.version:
            if written.same_hand:  # one action later, built in memory: ``live`` goes on
                self.snapshot, self.version = written.snapshot, written.version
            else:  # None where the read failed: the next change shows it
                self.version = max(self.version, written.version)
                self._now(written.snapshot)
            if written.snapshot is not None:
                await self._fan_out(written.snapshot)
                hand = written.snapshot.hand
                if hand is not None and hand.odds_pending:  # a run-out waits for its chances
                    self.odds.after(written.snapshot)
        for event in written.events:  # its own change: on the layer for followers only
            group = event.pop("_group", "")
            mine = event.get("type") == "table.changed" and event.get("table_id") == self.table_id
            after = {AFTER_WRITE: written.snapshot} if mine and written.snapshot else None
            others = not mine or self.followed()
            if mine and others and written.same_hand and event["version"] == written.version:
                assert written.snapshot is not None  # built one action later
                event.update(acted_members(written.snapshot))  # followers build it too
            try:
                await publish(event, group, others=others, local=after)
            except Exception:  # a lost notification must not undo a committed action
                log.exception("could not publish %s", event)


def _act(table_id: int, player: Player, fields: dict[str, Any], live: LiveHand | None) -> str:
    """A socket's action (``act_fields``), on the runtime's hand in memory (``live``); the
    sender's message: none (the new version shows what it did)."""
    hand_act(table=table_id, player=player, live=live, **fields)
    return ""


def _command_name(data: dict[str, Any]) -> str:
    """What a command's CPU time counts as: a known op (a made-up one: a new count each time)."""
    op = data.get("op")
    return f"command {op}" if isinstance(op, str) and op in OPERATIONS else "command (other)"


# --- the write's trip: the write, then the table after it ---------------------------------


@dataclass
class Written(Generic[T]):
    """What a write returned, what it published, and the table after it."""

    result: T
    #: What the write published on commit, for the runtime to publish from the event loop.
    events: list[dict[str, Any]] = field(default_factory=list)
    #: The newest version its ``table.changed`` events say (0: it changed nothing).
    version: int = 0
    #: The table at ``version`` or later (None: unchanged, no such table, or the read failed).
    snapshot: Snapshot | None = None
    #: The table was read from the database for it (else built, or not needed).
    read: bool = False
    #: Built one action later on the runtime's hand, which goes on (else a new hand in play).
    same_hand: bool = False


def _built(before: Snapshot, made: Made, posted: bool) -> Snapshot | None:
    """``before`` one version later, where the write noted all it made (None: read it);
    ``posted``: it posted a notice."""
    if isinstance(made, OddsStored):
        return snapshot_after_odds(
            before, made.version, made.hand_id, made.runout, made.odds_pending, made.next_hand_at
        )
    if isinstance(made, StreetShown):
        return snapshot_after_street(
            before, made.version, made.hand_id, made.runout, made.next_hand_at
        )
    return snapshot_after_hand(
        before, made.version, made.hand, made.decisions, made.state, notices_posted=posted
    )


def written_and_read(
    table_id: int, write: Callable[[], T], before: Snapshot | None, live: LiveHand | None
) -> Written[T]:
    """On the table's write thread: ``write`` (which commits before it returns), then the
    table after it where it changed: ``before`` one action later when ``live`` (the runtime's
    hand, acted on in place) made just that; after a deal or a hand's end, ``before`` with the
    hand as the write left it; after a run-out's street, ``before`` a street further; after a
    sit-down (or a request to the host), ``before`` with the seat (the version); else read
    (from ``before`` on, unless ``live`` was changed in place and left behind). A read that
    fails leaves the write done: no snapshot, and the runtime shows the next change."""
    events: list[dict[str, Any]] = []
    made: list[Made] = []
    token = outbox.set(events)  # what the write publishes on commit lands there
    noted = hands_made.set(made)  # and a hand it dealt or ended, or a street shown, there
    seated: list[SeatMade] = []
    sat = seats_made.set(seated)  # and a sit-down, there
    posted: list[int] = []
    told = notices_posted.set(posted)  # and a notice it posted, there
    try:
        result = write()
    finally:
        notices_posted.reset(told)
        seats_made.reset(sat)
        hands_made.reset(noted)
        outbox.reset(token)
    versions = [e["version"] for e in events if e.get("type") == "table.changed"]
    if not versions:
        return Written(result, events)
    newest, extra = max(versions), {"table": table_id}
    if live is not None and before is not None and live.version == newest == before.version + 1:
        built = snapshot_after_action(
            before, live.version, live.deadline, live.decisions, live.state
        )
        if built is not None:
            return Written(result, events, newest, built, same_hand=True)
    try:
        if before is not None and len(made) == 1 and made[0].version == newest:
            built = _built(before, made[0], bool(posted))
            if built is not None:
                return Written(result, events, newest, built)
        if before is not None and not made and len(seated) == 1 and seated[0].version == newest:
            built = snapshot_after_seat(before, newest, seated[0].table, seated[0].seat)
            if built is not None:
                return Written(result, events, newest, built)
        previous = None if live is not None and live.spent else before
        snapshot = load_snapshot(table_id, previous)
    except DatabaseError:
        log.warning("table %s: database unreachable, update skipped", table_id, extra=extra)
        snapshot = None
    except Exception:  # a write that committed must not look refused
        log.exception("table %s: not read after a write", table_id, extra=extra)
        snapshot = None
    return Written(result, events, newest, snapshot, read=True)
