"""The rows a table's snapshot is read from (``tables.selectors.snapshot``), each in one
compiled query without building models where it can: the table with its seats and their
players, the table's version alone, its recent finished hands."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from django.contrib.auth import get_user_model
from django.db import router
from django.db.models import QuerySet

from tables.db import statements
from tables.models import Hand, Seat, Table
from tables.pre_actions import PreAction

#: How many finished hands the table page links to.
RECENT_HANDS = 8


@dataclass(frozen=True, slots=True)
class SeatedPlayer:
    """What a table screen shows of a seated player (``is_bot``: the bot badge, for the
    croupier's bots and for bot accounts)."""

    name: str
    is_bot: bool
    bankroll: int


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A seat as a snapshot holds it: the columns the screens use, read in one compiled query
    without building models (every table socket's snapshot reads the seats)."""

    number: int
    player_id: int
    stack: int
    sitting_out: bool
    leave_after_hand: bool
    player: SeatedPlayer
    time_bank: int = 0  # seconds left
    waiting_for_big_blind: bool = False
    sit_out_next: str = ""  # "hand", "big_blind" or ""
    pre_action: PreAction | None = None  # what the player ticked to do in advance


class RecentHand(NamedTuple):
    """A finished hand the table page links to."""

    number: int
    pot: int


def table_and_seats(
    table_id: int, known: Table | None = None
) -> tuple[Table | None, list[SeatRow]]:
    """A table and its seats with their players, in no particular order: one compiled query
    (two for a table nobody sits at, unless the caller ``known`` its row). ``(None, [])``
    when there is no such table."""
    rows = statements.select_values(Seat, "snapshot-seats", _seats_query, table_id)
    if not rows:
        if known is not None:
            return known, []
        return statements.select_first(Table, "snapshot-table", _table_query, table_id), []
    table_columns = _table_columns()
    table = statements.from_row(Table, router.db_for_read(Table), rows[0][-len(table_columns) :])
    return table, [
        SeatRow(
            number,
            player_id,
            stack,
            sitting_out,
            leaving,
            SeatedPlayer(name, is_bot or bot_account, bankroll),
            time_bank,
            waiting,
            sit_out_next,
            PreAction(pre_kind, pre_amount, pre_hand, pre_street) if pre_kind else None,
        )
        for (
            number,
            player_id,
            stack,
            sitting_out,
            leaving,
            time_bank,
            waiting,
            sit_out_next,
            pre_kind,
            pre_amount,
            pre_hand,
            pre_street,
            name,
            is_bot,
            bot_account,
            bankroll,
            *_,
        ) in rows
    ]


def _table_columns() -> list[str]:
    return [field.attname for field in Table._meta.concrete_fields]


def _seats_query(table_id: int) -> QuerySet[Seat, tuple[Any, ...]]:
    username = get_user_model().USERNAME_FIELD
    # Unordered (the snapshot keys seats by number): Seat's default ordering goes through
    # the table's, a join.
    return (
        Seat.objects.filter(table_id=table_id)
        .order_by()
        .values_list(
            "number",
            "player_id",
            "stack",
            "sitting_out",
            "leave_after_hand",
            "time_bank",
            "wait_for_big_blind",
            "sit_out_next",
            "pre_action",
            "pre_action_amount",
            "pre_action_hand",
            "pre_action_street",
            f"player__user__{username}",
            "player__is_bot",
            "player__bot_account",
            "player__bankroll",
            *(f"table__{name}" for name in _table_columns()),
        )
    )


def _table_query(table_id: int) -> QuerySet[Table]:
    return Table.objects.filter(pk=table_id).order_by()[:1]


def recent_hands(table_id: int) -> tuple[RecentHand, ...]:
    """The table's last ``RECENT_HANDS`` finished hands, newest first."""
    return tuple(
        map(
            RecentHand._make,
            statements.select_values(
                Hand, "recent-hands", _recent_query, table_id, Hand.Status.FINISHED
            ),
        )
    )


def _recent_query(table_id: int, finished: str) -> QuerySet[Hand, tuple[int, int]]:
    return (
        Hand.objects.filter(table_id=table_id)
        .filter(status=finished)
        .order_by("-number")
        .values_list("number", "pot")[:RECENT_HANDS]
    )


def table_version(table_id: int) -> int | None:
    """The table's version now (None: no such table): one compiled query."""
    row = statements.select_values(Table, "snapshot-version", _version_query, table_id)
    return row[0][0] if row else None


def _version_query(table_id: int) -> QuerySet[Table, tuple[Any, ...]]:
    return Table.objects.filter(pk=table_id).order_by().values_list("version")[:1]
