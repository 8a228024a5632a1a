"""What the scenarios read, as an operator would: the site's database (``Database`` in
``scenarios``: its ``sql``) and each daphne's runtime figures at its own address."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from bench.load_servers import RUNTIMES_PATH


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


def runtimes(
    daphne: dict[str, Any], spec: dict[str, Any], token: str, timeout: float = 30
) -> dict[str, Any] | None:
    """One daphne's runtime figures, asked at its own address (None: it does not answer)."""
    request = urllib.request.Request(
        f"http://{daphne['address']}:{daphne['port']}{RUNTIMES_PATH}",
        headers={
            "Authorization": f"Token {token}",
            "Host": spec["lb"],
            "X-Forwarded-Proto": "https",  # as nginx says it: no redirect to https
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return dict(json.loads(response.read()))
    except (OSError, ValueError):
        return None
