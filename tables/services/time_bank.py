"""The time bank's refill: seconds given back to every seated player between hands.

A cash table refills after every ``Table.time_bank_refill_hands`` hands (``refill_after_hand``,
a ``hooks.hand_ended`` listener); a tournament at every new level (its ``before_hand``).
A bank never grows past the table's ``time_bank_seconds``; one already above it (the host
made the bank smaller) is left as it is. The caller holds the table row lock.
"""

from __future__ import annotations

from django.db.models import F, Value
from django.db.models.functions import Least

from tables.models import Hand, Seat, Table


def time_bank_refill(table: Table, seconds: int) -> int:
    """Give each player seated at ``table`` up to ``seconds`` back, capped at the bank's size.
    Returns how many seats gained time."""
    if seconds <= 0:
        return 0
    cap = table.time_bank_seconds
    return Seat.objects.filter(table=table, time_bank__lt=cap).update(
        time_bank=Least(F("time_bank") + seconds, Value(cap))
    )


def refill_after_hand(table: Table, hand: Hand) -> None:
    """After every ``time_bank_refill_hands``-th hand dealt at ``table``, refill the banks."""
    every = table.time_bank_refill_hands
    if table.time_bank_refill_seconds and every and hand.number % every == 0:
        time_bank_refill(table, table.time_bank_refill_seconds)
