"""The hole-card broadcast (issue 53) as spectators see it: every hole card, after a delay.

A hand dealt while every seated player agreed (``Hand.broadcast``: its delay, and ``+tv``
when its host allowed the room screen too) shows its hole cards to the viewers with no seat
at the table (and to that room screen), each once its delay has passed:

- ``0``: at once;
- ``street``: a card dealt on a street once the hand (as on screen) moved to the next one;
- ``hand``: once the hand is over;
- ``m<N>``: N minutes after the street it was dealt on began (``Snapshot.street_times``;
  the table's runtime pushes the reveal when its moment comes, ``tables.live.runtime``).

What a viewer sees is ``revealed``: how many streets, from the first, have their hole cards
shown (0: none). The cards come from each seat's own engine view (the engine's one viewer
filter) and the street each was dealt on from the engine's ``street_starts``. Seated players
never get this: their screens are built without it (``viewer_parts``' ``revealed``).
Pure: no database read; the caller gives the time.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from engine.types import EventKind
from tables.presenters.models import CardFace, SeatPanel
from tables.presenters.shared_screen import hand_seat_numbers, shared_screen

if TYPE_CHECKING:
    from engine.view import View
    from tables.selectors.snapshot import Snapshot

#: More streets than any game has: every card dealt so far.
EVERY_STREET = 99
_DEALT = frozenset({EventKind.DEAL_HOLE, EventKind.DEAL_UP, EventKind.DRAW})


def broadcast_reveal(
    snapshot: Snapshot, player_id: int | None, now: datetime, room_screen: bool = False
) -> int:
    """How many streets' hole cards ``player_id`` (None: a visitor) sees through the
    broadcast at ``now``: 0 for a seated player or one dealt in, a hand not broadcast, or a
    room screen its host keeps it from."""
    hand, state = snapshot.hand, snapshot.state
    if hand is None or state is None or not hand.broadcast:
        return 0
    delay, _, where = hand.broadcast.partition("+")
    if room_screen and where != "tv":
        return 0
    if player_id is not None and (
        snapshot.seat_of(player_id) is not None or snapshot.hand_index_of(player_id) is not None
    ):
        return 0
    view = snapshot.view(None)
    over = view.street == "over"
    if delay == "0" or over and delay in ("street", "hand"):
        return EVERY_STREET
    if delay == "street":
        return view.config.streets.index(view.street)
    if delay == "hand":
        return 0
    after = timedelta(minutes=int(delay[1:]))
    revealed = 0
    for began in snapshot.street_times:
        if began + after > now:
            break
        revealed += 1
    return revealed


def next_reveal(snapshot: Snapshot, now: datetime) -> datetime | None:
    """When a timed broadcast shows its next street's cards (None: nothing waits on time)."""
    hand = snapshot.hand
    if hand is None or not hand.broadcast.startswith("m"):
        return None
    after = timedelta(minutes=int(hand.broadcast.partition("+")[0][1:]))
    return next((t + after for t in snapshot.street_times if t + after > now), None)


def broadcast_panels(
    snapshot: Snapshot, seats: tuple[SeatPanel, ...], hand_seats: dict[int, int], revealed: int
) -> dict[int, SeatPanel]:
    """The panels of ``seats`` (the spectator's) that show hole cards dealt on the first
    ``revealed`` streets face up, by table seat number (the others are as spectators see
    them), built once per version and ``revealed``."""
    key = ("broadcast panels", revealed)
    found: dict[int, SeatPanel] | None = snapshot.memo.get(key)
    if found is not None:
        return found
    state = snapshot.state
    assert state is not None  # asked only of a broadcast hand
    starts = [event for event, _ in state.street_starts]
    found = {}
    for index, number in hand_seats.items():
        own = snapshot.view(index)
        dealt_on = _dealt_streets(own, index, starts)
        public = seats[number].cards
        cards: list[CardFace | None] = []
        for k, card in enumerate(own.seats[index].cards):
            face = public[k] if k < len(public) else None
            if face is None and card is not None and dealt_on.get(str(card), revealed) < revealed:
                face = CardFace(str(card))
            cards.append(face)
        if any(face is not None for face in cards):
            up = own.seats[index].up if own.config.is_stud else ()
            found[number] = replace(seats[number], cards=tuple(cards), up=up)
    snapshot.memo[key] = found
    return found


def _dealt_streets(own: View, index: int, starts: list[int]) -> dict[str, int]:
    """Each card hand seat ``index`` holds (as text) -> the street (0, 1...) it was dealt on,
    from its own view's events (the latest deal of a card wins: a draw's)."""
    streets: dict[str, int] = {}
    for position, event in enumerate(own.events):
        if event.seat == index and event.kind in _DEALT:
            street = bisect_right(starts, position) - 1
            for card in event.cards:
                streets[str(card)] = street
    return streets


def broadcast_view_seats(snapshot: Snapshot, panels: dict[int, SeatPanel]) -> dict[int, Any]:
    """The seats of the engine's view, by hand seat index, that a viewer without a seat sees
    of a hand broadcast with its players' agreement beyond the spectator's (issue 53):
    those of ``panels`` (by table seat number: the seats whose hole cards their screen shows,
    ``tables.presenters.broadcast``) dealt into the hand on screen, with those cards."""
    if shared_screen(snapshot).board.hand_id is None:
        return {}
    index_of = {number: index for index, number in hand_seat_numbers(snapshot).items()}
    view_seats = snapshot.view_dict(None)["seats"]
    own: dict[int, Any] = {}
    for number, panel in panels.items():
        index = index_of.get(number)
        if index is not None and index < len(view_seats):
            cards = [None if card is None else str(card) for card in panel.cards]
            own[index] = {**view_seats[index], "cards": cards}
    return own
