"""The hole-card broadcast (issue 53) in the hosting panel: the host's proposal, and each
seated player's own answer (``tables.services.broadcast`` does the work)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from tables.models import Player, Seat, Table
from tables.selectors.broadcast import broadcast_agreed, broadcast_waiting_for
from tables.services.broadcast import (
    DELAYS,
    broadcast_agree,
    broadcast_withdraw,
    delay_words,
    table_broadcast_propose,
    table_broadcast_stop,
)
from tables.text import parse_whole_number

#: The host's choices, in words.
DELAY_CHOICES = (
    ("none", "at once"),
    ("street", "one street later"),
    ("hand", "when the hand is over"),
    ("minutes", "minutes after the deal"),
)
assert tuple(code for code, _ in DELAY_CHOICES) == DELAYS


def broadcast_context(table: Table, player: Player | None) -> dict[str, Any]:
    """What the hosting panel shows of the broadcast to ``player`` (None: a visitor)."""
    seated = player is not None and Seat.objects.filter(table=table, player=player).exists()
    return {
        "proposed": table.broadcast_proposed,
        "words": delay_words(table),
        "seated": seated,
        "agreed": seated and broadcast_agreed(table, player),
        "waiting": broadcast_waiting_for(table) if table.broadcast_proposed else [],
        "choices": DELAY_CHOICES,
    }


def host_propose(request: HttpRequest, table: Table) -> str:
    """The host's form: the delay, its minutes and whether the room screen shows them."""
    delay = request.POST.get("delay", "")
    minutes = parse_whole_number(
        request.POST.get("minutes") or "5", what="The delay in minutes", minimum=1, maximum=120
    )
    room_screen = request.POST.get("room_screen") in ("1", "on", "true")
    table_broadcast_propose(
        table=table, by=request.user, delay=delay, minutes=minutes, room_screen=room_screen
    )
    return "Proposed: each seated player is asked to agree."


def host_stop(request: HttpRequest, table: Table) -> str:
    table_broadcast_stop(table=table, by=request.user)
    return "Hole cards are not shown to spectators from the next hand."


def player_answer(table: Table, player: Player, agree: bool) -> str:
    """A seated player agrees or withdraws, for themselves."""
    if agree:
        broadcast_agree(table=table, player=player)
        return "You agree to show your hole cards to spectators."
    broadcast_withdraw(table=table, player=player)
    return "You withdrew: hole cards are not shown to spectators from the next hand."
