"""The add-on: once per player, chips added at the table for a price, at the end of rebuys.

Offered when the organiser set ``Tournament.addon_chips`` (and ``addon_price``; rebuys on):
during the last rebuy level and a break after it, while rebuys are open
(``selectors.addon_refusal``). A player still in takes it between their hands: the price
goes into the prize pool through the ledger, the chips onto their stack, so the tournament's
chips grow by exactly ``addon_chips`` (``selectors.chips_issued``).

Locks: the player's table, then the tournament row, then the player row (the order every
tournament service keeps).
"""

from __future__ import annotations

from django.db import transaction

from tables.models import LedgerEntry, Player, Seat
from tables.services.events import table_lock, table_touch
from tables.services.players import ledger_record
from tables.tournaments.errors import AddonRefused, NotRegistered
from tables.tournaments.models import Entry, Tournament
from tables.tournaments.selectors import addon_refusal
from tables.tournaments.services.rebuys import in_running_hand
from tables.tournaments.services.setup import tournament_lock


def tournament_addon(*, tournament: Tournament, player: Player) -> Entry:
    """``player`` takes the add-on (see the module docstring); ``AddonRefused`` says why
    not, and nothing changes. Returns the entry."""
    for _ in range(3):  # balancing may move the player between the read and the lock
        with transaction.atomic():
            table_id = _seat_table_id(tournament, player)
            locked = table_lock(table_id) if table_id is not None else None
            tournament = tournament_lock(tournament)
            entry = tournament.entries.select_related("player").filter(player=player).first()
            if entry is None:
                raise NotRegistered(f"You are not in {tournament.name}.")
            seat = Seat.objects.filter(
                player=player, table__tournament_table__tournament=tournament
            ).first()
            if seat is not None and (locked is None or seat.table_id != locked.pk):
                continue  # moved meanwhile: look again
            problem = addon_refusal(
                tournament,
                entry,
                seated=seat is not None,
                in_hand=seat is not None and in_running_hand(seat),
            )
            if problem is not None:
                raise AddonRefused(problem)
            assert seat is not None and locked is not None  # seated: refused otherwise
            _pay(tournament, entry)
            Seat.objects.filter(pk=seat.pk).update(stack=seat.stack + tournament.addon_chips)
            table_touch(locked)
            return entry
    raise AddonRefused("Your seat is changing: try again in a moment.")


def _seat_table_id(tournament: Tournament, player: Player) -> int | None:
    return (
        Seat.objects.filter(player=player, table__tournament_table__tournament=tournament)
        .values_list("table_id", flat=True)
        .first()
    )


def _pay(tournament: Tournament, entry: Entry) -> None:
    """The price from the bankroll into the prize pool; the entry marked. Caller holds the
    tournament lock."""
    price = tournament.addon_price
    if price:
        ledger_record(
            player=entry.player,
            amount=-price,
            kind=LedgerEntry.Kind.TOURNAMENT_ENTRY,
            reason=f"Add-on in {tournament.name}",
        )
    tournament.prize_pool += price
    Tournament.objects.filter(pk=tournament.pk).update(prize_pool=tournament.prize_pool)
    entry.fee_paid += price
    entry.addon_taken = True
    entry.save(update_fields=["fee_paid", "addon_taken"])
