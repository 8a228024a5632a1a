"""The per-process caches that depend on a table's version, and the one invariant they keep.

THE INVARIANT. Every change of a table bumps ``Table.version`` in the same transaction, under
the table row lock (``tables.services.events.table_touch``). Each cache entry is tagged with
its table (id and ``created_at``: a table that had the same id in a database emptied since is
another table) and the version it shows, and is put only once the transaction that wrote
that version has committed. So an entry at version ``v`` is exactly what the database held
at ``v``, and a reader uses an entry only at a version it knows is right for it, never an
older one; anything else is read from the database.

The three caches:

- the hand cache: the hand each table is playing, as this process's last write left it
  (entries and reads: ``tables.selectors.hand_cache``; put and taken by the writes:
  ``tables.services.hand_cache``). Used only at exactly the version the locked row has now
  (``hand_act``) or at the next version after a snapshot's (``following_snapshot``).
- ``tables.selectors.snapshot.load_snapshot`` / ``following_snapshot``: a table's next
  snapshot made from its previous one and only what changed since (the new actions; nothing
  at all when the hand cache holds this process's own action at ``previous.version + 1``).
- ``SnapshotCache`` (here): the latest ``Snapshot`` of each table, shared by every socket of
  the process. ``get(table, v)`` returns a snapshot at ``v`` or newer, never an older one.
"""

from __future__ import annotations

import asyncio
from datetime import datetime

from tables.db.threads import read_async
from tables.selectors.snapshot import Snapshot, following_snapshot, load_snapshot


class SnapshotCache:
    """Per process: the latest ``Snapshot`` of each table, shared by all its sockets.

    ``get(table_id, version)`` returns a snapshot at ``version`` or newer: from the cache, or
    read from the database once however many sockets ask at the same time (they await one
    load). A snapshot older than what was asked for is never returned, and one read before
    the asked-for version committed is read again. ``created_at`` tells a table from an
    earlier one that had the same id (a test database flushed and refilled).
    """

    def __init__(self) -> None:
        self.snapshots: dict[int, Snapshot] = {}
        self.loading: dict[int, asyncio.Future[Snapshot | None]] = {}
        self.loads = 0  # database reads, for tests and the benchmark

    def clear(self) -> None:
        self.snapshots.clear()

    def _fits(self, snap: Snapshot | None, version: int, created_at: datetime | None) -> bool:
        return (
            snap is not None
            and snap.version >= version
            and (created_at is None or snap.created_at == created_at)
        )

    async def get(
        self, table_id: int, version: int = 0, created_at: datetime | None = None
    ) -> Snapshot | None:
        snap = self.snapshots.get(table_id)
        if self._fits(snap, version, created_at):
            return snap
        pending = self._pending(table_id)
        if pending is not None:
            snap = await asyncio.shield(pending)
            if snap is None or self._fits(snap, version, created_at):
                return snap
            pending = self._pending(table_id)  # read too early: join the next read or start one
            if pending is not None:
                snap = await asyncio.shield(pending)
                if snap is None or self._fits(snap, version, created_at):
                    return snap
        return await self._load(table_id)

    def _pending(self, table_id: int) -> asyncio.Future[Snapshot | None] | None:
        """The read of ``table_id`` in flight on this event loop, if any."""
        future = self.loading.get(table_id)
        if future is not None and future.get_loop() is not asyncio.get_running_loop():
            return None
        return future

    async def _load(self, table_id: int) -> Snapshot | None:
        """Start one read of the table (its own task: a socket that goes away while waiting
        does not cancel it for the others) and wait for it."""
        task = asyncio.ensure_future(self._read(table_id))
        task.add_done_callback(lambda t: t.cancelled() or t.exception())  # always retrieved
        self.loading[table_id] = task
        return await asyncio.shield(task)

    async def _read(self, table_id: int) -> Snapshot | None:
        try:
            previous = self.snapshots.get(table_id)
            # This process's own player action needs no read: build it here rather than
            # send it to a thread and back.
            snap = following_snapshot(previous)
            if snap is None:
                self.loads += 1
                snap = await read_async(load_snapshot)(table_id, previous)
        finally:
            if self.loading.get(table_id) is asyncio.current_task():
                del self.loading[table_id]
        if snap is None:
            self.snapshots.pop(table_id, None)
        else:
            current = self.snapshots.get(table_id)
            if (
                current is None
                or current.created_at != snap.created_at
                or current.version < snap.version
            ):
                self.snapshots[table_id] = snap
        return snap


#: This process's table snapshots (one per table: the latest read).
snapshots = SnapshotCache()
