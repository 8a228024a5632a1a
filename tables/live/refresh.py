"""The reading half of ``TableRuntime`` (``tables.live.runtime``): a change the runtime did not
make (another process's, a REST call's, an admin's), read and shown to its sockets; a socket's
first frame; a timed hole-card broadcast's next cards. A click runs none of it: its next
version is built or read by the write itself.

A follower builds the owner's plain actions instead of reading them: where the owner built a
version one action later in memory (``snapshot_after_action``), its ``table.changed`` says
which action (``acted``: the decision as the log stores it and the table's new clock, all of
it public; never a discard, whose cards are hidden), and a follower holding the version
before acts it on its own engine hand and builds the same version (``_acted``), as the owner
did, from the same log. Anything else (a missed message, a version it does not hold, a deal,
a hand's end) it reads."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections import Counter
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

from django.db import DatabaseError
from django.utils import timezone

from tables.db.threads import read_async
from tables.live.ownership import Queued
from tables.live.protocol import SERVER_TROUBLE
from tables.presenters.broadcast import next_reveal
from tables.selectors.hands import Decision, decision_action
from tables.selectors.held import HeldRead
from tables.selectors.snapshot import Snapshot, load_snapshot, snapshot_after_action

log = logging.getLogger("tables.live.runtime")  # the runtime's: it reads the table


T = TypeVar("T")


class ShownSocket(Protocol):
    """A socket as the runtime shows it a version (``TableConsumer``)."""

    closed: bool

    async def show(self, snapshot: Snapshot, again: bool = False) -> None: ...
    async def close(self, code: int | bool | None = None, reason: str | None = None) -> None: ...


class TableReads:
    """The reading half of ``TableRuntime``: what it shows its sockets of a change it did not
    make, in the table's turn."""

    if TYPE_CHECKING:  # the runtime's own (``TableRuntime``)
        totals: ClassVar[Counter[str]]
        table_id: int
        loop: asyncio.AbstractEventLoop
        snapshot: Snapshot | None
        version: int
        epoch: int | None
        reads: int
        revealed_at: datetime | None
        sockets: set[Any]  # the runtime's sockets (``RuntimeSocket``)
        queue: asyncio.Queue[Queued]

        @property
        def owner(self) -> bool: ...
        def _now(self, snapshot: Snapshot | None) -> None: ...
        async def _fan_out(self, snapshot: Snapshot, again: bool = False) -> None: ...
        async def call(self, work: Callable[[], Awaitable[T]]) -> T: ...
        async def _latest(self) -> Snapshot | None: ...

    async def show_latest(self, consumer: ShownSocket) -> Snapshot | None:
        """Send ``consumer`` the table as it is (read first if this runtime has nothing yet);
        None if there is no such table. Run in the table's turn."""
        snapshot = await self._latest()
        if snapshot is not None and not consumer.closed:
            await consumer.show(snapshot)
        return snapshot

    async def held(self, read: HeldRead) -> dict[str, Any] | None:
        """``read`` of the table as this runtime holds it now (read first where it heard of a
        later version), in its turn; None where it does not own the table (a follower's may
        be behind the owner's)."""

        async def in_turn() -> dict[str, Any] | None:
            if not self.owner:
                return None
            snapshot = await self._latest()
            return None if snapshot is None else read(snapshot)

        return await self.call(in_turn)

    async def _read(self) -> Snapshot | None:
        previous = self.snapshot
        self.reads += 1
        self.totals["reads"] += 1
        snapshot = await read_async(load_snapshot)(self.table_id, previous)
        self._now(snapshot)
        return snapshot

    def reveal_if_due(self) -> None:
        """A timed hole-card broadcast's next cards are due (issue 53): the same version
        again to the sockets whose view changed (the clock's ``keep_up``, each tick)."""
        snapshot = self.snapshot
        if snapshot is None or not snapshot.street_times:
            return
        due = next_reveal(snapshot, self.revealed_at or snapshot.street_times[0])
        now = timezone.now()
        if due is None or due > now:
            return
        self.revealed_at = now

        async def reveal() -> None:
            if self.snapshot is snapshot:  # else a newer version went out meanwhile
                await self._fan_out(snapshot, again=True)

        self.queue.put_nowait((reveal, self.loop.create_future()))

    async def _refresh(self) -> None:
        """A change this runtime did not make: read the table and show it (in the turn)."""
        if self.snapshot is not None and self.snapshot.version >= self.version:
            return
        try:
            snapshot = await self._read()
        except DatabaseError:
            log.warning(
                "table %s: database unreachable, update skipped",
                self.table_id,
                extra={"table": self.table_id},
            )
            return
        if snapshot is None:
            for consumer in list(self.sockets):
                with contextlib.suppress(Exception):
                    await consumer.close(code=SERVER_TROUBLE)
            return
        await self._fan_out(snapshot)

    def changed(self, version: int, acted: list[Any] | None = None) -> None:
        """The table is at ``version`` (a message on its group, a catch-up); ``acted``: the
        owner's action that made it (``acted_members``), built here where it can be."""
        if version <= self.version:
            return
        self.version = version
        work = self._refresh if not acted else functools.partial(self._acted, version, acted)
        self.queue.put_nowait((work, self.loop.create_future()))

    async def _acted(self, version: int, acted: list[Any]) -> None:
        """Another process's action at ``version``: built on this runtime's engine hand where
        it holds the version before (and shown), else read (in the turn)."""
        previous = self.snapshot
        # (an owner reads a change it did not make: another writer's, never built on its hand)
        if self.epoch is None and previous is not None and previous.version == version - 1:
            try:
                built = snapshot_acted(previous, version, acted)
            except Exception:  # not the owner's hand: the read below is the truth
                log.warning(
                    "table %s: version %s not built from its action %r; read",
                    self.table_id,
                    version,
                    acted,
                    extra={"table": self.table_id},
                )
                built = None
            if built is not None:
                self.totals["built"] += 1
                self._now(built)
                await self._fan_out(built)
                return
            self._now(None)  # its engine hand may have moved on: read it whole
        await self._refresh()

    @property
    def shown(self) -> int:
        """The version its sockets were last shown (0: none yet). Below ``version`` while a
        read is on its way, or after one failed (the database was away)."""
        return self.snapshot.version if self.snapshot is not None else 0


def acted_members(snapshot: Snapshot) -> dict[str, Any]:
    """What an owner's ``table.changed`` says of ``snapshot``, built one action later
    (``snapshot_after_action``), for followers to build it too (``snapshot_acted``): the
    action as the log stores it (not a discard: its cards are hidden) and the table's clock."""
    decision = snapshot.decisions[-1]
    if decision.cards:
        return {}
    deadline = snapshot.table.action_deadline
    return {
        "acted": [  # plain values: the channel layer's encoding knows no enum
            str(decision.kind),
            decision.amount,
            str(decision.source),
            deadline.isoformat() if deadline is not None else None,
        ]
    }


def snapshot_acted(previous: Snapshot, version: int, acted: list[Any]) -> Snapshot | None:
    """``previous`` one action later (``acted_members``'), as the owner built it: the action
    on ``previous``'s engine hand, in place (None where that is not all that changed: the
    caller reads the table, and ``previous``' hand is spent)."""
    kind, amount, source, deadline = acted
    state = previous.state
    if not previous.running or state is None or state.is_over:
        return None
    decision = Decision(str(kind), None if amount is None else int(amount), str(source))
    state.act(decision_action(decision))
    return snapshot_after_action(
        previous,
        version,
        datetime.fromisoformat(deadline) if deadline is not None else None,
        [*previous.decisions, decision],
        state,
    )
