"""Rebuys: the entry fee again for another starting stack, during the first levels.

A player may rebuy (``Tournament.rebuy_levels`` > 0, at most ``max_rebuys`` times) while
rebuys are open, when their stack is at or below the starting stack (added to it between
their hands) or when they are out (seated again at the shortest table, their elimination
undone). The fee goes into the prize pool through the ledger, the chips onto the table: the
tournament's chips grow by exactly one starting stack (``selectors.chips_issued``).

Locks: the player's table (or the shortest table), then the tournament row, then the player
row (the order every tournament service keeps).
"""

from __future__ import annotations

from django.db import transaction

from tables.models import Hand, Player, Seat, Table
from tables.services.events import table_lock, table_touch
from tables.tournaments.errors import NotRegistered, RebuyRefused
from tables.tournaments.models import Entry, Tournament
from tables.tournaments.selectors import rebuy_refusal
from tables.tournaments.services.places import outs_rank
from tables.tournaments.services.setup import (
    entry_fee_pay,
    seat_down,
    shortest_table,
    tournament_lock,
)


def tournament_rebuy(*, tournament: Tournament, player: Player) -> Entry:
    """Rebuy for ``player`` (see the module docstring); ``RebuyRefused`` says why not, and
    nothing changes. Returns the entry."""
    for _ in range(3):  # balancing may move the player between the read and the lock
        with transaction.atomic():
            table = _players_table(tournament, player)
            locked = table_lock(table) if table is not None else None
            tournament = tournament_lock(tournament)
            entry = tournament.entries.select_related("player").filter(player=player).first()
            if entry is None:
                raise NotRegistered(f"You are not in {tournament.name}.")
            seat = Seat.objects.filter(
                player=player, table__tournament_table__tournament=tournament
            ).first()
            # The rules that do not depend on the seat first (a tournament not running has
            # no seat to look for), then, with the seat locked, its chips and hand.
            problem = rebuy_refusal(tournament, entry, stack=None, in_hand=False)
            if problem is not None:
                raise RebuyRefused(problem)
            if entry.out_batch is None and (
                seat is None or seat.table_id != getattr(locked, "pk", None)
            ):
                continue  # moved (or went out) meanwhile: look again
            problem = rebuy_refusal(
                tournament,
                entry,
                stack=seat.stack if seat is not None else None,
                in_hand=seat is not None and in_running_hand(seat),
            )
            if problem is not None:
                raise RebuyRefused(problem)
            if seat is not None:
                assert locked is not None  # the seat's table, locked above (else: looked again)
                _add_chips(tournament, entry, locked, seat)
            else:
                _seat_again(tournament, entry, locked)
            return entry
    raise RebuyRefused("Your seat is changing: try again in a moment.")


def _players_table(tournament: Tournament, player: Player) -> Table | int | None:
    """The table ``player`` sits at in ``tournament``, else the shortest (to seat them)."""
    table_id = (
        Seat.objects.filter(player=player, table__tournament_table__tournament=tournament)
        .values_list("table_id", flat=True)
        .first()
    )
    return table_id if table_id is not None else shortest_table(tournament)


def in_running_hand(seat: Seat) -> bool:
    hand = Hand.objects.filter(table_id=seat.table_id, status=Hand.Status.RUNNING).first()
    return hand is not None and any(s["player_id"] == seat.player_id for s in hand.seats)


def _add_chips(tournament: Tournament, entry: Entry, table: Table, seat: Seat) -> None:
    entry_fee_pay(tournament, entry, f"Rebuy in {tournament.name}")
    entry.rebuys += 1
    entry.save(update_fields=["rebuys", "fee_paid", "bounty"])
    Seat.objects.filter(pk=seat.pk).update(stack=seat.stack + tournament.starting_stack)
    table_touch(table)


def _seat_again(tournament: Tournament, entry: Entry, table: Table | None) -> None:
    taken = set(table.seats.values_list("number", flat=True)) if table is not None else set()
    free = sorted(set(range(table.max_seats)) - taken) if table is not None else []
    if table is None or not free:
        raise RebuyRefused(f"{tournament.name} has no free seat right now: try again soon.")
    entry_fee_pay(tournament, entry, f"Rebuy in {tournament.name}")
    entry.rebuys += 1
    entry.out_batch = entry.out_order = entry.out_chips = entry.out_at = None
    entry.save(
        update_fields=[
            "rebuys",
            "fee_paid",
            "bounty",
            "out_batch",
            "out_order",
            "out_chips",
            "out_at",
        ]
    )
    outs_rank(tournament)
    seat_down(table, entry.player, free[0], tournament.starting_stack)
