"""Where every chip is: the chip-conservation invariant's read."""

from __future__ import annotations

from django.db.models import Sum

from tables.models import Hand, LedgerEntry, Player, Seat


def chips_in_running_hands() -> int:
    """Chips bet in hands still being played (taken from stacks, not yet paid out)."""
    total = 0
    stacks = {(s.table_id, s.player_id): s.stack for s in Seat.objects.all()}
    for hand in Hand.objects.filter(status=Hand.Status.RUNNING):
        behind = sum(stacks.get((hand.table_id, s["player_id"]), 0) for s in hand.seats)
        total += hand.start_total - behind
    return total


def chips_total() -> dict:
    """Where every chip is: bankrolls, stacks, running hands, and what was ever granted.

    Invariant: ``bankrolls + stacks + in_hands == granted``.
    """
    bankrolls = Player.objects.aggregate(t=Sum("bankroll"))["t"] or 0
    stacks = Seat.objects.aggregate(t=Sum("stack"))["t"] or 0
    granted = (
        LedgerEntry.objects.filter(kind__in=LedgerEntry.GRANT_KINDS).aggregate(t=Sum("amount"))["t"]
        or 0
    )
    return {
        "bankrolls": bankrolls,
        "stacks": stacks,
        "in_hands": chips_in_running_hands(),
        "granted": granted,
    }
