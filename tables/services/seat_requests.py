"""Sitting down and topping up at a game that asks its host first.

``seat_ask`` and ``top_up_ask`` are what the table page and the socket call: at a game with
``seat_approval`` (``top_up_approval``) they file a ``SeatRequest`` instead of sitting down
(adding chips), except for the host; elsewhere they are ``seat_take`` (``seat_top_up``).
The host answers with ``seat_request_answer``: an approval runs the normal service, with every
check it makes. A request unanswered for ``REQUEST_LIFETIME`` expires (read as expired at
once, written so on the next answer or request). Each function is one transaction holding the
table row lock; a change bumps ``Table.version`` (every screen hears of it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone

from tables.models import Player, Seat, SeatRequest, Table
from tables.selectors.access import can_host
from tables.selectors.hands import player_in_running_hand
from tables.selectors.hosting import REQUEST_LIFETIME
from tables.services.errors import (
    AlreadySeated,
    BuyInOutOfRange,
    InsufficientBankroll,
    InvalidAmount,
    NoSuchRequest,
    NotHost,
    NotSeated,
    RequestPending,
)
from tables.services.events import fenced_atomic, require_open, table_lock, table_touch
from tables.services.host_pending import notice_post
from tables.services.seats import buy_in_check, seat_take, seat_take_locked, seat_top_up
from tables.services.seats_made import seat_made

if TYPE_CHECKING:
    from tables.selectors.access import Viewer


@dataclass(frozen=True)
class Asked:
    """What sitting down (topping up) did: ``seat`` when done, ``request`` when asked."""

    seat: Seat | None = None
    request: SeatRequest | None = None


def _expire(table: Table) -> None:
    SeatRequest.objects.filter(
        table=table,
        status=SeatRequest.Status.PENDING,
        created_at__lte=timezone.now() - REQUEST_LIFETIME,
    ).update(status=SeatRequest.Status.EXPIRED, decided_at=timezone.now())


def _needs_asking(table: Table, player: Player, approval: bool) -> bool:
    return approval and table.host_id is not None and table.host_id != player.pk


def _file(
    table: Table, player: Player, kind: str, amount: int, seat_number: int | None = None
) -> SeatRequest:
    _expire(table)
    if SeatRequest.objects.filter(
        table=table, player=player, status=SeatRequest.Status.PENDING
    ).exists():
        raise RequestPending("Your request is waiting for the host's answer.")
    if player.bankroll < amount:
        raise InsufficientBankroll(
            f"Not enough chips: your bankroll is {player.bankroll}, this needs {amount}."
        )
    request = SeatRequest.objects.create(
        table=table, player=player, kind=kind, amount=amount, seat_number=seat_number
    )
    table_touch(table)
    return request


def seat_ask(
    *,
    table: Table | int,
    player: Player,
    buy_in: int,
    seat_number: int | None = None,
    post_now: bool = False,
) -> Asked:
    """Sit down, or at a game with seat approval ask the host to (see the module docstring).

    Lock: table row. A request is checked as the seat would be (open game, buy-in range with
    the rejoining rule, bankroll, not seated) so the host only sees requests that can work.
    A table's runtime that runs it hears of the seat taken or the request filed
    (``seats_made``), from which it builds the table's next version."""
    with fenced_atomic():  # a runtime's command: its lease's transaction, no savepoint
        locked = table_lock(table)
        if not _needs_asking(locked, player, locked.seat_approval):
            seat = seat_take_locked(
                table=locked,
                player=player,
                buy_in=buy_in,
                seat_number=seat_number,
                post_now=post_now,
            )
            seat_made(locked, seat, player)
            return Asked(seat=seat)
        player.refresh_from_db(fields=["bankroll"])
        require_open(locked)
        if isinstance(buy_in, bool) or not isinstance(buy_in, int) or buy_in <= 0:
            raise InvalidAmount("The buy-in must be a positive whole number of chips.")
        if locked.seats.filter(player=player).exists():
            raise AlreadySeated(f"You already have a seat at {locked.name}.")
        buy_in_check(locked, player, buy_in)
        request = _file(locked, player, SeatRequest.Kind.SEAT, buy_in, seat_number=seat_number)
        seat_made(locked, None, player)
        return Asked(request=request)


def top_up_ask(*, table: Table | int, player: Player, amount: int) -> Asked:
    """Top up, or at a game with top-up approval ask the host to allow it. Lock: table row."""
    with transaction.atomic():
        locked = table_lock(table)
        player.refresh_from_db(fields=["bankroll"])
        if not _needs_asking(locked, player, locked.top_up_approval):
            return Asked(seat=seat_top_up(table=locked, player=player, amount=amount))
        require_open(locked)
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise InvalidAmount("The top-up must be a positive whole number of chips.")
        seat = locked.seats.filter(player=player).first()
        if seat is None:
            raise NotSeated(f"You have no seat at {locked.name}.")
        room = locked.effective_max_buy_in - seat.stack
        if amount > room:
            raise BuyInOutOfRange(f"You can add at most {max(room, 0)} chips.")
        return Asked(request=_file(locked, player, SeatRequest.Kind.TOP_UP, amount))


def seat_request_answer(
    *, table: Table | int, by: Viewer, request_id: int, approve: bool
) -> SeatRequest:
    """The host approves (the seat is taken or the chips added, through ``seat_take`` or
    ``seat_top_up`` with all their checks) or declines a pending request.

    Lock: table row, then the player row on approval. ``NoSuchRequest`` for one that is not
    pending here (answered, expired, cancelled); a refused approval changes nothing."""
    with transaction.atomic():
        locked = table_lock(table)
        if not can_host(locked, by):
            raise NotHost("Only the game's host can answer requests.")
        _expire(locked)
        request = (
            SeatRequest.objects.select_for_update()
            .filter(pk=request_id, table=locked, status=SeatRequest.Status.PENDING)
            .select_related("player__user")
            .first()
        )
        if request is None:
            raise NoSuchRequest("That request is no longer waiting (answered or expired).")
        player = request.player
        if approve:
            require_open(locked)
            if request.kind == SeatRequest.Kind.SEAT:
                taken = set(locked.seats.values_list("number", flat=True))
                number = request.seat_number if request.seat_number not in taken else None
                seat_take(table=locked, player=player, buy_in=request.amount, seat_number=number)
                notice_post(locked, f"The host let {player} sit down with {request.amount}.")
            else:
                if player_in_running_hand(locked, player.pk):
                    raise NoSuchRequest(
                        f"{player} is in the hand being played: approve the top-up after it."
                    )
                seat_top_up(table=locked, player=player, amount=request.amount)
                notice_post(locked, f"The host let {player} add {request.amount} chips.")
        request.status = SeatRequest.Status.APPROVED if approve else SeatRequest.Status.DECLINED
        request.decided_at = timezone.now()
        request.save(update_fields=["status", "decided_at"])
        locked.refresh_from_db(fields=["version"])
        table_touch(locked)
        return request


def seat_request_cancel(*, table: Table | int, player: Player) -> int:
    """The player takes back their pending request(s). Lock: table row. Returns how many."""
    with transaction.atomic():
        locked = table_lock(table)
        count = SeatRequest.objects.filter(
            table=locked, player=player, status=SeatRequest.Status.PENDING
        ).update(status=SeatRequest.Status.CANCELLED, decided_at=timezone.now())
        if count:
            table_touch(locked)
        return count
