"""Reads for hosted games: the rejoining rule, seat requests, the table's notices."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from tables.models import LedgerEntry, Player, SeatRequest, Table, TableNotice

#: Sitting down again within this time of leaving with chips: buy in for at least those chips.
REJOIN_WINDOW = timedelta(hours=1)
#: A request the host has not answered in this time expires.
REQUEST_LIFETIME = timedelta(minutes=5)


def rejoin_minimum(table: Table, player: Player, now: datetime | None = None) -> int:
    """The chips ``player`` took from ``table`` when they last left it, if that was within
    ``REJOIN_WINDOW`` (else 0): the least they may buy in for to sit there again (the rule
    against leaving with a win and coming back short). Bots are not held to it."""
    if player.is_bot:
        return 0
    now = now or timezone.now()
    last = (
        LedgerEntry.objects.filter(player=player, table=table)
        .exclude(kind=LedgerEntry.Kind.CORRECTION)
        .order_by("-created_at", "-id")
        .values_list("kind", "amount", "created_at")
        .first()
    )
    if last is None:
        return 0
    kind, amount, at = last
    if kind != LedgerEntry.Kind.CASH_OUT or at < now - REJOIN_WINDOW:
        return 0
    return amount


def live_requests(table: Table, now: datetime | None = None):
    """The requests waiting for the host's answer (those past ``REQUEST_LIFETIME`` are left
    out: they expire)."""
    now = now or timezone.now()
    return (
        SeatRequest.objects.filter(
            table=table,
            status=SeatRequest.Status.PENDING,
            created_at__gt=now - REQUEST_LIFETIME,
        )
        .select_related("player__user")
        .order_by("created_at", "id")
    )


def request_of(table: Table, player: Player) -> SeatRequest | None:
    """The player's latest request at ``table`` (pending or answered), or None."""
    return (
        SeatRequest.objects.filter(table=table, player=player)
        .order_by("-created_at", "-id")
        .first()
    )


def request_status(request: SeatRequest, now: datetime | None = None) -> str:
    """A request's status as it stands now: a pending one past its lifetime reads expired."""
    now = now or timezone.now()
    if (
        request.status == SeatRequest.Status.PENDING
        and request.created_at <= now - REQUEST_LIFETIME
    ):
        return SeatRequest.Status.EXPIRED
    return request.status


def table_notices(table: Table, limit: int = 20) -> list[TableNotice]:
    """The latest announcements of ``table``, oldest first."""
    latest = TableNotice.objects.filter(table=table).order_by("-id")[:limit]
    return list(reversed(latest))
