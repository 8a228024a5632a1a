"""The night's ledger of a game: what each player brought to the table, took away and has there.

Built from the ``LedgerEntry`` rows written with ``table=`` this table (buy-ins, top-ups,
cash-outs, stack corrections: each amount signed from the bankroll's side) and the seats now:

    net = cash-outs + chips at the table - buy-ins - rebuys - top-ups - corrections

where a buy-in after the player's first one at this table (after busting or leaving) is a
rebuy, and a correction is what the host added to the stack (negative: took off it).

Chips bet in the hand being played are neither in a stack nor cashed out: the ledger counts
them at the table with the player who bet them (``at_table`` = stack + chips bet in the running
hand), which is what the player would have if the hand were called off. So the nets sum to zero
at every moment: every chip brought to the table is in a stack, in the pot, or went back out.

Everything is read at one version of the table (every change that moves chips bumps
``Table.version`` in the same transaction): the reads are repeated if the table changed while
they ran.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction

from engine.debts import Transfer, settle
from tables.models import LedgerEntry, Player, Table
from tables.selectors.hands import hand_state, running_hand
from tables.selectors.table_rows import table_version

#: Reads repeated at most this many times while the table keeps changing under them; the last
#: attempt holds the table row so that it cannot change.
ATTEMPTS = 4


@dataclass(frozen=True)
class LedgerRow:
    """One player's night at a game, in chips."""

    player_id: int
    name: str
    is_bot: bool
    buy_in: int  # the first buy-in at this game
    rebuys: int  # every later buy-in (after busting or leaving), added up
    rebuy_count: int
    top_ups: int
    cash_outs: int
    corrections: int  # chips the host added to the stack (negative: took off)
    at_table: int  # the stack now plus chips bet in the hand being played
    seated: bool
    net: int

    @property
    def brought(self) -> int:
        """Every chip the player brought to the table."""
        return self.buy_in + self.rebuys + self.top_ups + self.corrections


@dataclass(frozen=True)
class Ledger:
    table_id: int
    version: int
    hand_running: bool
    rows: tuple[LedgerRow, ...]

    @property
    def total_net(self) -> int:
        """Zero, always (see the module docstring); shown so that anyone can see it is."""
        return sum(row.net for row in self.rows)

    def nets(self) -> dict[str, int]:
        """Player name -> net, for ``engine.debts.settle``."""
        return {row.name: row.net for row in self.rows}

    def settle_up(self) -> list[Transfer[str]] | None:
        """The fewest transfers that square the nets; None if they do not sum to zero, which
        the services never allow but rows written around them could (nothing to settle then)."""
        if self.total_net != 0:
            return None
        return settle(self.nets())


def table_ledger(table: Table | int) -> Ledger:
    """The ledger of ``table`` now: a row per player who bought in or is seated, by name."""
    table_id = table.pk if isinstance(table, Table) else table
    for _ in range(ATTEMPTS - 1):
        before = _version(table_id)
        ledger = _read(table_id, before)
        if _version(table_id) == before:
            return ledger
    with transaction.atomic():
        version = (
            Table.objects.select_for_update().values_list("version", flat=True).get(pk=table_id)
        )
        return _read(table_id, version)


def _version(table_id: int) -> int:
    version = table_version(table_id)
    if version is None:
        raise Table.DoesNotExist(f"no table {table_id}")
    return version


def _read(table_id: int, version: int) -> Ledger:
    table = Table(pk=table_id)
    entries = (
        LedgerEntry.objects.filter(table_id=table_id)
        .order_by("created_at", "id")
        .values_list("player_id", "kind", "amount")
    )
    totals: dict[int, dict[str, int]] = {}
    kinds = LedgerEntry.Kind
    for player_id, kind, amount in entries:
        row = totals.setdefault(player_id, dict.fromkeys(_COUNTED, 0))
        if kind == kinds.BUY_IN:
            if row["buy_ins"] == 0:
                row["buy_in"] = -amount
            else:
                row["rebuys"] -= amount
                row["rebuy_count"] += 1
            row["buy_ins"] += 1
        elif kind == kinds.TOP_UP:
            row["top_ups"] -= amount
        elif kind == kinds.CASH_OUT:
            row["cash_outs"] += amount
        elif kind == kinds.CORRECTION:
            row["corrections"] -= amount  # the bankroll paid it: the stack got it
    at_table = dict(table.seats.values_list("player_id", "stack"))
    hand = running_hand(table)
    if hand is not None:
        state = hand_state(hand)
        for start, now in zip(hand.seats, state.stacks, strict=True):
            bet = start["stack"] - now
            at_table[start["player_id"]] = at_table.get(start["player_id"], 0) + bet
    username = f"user__{get_user_model().USERNAME_FIELD}"
    players = {
        pk: (name, is_bot)
        for pk, name, is_bot in Player.objects.filter(
            pk__in=set(totals) | set(at_table)
        ).values_list("pk", username, "is_bot")
    }
    rows = []
    for player_id, (name, is_bot) in players.items():
        row = totals.get(player_id) or dict.fromkeys(_COUNTED, 0)
        chips = at_table.get(player_id, 0)
        brought = row["buy_in"] + row["rebuys"] + row["top_ups"] + row["corrections"]
        rows.append(
            LedgerRow(
                player_id=player_id,
                name=name,
                is_bot=is_bot,
                buy_in=row["buy_in"],
                rebuys=row["rebuys"],
                rebuy_count=row["rebuy_count"],
                top_ups=row["top_ups"],
                cash_outs=row["cash_outs"],
                corrections=row["corrections"],
                at_table=chips,
                seated=player_id in at_table,
                net=row["cash_outs"] + chips - brought,
            )
        )
    rows.sort(key=lambda row: (row.name.casefold(), row.player_id))
    return Ledger(
        table_id=table_id, version=version, hand_running=hand is not None, rows=tuple(rows)
    )


_COUNTED = ("buy_ins", "buy_in", "rebuys", "rebuy_count", "top_ups", "cash_outs", "corrections")
