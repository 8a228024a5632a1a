"""A cheap signature of every input a seated viewer's own parts are built from.

A ``frames=diff`` socket's state is the version's shared state with the viewer's own parts
put in (``tables.live.frames.json_state``: ``viewer_parts``, ``viewer_members``, the engine
view's own members, lines and seat). About half of a seated player's versions leave those
parts exactly as they were (another player acted), so where the signature of this version
equals that of the state the socket holds, the socket reuses its own parts as they are
(the very same dict: its update says nothing of them) instead of building them again.

The signature names every input of those parts, or is None where they are always built
(the actor, whose legal amounts follow every bet; a run-out being dealt; the run-it-twice
question; the dealer's choice; between hands; a viewer without a seat). It names apart the
inputs of what the viewer may tick in advance, which follows every bet and street: where
only those changed, the socket reuses the rest of its parts and makes that one alone
(``own_pre_actions``). A change to what
``viewer_parts`` or ``viewer_members`` reads must be named here too: the frames tests
(``tests/tables/live/test_shared_json_frames.py``, ``test_own_signature.py``) compare every
socket's state with the viewer's whole state at every version.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from tables.pre_actions import owed
from tables.presenters import play_state
from tables.presenters.screen import own_pre_action_choices
from tables.presenters.shared_screen import own_log_lines, shared_screen

if TYPE_CHECKING:
    from tables.selectors.snapshot import Snapshot


class OwnSignature(NamedTuple):
    """A seated viewer's inputs: ``parts``, those of all their own parts but what they may
    tick in advance; ``pre_actions``, those of that one (the street, what they owe in it),
    which follow every bet while the rest stay as they were."""

    parts: tuple[Any, ...]
    pre_actions: tuple[Any, ...]


def own_signature(
    snapshot: Snapshot, player_id: int | None, bankroll: int | None, left_with: int, revealed: int
) -> OwnSignature | None:
    """The inputs of the own parts of ``player_id``'s state at ``snapshot`` (the arguments
    are ``viewer_parts``'), or None where their parts are built whatever the socket holds."""
    hand, state = snapshot.hand, snapshot.state
    if player_id is None or hand is None or state is None or not snapshot.running:
        return None  # a spectator's are none; between hands the controls change the most
    if snapshot.hand_facts.runout_showing or state.runs_due:
        return None  # a run-out's frames change the view; the run-it question is the viewer's
    table = snapshot.table
    if table.choice_deadline:
        return None  # the dealer's choice is offered to one viewer
    my_seat = snapshot.seat_of(player_id)
    if my_seat is None:
        return None  # a viewer without a seat: their buy-in form, the broadcast's cards
    shared = shared_screen(snapshot)
    if shared.board.hand_id is None:
        return None  # no hand on screen
    index = snapshot.hand_index_of(player_id)
    panels = shared.seats.seats
    if index is None:
        if my_seat.number in shared.hand_seats.values():
            return None  # its view seat would be another's (never met: it is its player's)
        own_number = seat_view = to_call = None
        log_window: tuple[Any, ...] = ()
    else:
        if state.actor == index:
            return None  # the action bar and the view's legal actions follow every bet
        own_number = shared.hand_seats.get(index)
        # their seat of their engine view: stack, bet, folded, their hole cards (and so which
        # log lines of the view are their cards dealt: each deal to them changes their cards)
        seat_view = snapshot.view_seat(index)  # (their whole view only where it is built)
        to_call = owed(state, index)  # what they may tick in advance, and whether it holds
        # their "Your cards" lines by their place in the state's latest lines (``log/N``)
        start = max(len(shared.log_lines) - play_state.LOG_LINES, 0)
        own_lines = own_log_lines(snapshot, index)
        log_window = tuple((n - start, line) for n, line in own_lines.items() if n >= start)
    watching = shared.watching  # the actions region the viewer's is made from
    parts = (
        table.pk,
        player_id,
        bankroll,
        left_with,
        revealed,
        hand.pk,
        index,
        # the seat row: stack, bankroll, name, sitting out, leaving, time bank, waiting for
        # the big blind, sitting out next, what they ticked in advance
        my_seat,
        own_number,
        # the spectator's panels their own are drawn from, and the seats dealt in
        panels[own_number] if own_number is not None else None,
        panels[my_seat.number],
        shared.hand_seats,
        seat_view,
        log_window,
        # the buy-ins (their top-up room, the form's default) and why seating is closed
        shared.min_buy_in,
        shared.max_buy_in,
        shared.default_buy_in,
        table.status,
        snapshot.seating_closed,
        watching.bar,
        watching.runs_ask,
        watching.runs_most,
        watching.choice,
        watching.pre_actions,
        watching.can_show,
    )
    # (a choice ticked in advance belongs to one street, and means what it meant while they
    # owe the same)
    return OwnSignature(parts, (state.street, to_call))


def own_pre_actions(snapshot: Snapshot, player_id: int) -> dict[str, Any] | None:
    """The ``pre_actions`` member of a seated player's state at ``snapshot`` where their
    signature is not None (``viewer_members``' for them): made alone where only its inputs
    changed (``OwnSignature.pre_actions``)."""
    hand = snapshot.hand
    choices = own_pre_action_choices(
        snapshot,
        hand.pk if hand is not None else None,
        snapshot.hand_index_of(player_id),
        snapshot.seat_of(player_id),
    )
    return play_state.pre_actions_member(choices or shared_screen(snapshot).watching.pre_actions)
