"""What a sit-down (or a request to sit down) made, for the table's runtime that wrote it.

A runtime's write (``tables.live.runtime``) listens here: ``seat_ask`` (a socket's
``take_seat``) notes the table row as it locked and bumped it and the seat it added (a request
filed for the host adds none: only the version moved), so that the table's next version is
built from the version before (``tables.selectors.snapshot_seated``) instead of being read.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass

from tables.models import Player, Seat, Table
from tables.selectors.snapshot import SeatedPlayer, SeatRow


@dataclass(frozen=True, slots=True)
class SeatMade:
    """A sit-down as its write committed it, at the table's ``version`` that write made."""

    version: int
    table: Table  # its row as locked, ``table_touch`` done: the row at ``version``
    seat: SeatRow | None  # the seat taken, as a read shows it (None: a request was filed)


#: Where the writes note their sit-downs while a runtime's write listens (its thread's
#: context); unset: nobody listens, nothing is noted.
seats_made: ContextVar[list[SeatMade] | None] = ContextVar("seats_made", default=None)


def seat_made(table: Table, seat: Seat | None, player: Player) -> None:
    """Note ``seat`` taken by ``player`` (its bankroll and bot flags as the write locked its
    row), or a request filed (None), at ``table``'s version after its ``table_touch``."""
    made = seats_made.get()
    if made is None:
        return
    row = None
    if seat is not None:
        row = SeatRow(
            seat.number,
            player.pk,
            seat.stack,
            seat.sitting_out,
            seat.leave_after_hand,
            SeatedPlayer(
                player.name, player.is_bot or player.bot_account, player.bankroll, player.is_bot
            ),
            seat.time_bank,
            seat.wait_for_big_blind,
        )
    made.append(SeatMade(table.version, table, row))
