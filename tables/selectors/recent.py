"""A player's recent games: where a night's result and settle-up stay reachable (the lobby,
the profile)."""

from __future__ import annotations

from django.db.models import Max

from tables.models import LedgerEntry, Player, Table
from tables.selectors.access import tables_visible_to


def recent_games(player: Player, limit: int = 8) -> list[Table]:
    """The tables ``player`` last moved chips at (bought in, cashed out), closed ones too,
    the most recent first, among those they may still see (``tables_visible_to``: a club's
    table is gone from a member's list once they are removed, as its page is)."""
    visible = tables_visible_to(player.user)
    latest = (
        LedgerEntry.objects.filter(player=player, table__in=visible)
        .values("table")
        .annotate(last=Max("created_at"))
        .order_by("-last")[:limit]
    )
    order = [row["table"] for row in latest]
    tables = Table.objects.in_bulk(order)
    return [tables[pk] for pk in order if pk in tables]
