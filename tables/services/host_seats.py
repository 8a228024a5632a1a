"""The host's controls over one player's seat: *Set stack*, *Sit out*, *Remove*, and
handing the host role to a player. Each is one transaction holding the table row lock, as
every host control (``tables.services.hosting``); a change to a player in the hand being
played waits for its end (``tables.services.host_pending``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db import transaction

from tables.models import Player, Seat, Table, TableGuest
from tables.selectors.hands import player_in_running_hand
from tables.selectors.hosting import removal_pending
from tables.services.errors import InvalidAmount, NotSeated
from tables.services.events import table_touch
from tables.services.host_pending import (
    addition_refusal,
    notice_post,
    pending_queue,
    stack_correct,
    stack_out_of_range,
    stack_shown,
)
from tables.services.hosting import host_name_of, hosted_table
from tables.services.seats import seat_cash_out

if TYPE_CHECKING:
    from tables.selectors.access import Viewer


def _seat_of(table: Table, player: Player) -> Seat:
    seat = table.seats.select_related("player__user").filter(player=player).first()
    if seat is None:
        raise NotSeated(f"{player} has no seat at {table.name}.")
    return seat


@dataclass(frozen=True)
class StackCorrection:
    """What a host's *Set stack* did: ``done_now``, or it waits for the end of the player's
    hand as ``change`` (the stack asked minus ``shown``, the stack shown when asked), added
    then to the stack the hand leaves. ``message``: the confirmation for the host."""

    done_now: bool
    stack: int
    shown: int
    change: int
    message: str


def table_correct_stack(
    *, table: Table | int, by: Viewer, player: Player, stack: object, shown: object = None
) -> StackCorrection:
    """Set a player's stack to ``stack`` chips through the ledger (a ``correction`` entry
    moving the difference between their bankroll and the table: never creating chips).
    The stack stays within the buy-in range and takes from the bankroll only what earlier
    corrections gave back (``host_pending.correction_refusal``: ``BuyInOutOfRange``).

    While the player is in the hand being played it applies at the hand's end as a
    difference, keeping the hand's result: ``stack`` minus the stack shown now is added to
    the stack the hand leaves (PokerNow's "in the next hand"; checked again then). A later
    correction of the same player during the hand replaces the earlier one.

    ``shown``: the stack the host's panel showed (``host_pending.stack_shown``): the
    difference is taken from the number the host saw, never from one that moved meanwhile."""
    if isinstance(stack, bool) or not isinstance(stack, int) or stack < 1:
        raise InvalidAmount("The stack must be a whole number of chips, at least 1.")
    with transaction.atomic():
        table = hosted_table(table, by)
        seat = _seat_of(table, player)
        shown = stack_shown(table, seat, player, shown)
        change = stack - shown
        if player_in_running_hand(table, player.pk):
            refusal = stack_out_of_range(table, stack) or addition_refusal(table, seat, change)
            if refusal is not None:
                raise refusal
            pending_queue(
                table,
                correction={
                    "player_id": player.pk,
                    "stack": stack,
                    "shown": shown,
                    "change": change,
                    "by": host_name_of(by),
                },
            )
            message = (
                f"{player} is in this hand: when it ends, their stack changes by {change:+} "
                f"({stack} asked, {shown} shown), keeping the hand's result."
            )
            notice_post(
                table,
                f"The host set {player}'s stack to {stack} during the hand: when it ends, it "
                f"changes by {change:+} ({shown} shown then), keeping the hand's result.",
            )
            table_touch(table)
            return StackCorrection(False, stack, shown, change, message)
        stack_correct(table, seat, stack, host_name_of(by))
        notice_post(table, f"The host corrected {player}'s stack to {stack}.")
        table_touch(table)
        return StackCorrection(True, stack, shown, change, f"{player}'s stack is now {stack}.")


def table_host_remove(*, table: Table | int, by: Viewer, player: Player) -> bool:
    """Remove a player: cashed out now, or, while they are in the hand being played, when it
    ends: they play it out as usual (their clock, their buttons) and cannot undo the removal
    (``seats.seat_sit_in`` refuses). True if now."""
    with transaction.atomic():
        table = hosted_table(table, by)
        seat = _seat_of(table, player)
        if player_in_running_hand(table, player.pk):
            if removal_pending(table, player.pk):
                return False  # removed already: nothing new to announce
            pending_queue(table, remove=player.pk)
            notice_post(
                table,
                f"The host removed {player}: they are cashed out when this hand ends.",
            )
            table_touch(table)
            return False
        seat_cash_out(table=table, seat=seat, reason=f"Removed from {table.name} by the host")
        notice_post(table, f"The host removed {player}.")
        table_touch(table)
        return True


def table_host_sit_out(*, table: Table | int, by: Viewer, player: Player) -> bool:
    """Sit a player out: dealt out of new hands until they come back. While they are in the
    hand being played they play it out as usual (their clock, their buttons) and are sat out
    when it ends. True if now."""
    with transaction.atomic():
        table = hosted_table(table, by)
        seat = _seat_of(table, player)
        if seat.sitting_out:
            return True
        if player_in_running_hand(table, player.pk):
            if player.pk in (table.pending_changes or {}).get("sit_out", []):
                return False  # sat out already: nothing new to announce
            pending_queue(table, sit_out=player.pk)
            notice_post(
                table, f"The host sits {player} out: they play this hand out, then sit out."
            )
            table_touch(table)
            return False
        Seat.objects.filter(pk=seat.pk).update(sitting_out=True)
        seat.sitting_out = True
        notice_post(table, f"The host sat {player} out.")
        table_touch(table)
        return True


def table_host_transfer(*, table: Table | int, by: Viewer, player: Player) -> Table:
    """Hand the host role to ``player``, who must be seated at the game or one of its guests."""
    with transaction.atomic():
        table = hosted_table(table, by)
        if player.is_bot:
            raise NotSeated("A bot cannot host a game.")
        known = (
            table.seats.filter(player=player).exists()
            or TableGuest.objects.filter(table=table, player=player).exists()
        )
        if not known:
            raise NotSeated(f"{player} is neither seated at {table.name} nor one of its guests.")
        if table.host_id is not None and table.host_id != player.pk:
            # The former host stays a guest: a private game they ran must not vanish for them.
            TableGuest.objects.get_or_create(table=table, player_id=table.host_id)
        table.host = player
        Table.objects.filter(pk=table.pk).update(host=player)
        notice_post(table, f"{player} is the host now.")
        table_touch(table)
        return table
