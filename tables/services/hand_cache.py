"""Per process: the hand each table is playing — the writes' side. The entries, and how a
read uses them, are in ``tables.selectors.hand_cache``.

Entries are put only once their transaction has committed (before the change is published,
so the sockets that hear of it find it) and taken out before use, so a transaction that rolls
back never leaves a wrong one behind.
"""

from __future__ import annotations

from django.db import transaction

from engine.hand import Hand as EngineHand
from tables.models import Hand, Table
from tables.selectors.hand_cache import MAX_TABLES, PlayedHand, entries, entry_key
from tables.selectors.hands import Decision


def take(table: Table) -> PlayedHand | None:
    """The entry of ``table`` (its row as locked now) if it was made at the row's version;
    it leaves the cache (the caller remembers the next one on commit)."""
    entry = entries.pop(entry_key(table), None)
    return entry if entry is not None and entry.version == table.version else None


def remember_on_commit(
    table: Table, version: int, hand: Hand, decisions: list[Decision], state: EngineHand
) -> None:
    """Once the transaction commits, remember ``hand`` (running) after ``decisions`` at the
    table's new ``version``, and ``state``, its engine hand after them, which the caller
    hands over: nothing may change it from here on. Call before the change is published
    (``table_touch``), with ``table.action_deadline`` as it is written."""
    key = entry_key(table)
    entry = PlayedHand(version, hand, tuple(decisions), table.action_deadline, state)

    def put() -> None:
        if len(entries) >= MAX_TABLES:
            entries.clear()
        entries[key] = entry

    transaction.on_commit(put)
