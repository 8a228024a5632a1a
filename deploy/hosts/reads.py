"""What the scenarios read from the site's database (``Database`` in ``scenarios``: its
``sql``), as an operator would."""

from __future__ import annotations

from typing import Any


def leases(db: Any) -> dict[int, str]:
    """Each table's live lease owner now."""
    return dict(db.sql("SELECT table_id, owner FROM tables_tablelease WHERE until > now()"))


def running_hands(db: Any, table_ids: list[int]) -> dict[int, tuple[int, int]]:
    """Per table, its running hand and the actions it has so far."""
    rows = db.sql(
        "SELECT h.table_id, h.id, (SELECT count(*) FROM tables_handaction a "
        "WHERE a.hand_id = h.id) FROM tables_hand h "
        "WHERE h.status = 'running' AND h.table_id = ANY(%s)",
        [table_ids],
    )
    return {table: (hand, actions) for table, hand, actions in rows}
