"""A cheap signature of every input a seated viewer's own parts are built from.

A ``frames=diff`` socket's state is the version's shared state with the viewer's own parts
put in (``tables.live.frames.json_state``: ``viewer_parts``, ``viewer_members``, the engine
view's own members, lines and seat). About half of a seated player's versions leave those
parts exactly as they were (another player acted), so where the signature of this version
equals that of the state the socket holds, the socket reuses its own parts as they are
(the very same dict: its update says nothing of them) instead of building them again.

The signature names every input of those parts, or is None where they are always built
(a run-out being dealt; the run-it-twice question; the dealer's choice; between hands; a
viewer without a seat). It names apart the inputs of what the viewer may tick in advance,
which follows every bet and street: where only those changed, the socket reuses the rest of
its parts and makes that one alone (``own_pre_actions``). The actor's legal actions follow
every bet: their turn (``acting``) is named apart too, and the actor's own parts are those
of the version before (most often they were not to act then) with their legal actions made
anew (``own_legal``). A change to what
``viewer_parts`` or ``viewer_members`` reads must be named here too: the frames tests
(``tests/tables/live/test_shared_json_frames.py``, ``test_own_signature.py``) compare every
socket's state with the viewer's whole state at every version.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from engine.pre_actions import owed
from tables.presenters import play_state
from tables.presenters.screen import actions_with_bar, own_pre_action_choices
from tables.presenters.shared_screen import own_log_lines, shared_screen

if TYPE_CHECKING:
    from tables.presenters.models import SeatPanel
    from tables.selectors.snapshot import Snapshot


class OwnSignature(NamedTuple):
    """A seated viewer's inputs: ``parts``, those of all their own parts but what they may
    tick in advance and their legal actions; ``pre_actions``, those of the first (the street,
    what they owe in it, their turn), which follow every bet while the rest stay as they
    were; ``acting``: their turn (their legal actions are made anew at each version of it)."""

    parts: tuple[Any, ...]
    pre_actions: tuple[Any, ...]
    acting: bool = False


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
        _drawn(panels[own_number]) if own_number is not None else None,
        _drawn(panels[my_seat.number]),
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
    acting = index is not None and state.actor == index
    # (a choice ticked in advance belongs to one street, and means what it meant while they
    # owe the same; the actor is offered none)
    return OwnSignature(parts, (state.street, to_call, acting), acting)


def _drawn(panel: SeatPanel) -> tuple[Any, ...]:
    """What a viewer's JSON state reads of a spectator's panel (``play_state``'s seat): all
    but whether it is to act, which the shared state says (``actor``): the next actor's own
    parts are the version before's."""
    return (panel.number, panel.plate, panel.cards, panel.up, panel.is_me, panel.note)


def own_legal(snapshot: Snapshot, index: int) -> tuple[Any, Any]:
    """The ``legal`` members of the state (``/state/legal``) and of the engine's view
    (``/view/legal``) of hand seat ``index`` at ``snapshot`` where their signature is not
    None: ``viewer_members``' and ``json_state``'s, made alone (``OwnSignature.acting``)."""
    view = snapshot.view(index)
    actions = actions_with_bar(shared_screen(snapshot).watching, view, snapshot.running)
    return play_state.legal_member(actions, view), snapshot.view_own(index)["legal"]


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
