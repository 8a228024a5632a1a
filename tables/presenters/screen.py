"""What one viewer sees of a table: a ``Screen`` of view models, built from a snapshot.

Every hole card a screen holds comes from the snapshot's ``view(seat)``, the engine's one
viewer filter: nothing here reads the hand's deck or the engine's ``hole``. A seated player
sees their own cards, a spectator (``player=None`` or not dealt in) sees none; cards shown at
showdown are visible to all. The same function builds the first page load and every socket
update, so a reload shows exactly the live state.

Pure: no ORM, no database read. What is the same for every viewer of a version is built once
and kept in the snapshot's ``memo``; per viewer only their own seat, the actor's bar, their
controls and the "Your cards" line of the log are built. The actor's bar is in the game's
words (fold, check or call, bet or raise, stud's bring-in and completion, with the quick
sizes; a draw game's discard bar), beside the choices a player not to act may tick in advance.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from engine.hand import Hand as EngineHand
from engine.pre_actions import Offer, PreAction, meaning, offers
from engine.types import Legal
from engine.variants import pick_text
from engine.view import View
from tables.presenters.broadcast import broadcast_panels
from tables.presenters.log import with_own_lines
from tables.presenters.models import (
    NO_NOTES,
    ActionBar,
    ActionsRegion,
    CardFace,
    ControlsRegion,
    LogRegion,
    NoteMarks,
    PreActionChoice,
    QuickSize,
    Screen,
    SeatPanel,
    SeatsRegion,
    Viewer,
    faces,
    shown_faces,
)
from tables.presenters.render import table_url
from tables.presenters.shared_screen import SharedScreen, own_log_lines, shared_screen

if TYPE_CHECKING:
    from tables.selectors.snapshot import SeatRow, Snapshot


@dataclass(frozen=True, slots=True)
class ViewerParts:
    """What one viewer's screen holds beyond the spectator's (``shared``): everything of it
    but the controls' and the log's regions, which are made from these (``viewer_screen``),
    and the notes. The ``frames=diff`` socket's JSON state is made from these alone, without
    the whole screen (``tables.live.frames.json_state``)."""

    shared: SharedScreen
    index: int | None  # the viewer's seat in the hand on screen (None: not dealt in)
    seat_number: int | None  # their seat at the table (0-based; None: no seat)
    viewer: Viewer | None
    #: The seats the viewer sees otherwise than a spectator does, by table seat number: their
    #: own (their hole cards, drawn as theirs), or the hole-card broadcast's.
    panels: dict[int, SeatPanel]
    actions: ActionsRegion
    min_buy_in: int  # the sit-down form's
    max_buy_in: int
    default_buy_in: int
    rejoin_rule: str
    seating_closed: str | None  # ``ControlsRegion.seating_closed``


def table_screen(
    snapshot: Snapshot,
    player: Any | None,
    bankroll: int | None = None,
    left_with: int = 0,
    reseat_at_ms: int | None = None,
    notes: NoteMarks = NO_NOTES,
    revealed: int = 0,
) -> Screen:
    """The table at ``snapshot`` as ``player`` (a ``Player``, or None: a spectator) sees it.

    ``bankroll``, ``left_with``, ``revealed``: see ``viewer_parts``.
    ``reseat_at_ms``: when a viewer who left moments ago may sit down again
    (``LeftTable.wait_until``, the caller's to read): the form counts down to it.
    ``notes``: the viewer's own notes on players (``tables.presenters.notes.note_marks``, the
    caller's to read), put on their seats only: the spectator's shared seats never hold one.
    """
    parts = viewer_parts(snapshot, player, bankroll, left_with, revealed)
    return viewer_screen(snapshot, parts, reseat_at_ms, notes if player is not None else NO_NOTES)


def viewer_parts(
    snapshot: Snapshot,
    player: Any | None,
    bankroll: int | None = None,
    left_with: int = 0,
    revealed: int = 0,
) -> ViewerParts:
    """What ``player`` (a ``Player``, or None: a spectator) sees of the table at ``snapshot``
    beyond what a spectator sees.

    ``bankroll``: the player's bankroll when they have no seat here (a seated player's comes
    with the snapshot); the caller reads it, as nothing here reads the database.
    ``left_with``: the chips a viewer without a seat took from this table less than an hour
    ago (``LeftTable.minimum``, the caller's to read): the sit-down form asks at least that,
    and starts there.
    ``revealed``: a viewer without a seat, of a hand broadcast with its players' agreement:
    the streets whose hole cards they see (``tables.presenters.broadcast.broadcast_reveal``);
    a seated player's screen never shows them.

    What a seated player's parts read must be named by ``own_signature`` (beside this
    module): a ``frames=diff`` socket reuses their parts while it is the same.
    """
    shared = shared_screen(snapshot)
    player_id = player.pk if player is not None else None
    my_seat = snapshot.seat_of(player_id)
    my_number = my_seat.number if my_seat is not None else None
    index = snapshot.hand_index_of(player_id)
    hand = snapshot.hand if shared.board.hand_id is not None else None  # the hand on screen
    view = snapshot.view(index) if hand is not None else None
    if my_number is not None or index is not None:
        panels = _own_panels(shared, my_number, index, view)
    elif revealed and hand is not None and hand.broadcast:
        panels = broadcast_panels(snapshot, shared.seats.seats, shared.hand_seats, revealed)
    else:
        panels = {}
    actions = _viewer_actions(snapshot, shared, view, index, my_seat)
    viewer = None
    if player is not None:
        viewer = _viewer(snapshot, shared, player, bankroll, my_seat, index, view)
    low, high, default, rule = shared.min_buy_in, shared.max_buy_in, shared.default_buy_in, ""
    if viewer is not None and not viewer.seated and left_with:
        table = snapshot.table
        low, high = table.buy_in_range(left_with)
        rule = table.rejoin_rule(left_with)
        # the form starts at the chips they left with (its minimum), as the rule says
        default = low if rule else min(high, max(low, default))
    return ViewerParts(
        shared,
        index,
        my_number,
        viewer,
        panels,
        actions,
        low,
        high,
        default,
        rule,
        _seating_closed(snapshot),
    )


def viewer_screen(
    snapshot: Snapshot,
    parts: ViewerParts,
    reseat_at_ms: int | None = None,
    notes: NoteMarks = NO_NOTES,
) -> Screen:
    """The viewer's whole screen from their ``parts`` (``table_screen``'s ``reseat_at_ms``
    and ``notes``)."""
    shared, viewer = parts.shared, parts.viewer
    seats = shared.seats
    if parts.panels:
        panels = list(seats.seats)
        for number, panel in parts.panels.items():
            panels[number] = panel
        seats = replace(seats, bottom=parts.seat_number or 0, seats=tuple(panels))
    if notes:
        seats = _noted_seats(seats, shared.seat_players, notes)
    closed = snapshot.table.status == "closed"  # (``Table.Status.CLOSED``)
    controls = ControlsRegion(
        viewer,
        shared.free_seats,
        parts.min_buy_in,
        parts.max_buy_in,
        parts.default_buy_in,
        table_url("tables:detail", snapshot.table.pk),  # a visitor logs in back to it
        parts.rejoin_rule,
        parts.seating_closed,
        shared.heading,
        table_url("tables:ledger", snapshot.table.pk) if closed else "",
        reseat_at_ms if viewer is not None and not viewer.seated else None,
    )
    return Screen(
        version=snapshot.version,
        hand_id=shared.board.hand_id,
        running=snapshot.running,
        viewer_index=parts.index,
        viewer=viewer,
        seats=seats,
        board=shared.board,
        actions=parts.actions,
        controls=controls,
        log=_viewer_log(snapshot, shared, parts.index),
        html=snapshot.memo["html"],
    )


def actions_with_bar(watching: ActionsRegion, view: View | None, running: bool) -> ActionsRegion:
    """The spectator's actions region ``watching`` with the viewer's action bar where it is
    their turn in a running hand (their engine ``view``)."""
    legal = view.legal if (view is not None and running) else None
    if view is None or legal is None:
        return watching
    return replace(watching, bar=action_bar(view, legal))


def _viewer_actions(
    snapshot: Snapshot,
    shared: SharedScreen,
    view: View | None,
    index: int | None,
    my_seat: SeatRow | None,
) -> ActionsRegion:
    """The actions region as the viewer sees it: their action bar on their turn, the run-it
    question, what they may tick in advance, the dealer's choice, the cards they may show."""
    running = snapshot.running
    hand = snapshot.hand if view is not None else None  # the hand on screen
    actions = actions_with_bar(shared.watching, view, running)
    # running: there is a hand and its view (the checks of both say so to the type checker)
    if (
        running
        and hand is not None
        and view is not None
        and view.runs_due
        and index is not None
        and not view.seats[index].folded
    ):
        answered = str(index) in (hand.run_answers or {})
        actions = replace(actions, runs_ask=not answered, runs_most=view.most_runs)
    hand_id = hand.pk if hand is not None else None
    choices = own_pre_action_choices(snapshot, hand_id, index, my_seat)
    if choices:
        actions = _with_pre_actions(actions, choices)
    table = snapshot.table
    if my_seat is not None and table.choice_deadline and table.choice_seat == my_seat.number:
        words = dict(table.PICKS)
        picks = tuple((pick_text(pick), words[pick_text(pick)]) for pick in table.choices)
        deadline_ms = int(table.choice_deadline.timestamp() * 1000)
        actions = replace(actions, choice=picks, choice_deadline_ms=deadline_ms)
    if not running and hand is not None and view is not None and index is not None:
        actions = replace(actions, can_show=showable_cards(snapshot, view, index))
    return actions


def own_pre_action_choices(
    snapshot: Snapshot, hand_id: int | None, index: int | None, my_seat: SeatRow | None
) -> tuple[PreActionChoice, ...]:
    """What the viewer (hand seat ``index`` of the hand on screen, ``hand_id``, at
    ``my_seat``) may tick in advance now: none unless they were dealt into the running hand."""
    if not snapshot.running or hand_id is None or index is None or my_seat is None:
        return ()
    return pre_action_choices(snapshot.state, index, my_seat.pre_action, hand_id)


@lru_cache(maxsize=256)
def _with_pre_actions(
    actions: ActionsRegion, choices: tuple[PreActionChoice, ...]
) -> ActionsRegion:
    """``actions`` with ``choices`` to tick in advance: made once for the viewers of a
    version offered the same (the choices are the very same tuple then)."""
    return replace(actions, pre_actions=choices)


def _viewer(
    snapshot: Snapshot,
    shared: SharedScreen,
    player: Any,
    bankroll: int | None,
    my_seat: SeatRow | None,
    index: int | None,
    view: View | None,
) -> Viewer:
    """The logged-in viewer: their seat here (if any) and their chips."""
    if my_seat is not None:
        bankroll = my_seat.player.bankroll
    elif bankroll is None:
        raise ValueError("the bankroll of a viewer without a seat is the caller's to read")
    running = snapshot.running
    stack = my_seat.stack if my_seat else 0
    showing = view is not None and snapshot.hand_facts.runout_showing
    if my_seat is not None and index is not None and showing:
        assert view is not None  # showing: a hand's run-out, with its view
        stack = view.seats[index].stack  # the chips won are not shown before the river
    return Viewer(
        # a seat's player's name came with the snapshot (the same: a name never changes)
        name=my_seat.player.name if my_seat is not None else player.name,
        bankroll=bankroll,
        seated=my_seat is not None,
        seat=my_seat.number + 1 if my_seat else None,
        stack=stack,
        sitting_out=bool(my_seat and my_seat.sitting_out),
        leaving=bool(my_seat and my_seat.leave_after_hand),
        in_hand=running and index is not None,
        room=max(shared.max_buy_in - stack, 0) if my_seat else 0,
        busted=_went_bust(snapshot, my_seat is None, index, view),
        waiting_for_big_blind=bool(my_seat and my_seat.waiting_for_big_blind),
        sit_out_next=my_seat.sit_out_next if my_seat else "",
    )


def _went_bust(snapshot: Snapshot, seatless: bool, index: int | None, view: View | None) -> bool:
    """Whether the viewer lost every chip in the finished hand on screen (and so their seat)."""
    if not seatless or index is None or view is None or snapshot.running:
        return False
    showing = snapshot.hand_facts.runout_showing
    return snapshot.hand is not None and not showing and view.seats[index].stack == 0


#: The controls of a closed game: nobody sits down or buys in any more.
GAME_CLOSED = "This game is closed."


def _seating_closed(snapshot: Snapshot) -> str | None:
    """Why nobody sits down here (``ControlsRegion.seating_closed``), or None."""
    if snapshot.table.status == "closed":
        return GAME_CLOSED
    return snapshot.seating_closed


def _own_panels(
    shared: SharedScreen, my_number: int | None, index: int | None, view: View | None
) -> dict[int, SeatPanel]:
    """The viewer's own seats (by table seat number): drawn as theirs, with the hole cards
    of their view."""
    panels = shared.seats.seats
    own: dict[int, SeatPanel] = {}
    own_number = shared.hand_seats.get(index) if index is not None else None
    if own_number is not None:
        assert index is not None and view is not None  # a seat of the hand on screen
        seat = view.seats[index]
        own[own_number] = _own_panel(
            panels[own_number],
            own_number == my_number,
            faces(seat.cards),
            seat.up if view.config.is_stud else (),
        )
    if my_number is not None and my_number != own_number:
        panel = panels[my_number]
        own[my_number] = _own_panel(panel, True, panel.cards, panel.up)
    return own


@lru_cache(maxsize=4096)
def _own_panel(
    panel: SeatPanel, is_me: bool, cards: tuple[CardFace | None, ...], up: tuple[bool, ...]
) -> SeatPanel:
    """The spectator's ``panel`` as a viewer's own: the very same panel while it is the same
    (most versions), so what is made of it (its JSON, its HTML) is found at once."""
    return replace(panel, is_me=is_me, cards=cards, up=up)


def _noted_seats(seats: SeatsRegion, seat_players: dict[int, int], notes: NoteMarks) -> SeatsRegion:
    """``seats`` with the viewer's notes on the players sitting there (a copy: the shared
    region is left as every other viewer sees it)."""
    panels = list(seats.seats)
    noted = False
    for number, player_id in seat_players.items():
        mark = notes.get(player_id)
        if mark is not None:
            panels[number] = replace(panels[number], note=mark)
            noted = True
    return replace(seats, seats=tuple(panels)) if noted else seats


def _viewer_log(snapshot: Snapshot, shared: SharedScreen, index: int | None) -> LogRegion:
    """The log region for hand seat ``index``: built once per version and seat."""
    key = ("log", index)
    region = snapshot.memo.get(key)
    if region is None:
        shown = snapshot.hand if shared.board.hand_id is not None else None
        lines = with_own_lines(shared.log_lines, own_log_lines(snapshot, index))
        hand_number = shown.number if shown is not None else None
        region = snapshot.memo[key] = LogRegion(hand_number, lines, shared.recent)
    return region


# --- the viewer's bar, in the game's words -----------------------------------------------
def action_bar(view: View, legal: Legal) -> ActionBar:
    if legal.discard:
        return draw_bar(view)
    can_raise = legal.min_raise_to is not None
    word = "Bet" if view.current_bet == 0 else "Raise"
    call_word = "Call"
    config = view.config
    if config.is_stud and view.street == "third":
        # The one spot where a player may neither fold nor check is the bring-in: posting
        # it is a call, completing to the small bet a raise. After it, raising the bring-in
        # to the small bet is still completing.
        if not legal.fold and not legal.check:
            call_word = "Bring in"
        if view.current_bet < config.fixed_small_bet:
            word = "Complete"
    return ActionBar(
        fold=legal.fold,
        check=legal.check,
        call=legal.call,
        can_raise=can_raise,
        min_raise_to=legal.min_raise_to,
        max_raise_to=legal.max_raise_to,
        word=word,
        sizes=quick_sizes(view, legal) if can_raise else (),
        call_word=call_word,
    )


def quick_sizes(view: View, legal: Legal) -> tuple[QuickSize, ...]:
    """Min, half pot, pot and all-in as raise-to amounts within the legal range."""
    lo, hi = legal.min_raise_to, legal.max_raise_to
    assert lo is not None and hi is not None  # asked only when a raise is legal
    assert view.viewer is not None  # the legal actions are the viewer's
    me = view.seats[view.viewer]
    pot_after_call = view.total_pot + legal.call
    base = view.current_bet
    sizes = [
        ("Min", lo),
        ("½ pot", base + pot_after_call // 2),
        ("Pot", base + pot_after_call),
        ("All-in", me.bet + me.stack),
    ]
    out, seen = [], set()
    for label, amount in sizes:
        amount = max(lo, min(hi, amount))
        if amount not in seen:
            seen.add(amount)
            out.append(QuickSize(label, amount))
    return tuple(out)


def pre_action_choices(
    state: EngineHand | None, index: int, ticked: PreAction | None, hand_id: int
) -> tuple[PreActionChoice, ...]:
    """The choices the viewer (hand seat ``index``, not to act) may tick now, the one they
    ticked marked while it still means what it meant (a void one is about to be cleared)."""
    if state is None:
        return ()
    valid = ticked is not None and meaning(ticked, state, index, hand_id) is not None
    return _choices(tuple(offers(state, index)), ticked.kind if valid and ticked else None)


@lru_cache(maxsize=256)
def _choices(offered: tuple[Offer, ...], ticked: str | None) -> tuple[PreActionChoice, ...]:
    """``offered`` as choices, the ``ticked`` kind's marked: the very same tuple while they
    are the same (most of a street), so what is made of them is made once."""
    return tuple(
        PreActionChoice(offer.kind, offer.amount, offer.label, ticked == offer.kind)
        for offer in offered
    )


def draw_bar(view: View) -> ActionBar:
    """A draw game's draw: the viewer's cards to throw away (none: stand pat), their hand
    in words (the game's own evaluator: a 2-7 low, a badugi)."""
    assert view.viewer is not None  # the legal actions are the viewer's
    cards = tuple(c for c in view.seats[view.viewer].cards if c is not None)
    words = str(view.config.variant.strength(cards, ())) if cards else ""
    return ActionBar(
        fold=False,
        check=False,
        call=0,
        can_raise=False,
        min_raise_to=None,
        max_raise_to=None,
        word="Discard",
        sizes=(),
        draw=shown_faces(cards),
        hand_words=words,
    )


def showable_cards(snapshot: Snapshot, view: View, index: int) -> tuple[CardFace, ...]:
    """The viewer's cards of the hand on screen, over, that the others do not see (what they
    may show: ``tables.services.showing``); none while its run-out is being dealt."""
    if snapshot.hand_facts.runout_showing:
        return ()
    public = snapshot.view(None).seats[index].cards
    # ``is not None``: the 2 of clubs is the card 0 (``engine.cards.Card``), a false value
    return tuple(
        CardFace(str(card))
        for card in view.seats[index].cards
        if card is not None and card not in public
    )
