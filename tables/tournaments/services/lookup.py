"""Which tournament a table belongs to, remembered per process for the cash tables.

Every hand at every table asks (``tables.services.hooks``); a table is a tournament's from its
creation or never, so a cash table's answer (None) is kept and costs the cash game no query
after the first. A tournament table is read afresh each time (its tournament moves on).
"""

from __future__ import annotations

from tables.tournaments.models import TournamentTable

_cash_tables: set[int] = set()


def tournament_table(table_id: int) -> TournamentTable | None:
    if table_id in _cash_tables:
        return None
    tt = (
        TournamentTable.objects.filter(table_id=table_id)
        .select_related("tournament")
        .only(
            "pk",
            "table_id",
            "tournament_id",
            "hand_for_hand_round",
            "round_hand",
            "broken_at",
            "tournament__status",
            "tournament__hand_for_hand",
            "tournament__hand_for_hand_round",
            # what ``play.table_rules`` reads (the break clock), without a second query
            "tournament__break_every_levels",
            "tournament__break_minutes",
            "tournament__levels",
            "tournament__started_at",
            "tournament__paused_at",
            "tournament__paused_for",
        )
        .first()
    )
    if tt is None:
        _cash_tables.add(table_id)
    return tt


def table_made(table_id: int) -> None:
    """A tournament table was made with this id (a test database may reuse ids)."""
    _cash_tables.discard(table_id)
