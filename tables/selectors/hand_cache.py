"""Per process: the hand each table is playing, as the last write of this process left it —
its entries and how they are read. Entries are put and taken only by the writes
(``tables.services.hand_cache``); a read here never changes them.

Every change of a table bumps ``Table.version`` under the table row lock, so an entry made at
the version the locked row still has is exactly what the database holds: ``hand_act`` then
skips reading the hand row and its action log, and the table sockets' snapshot
(``tables.selectors.snapshot``) skips reading the new actions. An entry at any other version
is ignored (another process, the clock or an admin changed the table since) and the database
is read as before.

An entry holds the hand's stored inputs, which never change while it runs, its decisions as
a tuple, and the engine hand the write left after them. Nobody changes that engine hand once
it is remembered: the sockets' snapshot shows it as it is (no replay on the event loop), and
a write that goes on with the hand replays its own from the decisions. One of the per-process caches
that depend on the table version; the invariant they all keep is stated once, in
``tables.live.caches``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from engine.hand import Hand as EngineHand
from tables.models import Hand, Table
from tables.selectors.hands import Decision

#: Tables remembered per process; one entry each (the hand being played).
MAX_TABLES = 10_000


@dataclass(frozen=True)
class PlayedHand:
    version: int  # Table.version after the write that made this entry
    hand: Hand  # the running hand's row (inputs only: config, seats, button) and its deck
    decisions: tuple[Decision, ...]  # in order
    deadline: datetime | None  # Table.action_deadline as that write left it
    state: EngineHand  # the engine hand after ``decisions``: read only, never changed


#: (table id, its creation time: a table that had the same id in a database since emptied
#: is another table) -> entry. Written only by ``tables.services.hand_cache``.
entries: dict[tuple[int, datetime], PlayedHand] = {}


def entry_key(table: Table) -> tuple[int, datetime]:
    return table.pk, table.created_at


def peek(table: Table, version: int | None = None) -> PlayedHand | None:
    """The entry of ``table`` made at ``version`` (default: the row's), left in place."""
    entry = entries.get(entry_key(table))
    wanted = table.version if version is None else version
    return entry if entry is not None and entry.version == wanted else None
