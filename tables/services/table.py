"""Running tables: create/edit (admin), pause, resume, close, remove a player.

Every function runs in one transaction holding the table row lock; every change bumps
``Table.version`` and publishes ``table.changed`` on commit.
"""

from __future__ import annotations

from django.db import transaction

from tables.models import Player, Table
from tables.selectors.hands import running_hand
from tables.services.errors import NotSeated, SeatingClosed
from tables.services.events import table_lock, table_touch
from tables.services.hands import hand_void
from tables.services.hooks import rules_for
from tables.services.host_pending import GAME_FIELDS
from tables.services.seats import seat_cash_out, seat_release

#: The fields an admin may edit; everything else (status, version, button, clocks) is the
#: services' business. Stakes changed here apply from the next hand: a running hand keeps
#: the config it was dealt with.
EDITABLE_FIELDS = (
    "name",
    *GAME_FIELDS,
    "max_seats",
    "min_buy_in",
    "max_buy_in",
    "action_seconds",
    "time_bank_seconds",
    "bots_allowed",
    "bot_seats",
)


def table_save(*, table: Table) -> Table:
    """Create ``table`` or store the admin's edits of its settings (validated).

    Lock: the table row (when it exists). Only ``EDITABLE_FIELDS`` are written.
    """
    table.full_clean(exclude=["version"])
    with transaction.atomic():
        if table.pk is None:  # a new table (the stubs type pk as always set)
            table.save()  # type: ignore[unreachable]
            return table
        locked = table_lock(table)
        for field in EDITABLE_FIELDS:
            setattr(locked, field, getattr(table, field))
        locked.save(update_fields=list(EDITABLE_FIELDS))
        table_touch(locked)
        table.version = locked.version
        return locked


def _set_status(table: Table, status: str) -> Table:
    with transaction.atomic():
        table = table_lock(table)
        if table.status != status:
            table.status = status
            table.save(update_fields=["status"])
            table_touch(table)
        return table


def table_pause(*, table: Table) -> Table:
    """Pause: the hand being played finishes, no new hand starts. Lock: table row."""
    return _set_status(table, Table.Status.PAUSED)


def table_resume(*, table: Table) -> Table:
    """Open a paused (or closed) table again. Lock: table row."""
    return _set_status(table, Table.Status.OPEN)


TOURNAMENT_CHIPS = (
    "{table} is a tournament's table: its chips belong to the tournament, not to bankrolls, "
    "so nobody is removed or cashed out here (the tournament moves and ranks its players)."
)


def _refuse_at_a_tournament_table(table: Table) -> None:
    """A table that seats its own players (a tournament's) pays nobody out: removing a
    player or closing it would turn tournament chips into bankroll chips."""
    if rules_for(table).seating_closed:
        raise SeatingClosed(TOURNAMENT_CHIPS.format(table=table.name))


def table_close(*, table: Table) -> Table:
    """Close the table and cash everyone out (refused at a tournament's table).

    Lock: table row, then each player row. A hand still running is voided first (every
    stack back to what it was when the hand started), so nobody loses chips to a hand that
    could not finish.
    """
    with transaction.atomic():
        table = table_lock(table)
        _refuse_at_a_tournament_table(table)
        hand = running_hand(table)
        if hand is not None:
            hand_void(table=table, hand_id=hand.pk, reason="The table was closed.")
        for seat in table.seats.select_related("player__user"):
            seat_cash_out(table=table, seat=seat, reason=f"{table.name} closed")
        table.status = Table.Status.CLOSED
        table.action_deadline, table.action_banked = None, False
        table.next_hand_at = None
        table.save(update_fields=["status", "action_deadline", "action_banked", "next_hand_at"])
        table_touch(table)
        return table


def table_remove_player(*, table: Table, player: Player) -> bool:
    """An admin removes a player from their seat; their chips go back to their bankroll.
    Refused at a tournament's table (``SeatingClosed``).

    Lock: table row, then player row. If the player is in the hand being played, they are
    sat out (the clock folds them) and cashed out when it ends; returns True if removed now.
    Refused at a tournament's table (``SeatingClosed``): its chips are not the bankroll's.
    """
    with transaction.atomic():
        table = table_lock(table)
        _refuse_at_a_tournament_table(table)
        seat = table.seats.select_related("player__user").filter(player=player).first()
        if seat is None:
            raise NotSeated(f"{player} has no seat at {table.name}.")
        return seat_release(table=table, seat=seat, reason=f"Removed from {table.name} by an admin")
