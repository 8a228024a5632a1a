"""Sitting down, leaving, sitting out and topping up.

Every function here runs in one transaction holding the table row lock
(``table_lock``), then the player row lock for bankroll changes; every change bumps
``Table.version`` and publishes ``table.changed`` on commit.
"""

from __future__ import annotations

import math
from datetime import datetime

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from tables.db.rows import insert, select_values_by_ids
from tables.models import Hand, LedgerEntry, Player, Seat, Table
from tables.selectors.hands import player_in_running_hand
from tables.selectors.hosting import left_table, removal_pending
from tables.services.errors import (
    AlreadySeated,
    BuyInOutOfRange,
    HandInProgress,
    InvalidAmount,
    InvalidChoice,
    NoSuchSeat,
    NotSeated,
    RemovedByHost,
    ReseatTooSoon,
    SeatingClosed,
    SeatTaken,
    TableFull,
)
from tables.services.events import require_open, table_lock, table_touch
from tables.services.hooks import rules_for
from tables.services.players import ledger_record


def _whole_chips(amount: object, what: str) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise InvalidAmount(f"The {what} must be a positive whole number of chips.")
    return amount


def _require_own_seating(table: Table) -> None:
    """Refuse when the table seats its players itself (a tournament's, ``hooks.table_rules``)."""
    closed = rules_for(table).seating_closed
    if closed:
        raise SeatingClosed(closed)


def _seat_of(table: Table, player: Player) -> Seat:
    seat = table.seats.select_related("player__user").filter(player=player).first()
    if seat is None:
        raise NotSeated(f"You have no seat at {table.name}.")
    return seat


def _require_reseat_wait_over(table: Table, until: datetime | None) -> None:
    """Refuse a seat before ``until``, the player's ``LeftTable.wait_until`` (a player who cashed
    out moments ago)."""
    if until is not None:
        seconds = max(math.ceil((until - timezone.now()).total_seconds()), 1)
        raise ReseatTooSoon(
            f"You left {table.name} moments ago: you can sit down here again in "
            f"{seconds} second{'s' if seconds != 1 else ''}."
        )


def buy_in_check(table: Table, player: Player, buy_in: int) -> None:
    """Refuse a buy-in outside what ``player`` may sit down with at ``table``
    (``Table.buy_in_range`` with the rejoining rule), saying why in the words of the sit-down
    form (``Table.rejoin_rule``)."""
    _buy_in_within(table, buy_in, left_table(table.pk, player).minimum)


def _buy_in_within(table: Table, buy_in: int, left_with: int) -> None:
    """``buy_in_check`` for a player whose ``LeftTable.minimum`` is ``left_with``
    (``left_table``)."""
    low, high = table.buy_in_range(left_with)
    if not low <= buy_in <= high:
        rule = table.rejoin_rule(left_with)
        if rule:
            raise BuyInOutOfRange(f"{rule} ({low} to {high} chips)")
        raise BuyInOutOfRange(f"Buy in for {low} to {high} chips at {table.name}.")


def seat_cash_out(*, table: Table, seat: Seat, reason: str, hand: Hand | None = None) -> None:
    """Internal: the seat's chips go back to the bankroll and the seat is freed.

    Caller holds the table row lock, inside ``transaction.atomic()``.
    """
    if seat.stack:
        ledger_record(
            player=seat.player,
            amount=seat.stack,
            kind=LedgerEntry.Kind.CASH_OUT,
            reason=reason,
            table=table,
            hand=hand,
        )
    seat.delete()


def seat_take(
    *,
    table: Table,
    player: Player,
    buy_in: int,
    seat_number: int | None = None,
    post_now: bool = False,
) -> Seat:
    """Sit ``player`` at ``table`` with ``buy_in`` chips from the bankroll.

    Lock: table row, then player row. The table must be open, the buy-in within the table's
    range, the bankroll big enough, the seat free (any free seat when ``seat_number`` is
    None), the player not already seated and not just gone from this table
    (``POKER_RESEAT_WAIT_SECONDS`` after cashing out). A player who sits down during a hand
    is dealt in once the big blind reaches them, or with ``post_now`` from the next hand,
    posting a live big blind (``tables.services.etiquette``); at a table without a game
    going (no hand dealt yet, or fewer than two players sitting in), from the next hand,
    posting nothing.
    """
    with transaction.atomic():
        return seat_take_locked(
            table=table_lock(table),
            player=player,
            buy_in=buy_in,
            seat_number=seat_number,
            post_now=post_now,
        )


#: A seat as ``seat_take`` reads each of the table's, in one compiled query: number, player,
#: sitting out, leaving, waiting for the big blind, stack.
_SeatRow = tuple[int, int, bool, bool, bool, int]


def _seat_rows(table_id: int) -> QuerySet[Seat, _SeatRow]:
    return (
        Seat.objects.filter(table_id=table_id)
        .order_by()
        .values_list(
            "number", "player_id", "sitting_out", "leave_after_hand", "wait_for_big_blind", "stack"
        )
    )


def seat_take_locked(
    *, table: Table, player: Player, buy_in: int, seat_number: int | None, post_now: bool
) -> Seat:
    """Internal: ``seat_take`` at ``table`` as locked by the caller (``table_lock``), inside
    ``transaction.atomic()``."""
    _require_own_seating(table)
    require_open(table)
    buy_in = _whole_chips(buy_in, "buy-in")
    seats = select_values_by_ids(Seat, "seat-take-seats", _seat_rows, table.pk)
    if any(row[1] == player.pk for row in seats):
        raise AlreadySeated(f"You already have a seat at {table.name}.")
    left = left_table(table.pk, player)
    _require_reseat_wait_over(table, left.wait_until)
    _buy_in_within(table, buy_in, left.minimum)
    taken = {row[0] for row in seats}
    if seat_number is None:
        free = [n for n in range(table.max_seats) if n not in taken]
        if not free:
            raise TableFull(f"{table.name} is full.")
        seat_number = free[0]
    elif (
        isinstance(seat_number, bool)
        or not isinstance(seat_number, int)
        or not (0 <= seat_number < table.max_seats)
    ):
        raise NoSuchSeat(f"{table.name} has seats 1 to {table.max_seats}.")
    elif seat_number in taken:
        raise SeatTaken(f"Seat {seat_number + 1} is taken.")
    # hands dealt, two players dealt in without waiting: a newcomer waits for the big
    # blind or posts (before the first hand everyone seated is dealt in)
    game_going = (
        table.button_seat is not None
        and sum(
            1
            for _, _, sitting_out, leaving, waiting, stack in seats
            if not (sitting_out or leaving or waiting) and stack > 0
        )
        >= 2
    )
    ledger_record(
        player=player,
        amount=-buy_in,
        kind=LedgerEntry.Kind.BUY_IN,
        reason=f"Buy-in at {table.name}",
        table=table,
    )
    seat = Seat(
        table=table,
        number=seat_number,
        player=player,
        stack=buy_in,
        time_bank=table.time_bank_seconds,
        wait_for_big_blind=game_going and not post_now,
        owes_blinds=Seat.Owes.BIG if game_going and post_now else Seat.Owes.NOTHING,
    )
    insert(seat, numbered=True)
    table_touch(table)
    return seat


def seat_leave(*, table: Table | int, player: Player) -> bool:
    """Leave the table: the chips go back to the bankroll.

    Lock: table row, then player row. During a hand the player is in, they are sat out and
    leave when it ends (``leave_after_hand``); returns True if they left now.
    """
    with transaction.atomic():
        table = table_lock(table)
        _require_own_seating(table)
        return seat_release(table=table, seat=_seat_of(table, player), reason=f"Left {table.name}")


def seat_release(*, table: Table, seat: Seat, reason: str) -> bool:
    """Internal: free ``seat`` now (chips back to the bankroll, ``reason`` in the ledger), or,
    while its player is in the running hand, sit them out and free it when the hand ends.

    Caller holds the table row lock, inside ``transaction.atomic()``. True if freed now.
    """
    if player_in_running_hand(table, seat.player_id):
        seat.leave_after_hand = True
        seat.sitting_out = True
        seat.save(update_fields=["leave_after_hand", "sitting_out"])
        table_touch(table)
        return False
    seat_cash_out(table=table, seat=seat, reason=reason)
    table_touch(table)
    return True


def seat_sit_out(*, table: Table | int, player: Player) -> Seat:
    """Sit out: keep the seat, be dealt out of the next hands. Lock: table row."""
    with transaction.atomic():
        table = table_lock(table)
        seat = _seat_of(table, player)
        if not seat.sitting_out:
            seat.sitting_out = True
            seat.save(update_fields=["sitting_out"])
            table_touch(table)
        return seat


def seat_sit_in(*, table: Table | int, player: Player) -> Seat:
    """Come back: dealt in from the next hand (and stay). Lock: table row. ``RemovedByHost``
    when the host removed the player during this hand: that is the host's call."""
    with transaction.atomic():
        table = table_lock(table)
        seat = _seat_of(table, player)
        if removal_pending(table, player.pk):
            raise RemovedByHost(
                f"The host removed you from {table.name}: you are cashed out when this hand "
                "ends. You may sit down again after it (rejoining, buy in for at least the "
                "chips you leave with)."
            )
        if seat.sitting_out or seat.leave_after_hand or seat.sit_out_next:
            seat.sitting_out = False
            seat.leave_after_hand = False
            seat.sit_out_next = Seat.SitOutNext.NO
            seat.save(update_fields=["sitting_out", "leave_after_hand", "sit_out_next"])
            table_touch(table)
        return seat


def seat_sit_out_next(*, table: Table | int, player: Player, when: str) -> Seat:
    """Sit out as the next hand is dealt (``when`` "hand") or when the big blind reaches you
    ("big_blind"); "" takes it back. Lock: table row."""
    if when not in Seat.SitOutNext.values:
        raise InvalidChoice("Sit out at the next hand or at the next big blind.")
    with transaction.atomic():
        table = table_lock(table)
        seat = _seat_of(table, player)
        if seat.sit_out_next != when:
            seat.sit_out_next = when
            seat.save(update_fields=["sit_out_next"])
            table_touch(table)
        return seat


def seat_post_now(*, table: Table | int, player: Player) -> Seat:
    """Stop waiting for the big blind: dealt in from the next hand, posting a live big blind
    (``InvalidChoice`` when not waiting). Lock: table row."""
    with transaction.atomic():
        table = table_lock(table)
        seat = _seat_of(table, player)
        if not seat.wait_for_big_blind:
            raise InvalidChoice("You are not waiting for the big blind.")
        seat.wait_for_big_blind = False
        if not seat.owes_blinds:
            seat.owes_blinds = Seat.Owes.BIG
        seat.save(update_fields=["wait_for_big_blind", "owes_blinds"])
        table_touch(table)
        return seat


def seat_top_up(*, table: Table, player: Player, amount: int) -> Seat:
    """Add chips from the bankroll to the stack, between hands, up to the maximum buy-in.

    Lock: table row, then player row. Refused while the player is in a running hand.
    """
    with transaction.atomic():
        table = table_lock(table)
        _require_own_seating(table)
        require_open(table)
        seat = _seat_of(table, player)
        amount = _whole_chips(amount, "top-up")
        if player_in_running_hand(table, player.pk):
            raise HandInProgress("Top up between hands: you are in the hand being played.")
        room = table.effective_max_buy_in - seat.stack
        if amount > room:
            raise BuyInOutOfRange(
                f"You can add at most {max(room, 0)} chips (the maximum stack at "
                f"{table.name} is {table.effective_max_buy_in})."
            )
        ledger_record(
            player=player,
            amount=-amount,
            kind=LedgerEntry.Kind.TOP_UP,
            reason=f"Top-up at {table.name}",
            table=table,
        )
        seat.stack += amount
        seat.save(update_fields=["stack"])
        table_touch(table)
        return seat
