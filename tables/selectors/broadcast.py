"""What the hole-card broadcast (issue 53) reads: whether a hand dealt now is broadcast,
whether a player is asked to agree, and when each street of a timed broadcast began."""

from __future__ import annotations

from datetime import datetime

from engine.hand import Hand as EngineHand
from tables.models import BroadcastConsent, Hand, HandAction, Player, Seat, Table


def broadcast_for_deal(table: Table, player_ids: list[int]) -> str:
    """What ``Hand.broadcast`` is for a hand dealt now to ``player_ids``: empty unless the
    host proposes it and every player seated (and dealt in) agreed (bots, played by the site,
    agree by themselves), else the delay: ``0``, ``street``, ``hand`` or ``m<N>``, with
    ``+tv`` when the room screen shows them too (as agreed: fixed for the hand)."""
    if not table.broadcast_proposed:
        return ""
    people = set(
        Seat.objects.filter(table=table, player__is_bot=False).values_list("player_id", flat=True)
    )
    people |= set(
        Player.objects.filter(pk__in=player_ids, is_bot=False).values_list("pk", flat=True)
    )
    agreed = set(
        BroadcastConsent.objects.filter(table=table, player_id__in=people).values_list(
            "player_id", flat=True
        )
    )
    if people - agreed:
        return ""
    delay = table.broadcast_delay
    code = {"none": "0", "minutes": f"m{table.broadcast_minutes}"}.get(delay, delay)
    return code + ("+tv" if table.broadcast_room_screen else "")


def broadcast_agreed(table: Table, player: Player | None) -> bool:
    """Whether ``player`` agrees to ``table``'s broadcast now."""
    return (
        player is not None and BroadcastConsent.objects.filter(table=table, player=player).exists()
    )


def broadcast_waiting_for(table: Table) -> list[str]:
    """The names of the seated people who have not agreed to the proposed broadcast."""
    agreed = BroadcastConsent.objects.filter(table=table).values_list("player_id", flat=True)
    return [
        seat.player.name
        for seat in Seat.objects.filter(table=table, player__is_bot=False)
        .exclude(player_id__in=agreed)
        .select_related("player__user")
        .order_by("number")
    ]


def street_times(hand: Hand, state: EngineHand) -> tuple[datetime, ...]:
    """When each street of ``hand`` (as far as ``state`` has dealt) began: the hand's start,
    then the moment of the decision that closed the street before (its ``HandAction``)."""
    closing = [decisions - 1 for _, decisions in state.street_starts[1:] if decisions > 0]
    moments = dict(
        HandAction.objects.filter(hand=hand, index__in=closing).values_list("index", "created_at")
    )
    times = [hand.started_at]
    for _, decisions in state.street_starts[1:]:
        moment = moments.get(decisions - 1) if decisions > 0 else times[-1]
        if moment is None:  # not written yet: this street and the later ones wait
            break
        times.append(moment)
    return tuple(times)
