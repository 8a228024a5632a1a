"""The table as the runtime of a table in this process holds it (``tables.live.runtime``), for
a read that would otherwise load it from the database and replay its hand (the REST play
API's state, the table's page, the room screen): ``held_runners``, registered by the live
layer (``tables.live.in_turn``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tables.selectors.snapshot import Snapshot, load_snapshot

#: What a read makes of the table (pure: no database), e.g. a viewer's play state.
HeldRead = Callable[[Snapshot], dict[str, Any]]
#: (table id, the read) -> the read of the table as its owner's runtime here holds it now, in
#: the runtime's turn; None where no runtime here owns the table.
HeldRunner = Callable[[int, HeldRead], dict[str, Any] | None]
held_runners: list[HeldRunner] = []


def read_held(table_id: int, read: HeldRead) -> dict[str, Any] | None:
    """``read`` of the table as the runtime that owns it in this process holds it now (None:
    none here does: load the table)."""
    for runner in held_runners:
        made = runner(table_id, read)
        if made is not None:
            return made
    return None


def made_from_table(table_id: int, read: HeldRead) -> dict[str, Any] | None:
    """``read`` of the table as the runtime that owns it here holds it now (``read_held``),
    else of the table loaded now; None where there is no such table."""
    made = read_held(table_id, read)
    if made is not None:
        return made
    snapshot = load_snapshot(table_id)
    return None if snapshot is None else read(snapshot)
