"""Reads for hosted games: the rejoining rule, seat requests, the notices in a hand's log."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, NamedTuple

from django.conf import settings
from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from tables.db import statements
from tables.db.rows import select_values_by_ids
from tables.models import LedgerEntry, Player, SeatRequest, Table, TableNotice
from tables.selectors.access import invite_lets_in

if TYPE_CHECKING:
    #: ``NoticeRow``'s fields of the latest notices, newest first.
    NoticeRows = QuerySet[TableNotice, tuple[str, int, int | None]]

#: Sitting down again within this time of leaving with chips: buy in for at least those chips.
REJOIN_WINDOW = timedelta(hours=1)
#: A request the host has not answered in this time expires.
REQUEST_LIFETIME = timedelta(minutes=5)


def removal_pending(table: Table, player_id: int) -> bool:
    """Whether the host removed ``player_id`` during the hand being played: they are cashed
    out when it ends (``Table.pending_changes``, read from ``table`` as locked)."""
    return player_id in (table.pending_changes or {}).get("remove", [])


class LeftTable(NamedTuple):
    """What ``player``'s last cash-out from a table asks of their next sit-down there."""

    #: The chips they took when they last left, if that was within ``REJOIN_WINDOW`` and
    #: nothing came after it but corrections (else 0): the least they may buy in for to sit
    #: there again (the rule against leaving with a win and coming back short).
    minimum: int
    #: When they may sit there again, if they cashed out less than
    #: ``POKER_RESEAT_WAIT_SECONDS`` ago (else None): looping take-seat/leave would flood the
    #: table with changes. The sit-down form counts down to it; ``seat_take`` refuses before.
    wait_until: datetime | None

    @property
    def wait_until_ms(self) -> int | None:
        """``wait_until`` in ms since the epoch (the sit-down form's countdown)."""
        until = self.wait_until
        return int(until.timestamp() * 1000) if until is not None else None


def left_table(table_id: int, player: Player, now: datetime | None = None) -> LeftTable:
    """What ``player``'s last cash-out from ``table_id`` asks of their next sit-down there
    (``LeftTable``; bots, seated by the croupier, and players who went bust, with no
    cash-out, are held to nothing): one compiled query reads their last cash-out from the
    table and whether it is their last entry there."""
    wait = timedelta(seconds=settings.POKER_RESEAT_WAIT_SECONDS)
    if player.is_bot:
        return LeftTable(0, None)
    now = now or timezone.now()
    rows = select_values_by_ids(LedgerEntry, "left-table", _left_table_query, player.pk, table_id)
    if not rows:  # never cashed out here
        return LeftTable(0, None)
    cash_out_id, amount, left_at, last_id = rows[0]
    # the last entry a cash-out: it is this one (both read newest first)
    minimum = amount if last_id == cash_out_id and left_at >= now - REJOIN_WINDOW else 0
    waited = not wait or left_at + wait <= now
    return LeftTable(minimum, None if waited else left_at + wait)


def _left_table_query(player_id: int, table_id: int) -> QuerySet[LedgerEntry, Any]:
    mine = LedgerEntry.objects.order_by("-created_at", "-id")
    last_cash_out = mine.filter(
        player_id=player_id, table_id=table_id, kind=LedgerEntry.Kind.CASH_OUT
    ).values("id")[:1]
    last_entry = (
        mine.filter(player_id=OuterRef("player_id"), table_id=OuterRef("table_id"))
        .exclude(kind=LedgerEntry.Kind.CORRECTION)
        .values("id")[:1]
    )
    return (
        LedgerEntry.objects.filter(pk=Subquery(last_cash_out))
        .order_by()
        .annotate(last_id=Subquery(last_entry))
        .values_list("id", "amount", "created_at", "last_id")
    )


def live_requests(table: Table, now: datetime | None = None) -> QuerySet[SeatRequest]:
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


class NoticeRow(NamedTuple):
    """A table notice where the hand log shows it (``TableNotice``'s place among the lines)."""

    text: str
    hand_number: int
    after_actions: int | None


#: The most notices one hand's log shows (a host trying settings between hands posts many).
LOG_NOTICES = 30


def log_notices(table_id: int, hand_number: int | None) -> tuple[NoticeRow, ...]:
    """The notices the log of hand ``hand_number`` shows (None: no hand on screen, the table's
    latest notices): those posted during it or after it, and those posted after the hand
    before it (between the two). Oldest first, at most ``LOG_NOTICES``. One compiled query
    (every full snapshot of a table reads it)."""
    if hand_number is None:
        rows = statements.select_values(TableNotice, "log-notices-all", _all_query, table_id)
    else:
        rows = statements.select_values(
            TableNotice, "log-notices", _around_query, table_id, hand_number, hand_number - 1
        )
    return tuple(NoticeRow._make(row) for row in reversed(rows))


def notices_carried(
    shown: tuple[NoticeRow, ...], shown_hand: int | None, hand_number: int
) -> tuple[NoticeRow, ...] | None:
    """``log_notices(table, hand_number)`` worked out from ``shown``, the notices the log of
    hand ``shown_hand`` showed, where no notice was posted since (None: it cannot be told,
    read them). The same hand's are those; the next hand's are a part of them, unless the
    earliest may have been left out of ``shown`` (``LOG_NOTICES``)."""
    if shown_hand is None:
        return None
    if shown_hand == hand_number:
        return shown
    if shown_hand != hand_number - 1 or len(shown) >= LOG_NOTICES:
        return None
    # ``_around_query``'s condition, on rows that all meet the last hand's
    return tuple(
        notice
        for notice in shown
        if notice.hand_number >= hand_number
        or (notice.hand_number == shown_hand and notice.after_actions is None)
    )


def _all_query(table_id: int) -> NoticeRows:
    return _latest(TableNotice.objects.filter(table_id=table_id))


def _around_query(table_id: int, hand_number: int, hand_before: int) -> NoticeRows:
    # hand_number above the hand on screen: posted after a later hand that was voided
    return _latest(
        TableNotice.objects.filter(table_id=table_id).filter(
            Q(hand_number__gte=hand_number) | Q(hand_number=hand_before, after_actions__isnull=True)
        )
    )


def _latest(notices: QuerySet[TableNotice]) -> NoticeRows:
    return notices.order_by("-id").values_list("text", "hand_number", "after_actions")[:LOG_NOTICES]


def invite_table(token: str) -> Table | None:
    """The open game whose invite link is ``token``, as a logged-out visitor would join it
    (``None``: a wrong or replaced link, a closed game, or one the link does not open to a
    visitor: a club's, ``invite_lets_in``), with its host."""
    if not isinstance(token, str) or not token:
        return None
    table = (
        Table.objects.select_related("host__user")
        .filter(invite_token=token)
        .exclude(status=Table.Status.CLOSED)
        .first()
    )
    return table if table is not None and invite_lets_in(table, None) else None


def seated_names(table: Table) -> list[str]:
    """Who sits at ``table``, by seat number."""
    return list(table.seats.order_by("number").values_list("player__user__username", flat=True))
