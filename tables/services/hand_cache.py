"""Per process: the hand each table is playing, as the last write of this process left it.

Every change of a table bumps ``Table.version`` under the table row lock, so an entry made at
the version the locked row still has is exactly what the database holds: ``hand_act`` then
skips reading the hand row and its action log, and the table sockets' snapshot skips reading
the new actions. An entry at any other version is ignored (another process, the clock or an
admin changed the table since) and the database is read as before.

Entries are put only once their transaction has committed (before the change is published,
so the sockets that hear of it find it) and taken out before use, so a transaction that rolls
back never leaves a wrong one behind. They hold the hand's stored inputs, which never change
while it runs, and its decisions as a tuple; each user replays its own engine hand from them.

One of the per-process caches that depend on the table version; the invariant they all keep
is stated once, in ``tables.live.caches``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction

from tables.models import Hand, Table

#: Tables remembered per process; one entry each (the hand being played).
MAX_TABLES = 10_000


@dataclass(frozen=True)
class PlayedHand:
    version: int  # Table.version after the write that made this entry
    hand: Hand  # the running hand's row (inputs only: config, seats, button) and its deck
    decisions: tuple  # (kind, amount, source) in order
    deadline: datetime | None  # Table.action_deadline as that write left it


#: (table id, its creation time: a table that had the same id in a database since emptied
#: is another table) -> entry.
_entries: dict[tuple, PlayedHand] = {}


def take(table: Table) -> PlayedHand | None:
    """The entry of ``table`` (its row as locked now) if it was made at the row's version;
    it leaves the cache (the caller remembers the next one on commit)."""
    entry = _entries.pop((table.pk, table.created_at), None)
    return entry if entry is not None and entry.version == table.version else None


def peek(table: Table, version: int | None = None) -> PlayedHand | None:
    """The entry of ``table`` made at ``version`` (default: the row's), left in place."""
    entry = _entries.get((table.pk, table.created_at))
    wanted = table.version if version is None else version
    return entry if entry is not None and entry.version == wanted else None


def remember_on_commit(table: Table, version: int, hand: Hand, decisions) -> None:
    """Once the transaction commits, remember ``hand`` (running) after ``decisions`` at the
    table's new ``version``. Call before the change is published (``table_touch``), with
    ``table.action_deadline`` as it is written."""
    key = (table.pk, table.created_at)
    entry = PlayedHand(version, hand, tuple(decisions), table.action_deadline)

    def put():
        if len(_entries) >= MAX_TABLES:
            _entries.clear()
        _entries[key] = entry

    transaction.on_commit(put)
