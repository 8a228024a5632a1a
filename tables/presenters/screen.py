"""What one viewer sees of a table: a ``Screen`` of view models, built from a snapshot.

Every hole card a screen holds comes from the snapshot's ``view(seat)``, the engine's one
viewer filter: nothing here reads the hand's deck or the engine's ``hole``. A seated player
sees their own cards, a spectator (``player=None`` or not dealt in) sees none; cards shown at
showdown are visible to all. The same function builds the first page load and every socket
update, so a reload shows exactly the live state.

Pure: no ORM, no database read. What is the same for every viewer of a version is built once
and kept in the snapshot's ``memo``; per viewer only their own seat, the actor's bar, their
controls and the "Your cards" line of the log are built.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from engine.variants import pick_text
from engine.view import SeatView, View
from tables.presenters.broadcast import broadcast_seats
from tables.presenters.games import (
    action_bar,
    bounty_heads,
    dealt_cards,
    draw_counts,
    later_runs,
    mixed_game_line,
    pre_action_choices,
    rabbit_open,
    runs_on_screen,
    showable_cards,
    street_name,
)
from tables.presenters.log import (
    DealtRound,
    everyones_log,
    log_entries,
    notice_lines,
    own_lines,
    with_own_lines,
)
from tables.presenters.models import (
    NO_NOTES,
    ActionsRegion,
    BoardRegion,
    ControlsRegion,
    HandLink,
    LogLine,
    LogRegion,
    NoteMarks,
    Plate,
    PotLine,
    RecentHands,
    Screen,
    SeatPanel,
    SeatsRegion,
    Viewer,
    faces,
    shown_faces,
)
from tables.presenters.pots import awarded_pot_lines, pot_label
from tables.presenters.render import table_url
from tables.presenters.runout import runout_chances

if TYPE_CHECKING:
    from tables.selectors.snapshot import SeatRow, Snapshot


@dataclass(frozen=True)
class _Shared:
    """The screen of one version as every viewer sees it (from the spectator's view)."""

    seats: SeatsRegion  # as a spectator sees them
    hand_seats: dict[int, int]  # hand seat index -> table seat number, for seats dealt in
    seat_players: dict[int, int]  # table seat number -> the player id on its plate
    board: BoardRegion
    watching: ActionsRegion  # everyone's but the actor's
    log_lines: tuple[LogLine, ...]  # as a viewer dealt no card reads them
    dealt_rounds: tuple[DealtRound, ...]  # where its hole cards were dealt, to whom
    recent: RecentHands
    free_seats: tuple[int, ...]
    min_buy_in: int
    max_buy_in: int
    default_buy_in: int
    heading: str  # ``Table.heading``


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

    ``bankroll``: the player's bankroll when they have no seat here (a seated player's comes
    with the snapshot); the caller reads it, as nothing here reads the database.
    ``left_with``: the chips a viewer without a seat took from this table less than an hour
    ago (``rejoin_minimum``, the caller's to read): the sit-down form asks at least that,
    and starts there.
    ``reseat_at_ms``: when a viewer who left moments ago may sit down again
    (``reseat_wait_until``, the caller's to read): the form counts down to it.
    ``notes``: the viewer's own notes on players (``tables.presenters.notes.note_marks``, the
    caller's to read), put on their seats only: the spectator's shared seats never hold one.
    ``revealed``: a viewer without a seat, of a hand broadcast with its players' agreement:
    the streets whose hole cards they see (``tables.presenters.broadcast.broadcast_reveal``);
    a seated player's screen never shows them.
    """
    shared = _shared(snapshot)
    player_id = player.pk if player is not None else None
    my_seat = snapshot.seat_of(player_id)
    index = snapshot.hand_index_of(player_id)
    hand = snapshot.hand if shared.board.hand_id is not None else None  # the hand on screen
    view = snapshot.view(index) if hand is not None else None
    running = snapshot.running
    seats = _viewer_seats(snapshot, shared, my_seat.number if my_seat else None, index, view)
    if revealed and seats is shared.seats and hand is not None and hand.broadcast:
        seats = broadcast_seats(snapshot, seats, shared.hand_seats, revealed)
    if notes and player is not None:
        seats = _noted_seats(seats, shared.seat_players, notes)
    legal = view.legal if (view is not None and running) else None
    actions = (
        shared.watching
        if view is None or legal is None
        else replace(shared.watching, bar=action_bar(view, legal))
    )
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
    if running and hand is not None and index is not None and my_seat is not None:
        choices = pre_action_choices(snapshot.state, index, my_seat.pre_action, hand.pk)
        if choices:
            actions = replace(actions, pre_actions=choices)
    table = snapshot.table
    if my_seat is not None and table.choice_deadline and table.choice_seat == my_seat.number:
        words = dict(table.PICKS)
        picks = tuple((pick_text(pick), words[pick_text(pick)]) for pick in table.choices)
        deadline_ms = int(table.choice_deadline.timestamp() * 1000)
        actions = replace(actions, choice=picks, choice_deadline_ms=deadline_ms)
    if not running and hand is not None and view is not None and index is not None:
        actions = replace(actions, can_show=showable_cards(snapshot, view, index))
    viewer = None
    if player is not None:
        if my_seat is not None:
            bankroll = my_seat.player.bankroll
        elif bankroll is None:
            raise ValueError("the bankroll of a viewer without a seat is the caller's to read")
        table = snapshot.table
        stack = my_seat.stack if my_seat else 0
        showing = hand is not None and view is not None and snapshot.hand_facts.runout_showing
        if my_seat is not None and index is not None and showing:
            assert view is not None  # showing: a hand's run-out, with its view
            stack = view.seats[index].stack  # the chips won are not shown before the river
        viewer = Viewer(
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
    low, high, default, rule = shared.min_buy_in, shared.max_buy_in, shared.default_buy_in, ""
    if viewer is not None and not viewer.seated and left_with:
        table = snapshot.table
        low, high = table.buy_in_range(left_with)
        rule = table.rejoin_rule(left_with)
        # the form starts at the chips they left with (its minimum), as the rule says
        default = low if rule else min(high, max(low, default))
    closed = snapshot.table.status == "closed"  # (``Table.Status.CLOSED``)
    controls = ControlsRegion(
        viewer,
        shared.free_seats,
        low,
        high,
        default,
        table_url("tables:detail", snapshot.table.pk),  # a visitor logs in back to it
        rule,
        _seating_closed(snapshot),
        shared.heading,
        table_url("tables:ledger", snapshot.table.pk) if closed else "",
        reseat_at_ms if viewer is not None and not viewer.seated else None,
    )
    return Screen(
        version=snapshot.version,
        hand_id=shared.board.hand_id,
        running=running,
        viewer_index=index,
        viewer=viewer,
        seats=seats,
        board=shared.board,
        actions=actions,
        controls=controls,
        log=_viewer_log(snapshot, shared, index),
        html=snapshot.memo["html"],
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


def hand_seat_numbers(snapshot: Snapshot) -> dict[int, int]:
    """The hand on screen's seats (engine seat index) -> their table seat number (0-based),
    for the seats still held by the player dealt in."""
    return _shared(snapshot).hand_seats


def _viewer_seats(
    snapshot: Snapshot, shared: _Shared, my_number: int | None, index: int | None, view: View | None
) -> SeatsRegion:
    """The seats with the viewer's own drawn as theirs, with the hole cards of their view."""
    if my_number is None and index is None:
        return shared.seats
    panels = list(shared.seats.seats)
    own_number = shared.hand_seats.get(index) if index is not None else None
    if own_number is not None:
        assert index is not None and view is not None  # a seat of the hand on screen
        own = view.seats[index]
        panels[own_number] = replace(
            panels[own_number],
            is_me=own_number == my_number,
            cards=faces(own.cards),
            up=own.up if view.config.is_stud else (),
        )
    if my_number is not None and my_number != own_number:
        panels[my_number] = replace(panels[my_number], is_me=True)
    return replace(shared.seats, bottom=my_number or 0, seats=tuple(panels))


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


def _viewer_log(snapshot: Snapshot, shared: _Shared, index: int | None) -> LogRegion:
    """The log region for hand seat ``index``: built once per version and seat."""
    key = ("log", index)
    region = snapshot.memo.get(key)
    if region is None:
        shown = snapshot.hand if shared.board.hand_id is not None else None
        lines = with_own_lines(shared.log_lines, own_log_lines(snapshot, index))
        hand_number = shown.number if shown is not None else None
        region = snapshot.memo[key] = LogRegion(hand_number, lines, shared.recent)
    return region


def own_log_lines(snapshot: Snapshot, index: int | None) -> dict[int, LogLine]:
    """The lines of the log (by place) that hand seat ``index`` reads as their own cards
    dealt, where everyone else reads that the cards were dealt: built once per version and
    seat."""
    key = ("own log", index)
    own: dict[int, LogLine] | None = snapshot.memo.get(key)
    if own is None:
        shared = _shared(snapshot)
        shown = shared.board.hand_id is not None
        cards = dealt_cards(snapshot.view(index), index) if shown and index is not None else ()
        own = snapshot.memo[key] = own_lines(shared.dealt_rounds, index if shown else None, cards)
    return own


def _shared(snapshot: Snapshot) -> _Shared:
    """The viewer-independent part of the screen, built once per snapshot."""
    shared = snapshot.memo.get("shared")
    if shared is None:
        snapshot.memo["html"] = {}
        shared = snapshot.memo["shared"] = _build_shared(snapshot)
    return shared


def _chances(runout: dict[str, Any] | None, seat: int, no_more_betting: bool) -> dict[str, Any]:
    """A plate's chances in an all-in run-out (``Plate.chances``, ``chances_pending``)."""
    chances = runout_chances(runout, seat) if no_more_betting else ()
    return {"chances": chances or (), "chances_pending": chances is None}


def _build_shared(snapshot: Snapshot) -> _Shared:
    table, hand, running, facts = snapshot.table, snapshot.hand, snapshot.running, snapshot.facts
    showing = hand is not None and snapshot.hand_facts.runout_showing  # a run-out being dealt
    # A paused game says so on the felt, not with the last hand's result as if it were live.
    paused = table.status == "paused" and not running and not showing
    if (not running and not snapshot.seats) or paused:
        hand = None  # everyone left: an empty table waits for players, not the last hand
    view = snapshot.view(None) if hand is not None else None
    result = view.result if view is not None else None
    winnings: dict[int, int] = {}
    pots = []
    if view is not None and result is not None:
        for award in result.awards:
            for w, amount in zip(award.winners, award.amounts, strict=True):
                winnings[w] = winnings.get(w, 0) + amount
        pots = list(awarded_pot_lines(view))
    elif view is not None:
        pots = [
            PotLine(pot_label(i, len(view.pots)), pot.amount) for i, pot in enumerate(view.pots)
        ]
    runout = hand.runout if hand is not None else None
    # While a run-out is dealt on screen the hand is shown as it stood: the chips won stay
    # off the stacks and who went bust keeps their plate until the river.
    engine_stacks = running or (hand is not None and showing)
    # Each hand seat that still belongs to the player dealt in: by table seat number.
    dealt: dict[int, SeatView] = {}
    dealt_players: dict[int, int] = {}  # table seat number -> the player dealt in there
    if hand is not None and view is not None:
        for start, in_hand in zip(hand.seats, view.seats, strict=True):
            seat = snapshot.seats.get(start["seat"])
            # Who left during a hand keeps their plate while it runs; once it is over their
            # seat is free, and drawn as free (the sit-down form offers it).
            # Who went bust keeps it too until the next hand, their cards and result shown.
            if (seat is None and (engine_stacks or in_hand.stack == 0)) or (
                seat is not None and seat.player_id == start["player_id"]
            ):
                dealt[start["seat"]] = in_hand
                dealt_players[start["seat"]] = start["player_id"]
    hand_id = hand.pk if hand is not None else None
    street = view.street if view is not None else ""
    stud = view is not None and view.config.is_stud
    drew = draw_counts(view) if view is not None and view.config.variant.is_draw else {}
    heads = bounty_heads(snapshot)
    panels = []
    seat_players: dict[int, int] = {}
    for number in range(table.max_seats):
        seat, seen = snapshot.seats.get(number), dealt.get(number)
        plate = None
        if seen is not None:
            assert view is not None  # a seat dealt in is the view's
            shown = result.shown.get(seen.seat) if result is not None else None
            name = seen.name if seat is None else seat.player.name
            plate = Plate(
                name=name,
                is_bot=seat is not None and seat.player.is_bot,
                # running: the engine's stack; else the seat's (None: left after the hand)
                stack=seen.stack if engine_stacks or seat is None else seat.stack,
                sitting_out=seat is not None and seat.sitting_out,
                leaving=seat is None or seat.leave_after_hand,
                busted=seat is None and not engine_stacks and seen.stack == 0,
                all_in=seen.all_in,
                folded=seen.folded,
                description=shown[1] if shown is not None else "",
                won=winnings.get(seen.seat, 0),
                is_button=seen.is_button and not stud,  # stud deals no button
                is_small_blind=seen.is_small_blind,
                is_big_blind=seen.is_big_blind,
                bet=seen.bet,
                drew=drew.get(seen.seat, ""),
                time_bank=_time_bank(table.time_bank_seconds, seat),
                bounty=heads.get(name, 0),
                **_chances(runout, seen.seat, view.no_more_betting),
            )
        elif seat is not None:
            plate = Plate(
                seat.player.name,
                seat.player.is_bot,
                seat.stack,
                seat.sitting_out,
                seat.leave_after_hand,
                time_bank=_time_bank(table.time_bank_seconds, seat),
                waiting=seat.waiting_for_big_blind,
                bounty=heads.get(seat.player.name, 0),
            )
        if plate is not None:
            seat_players[number] = seat.player_id if seat is not None else dealt_players[number]
        panels.append(
            SeatPanel(
                number,
                plate,
                cards=faces(seen.cards) if seen is not None else (),
                is_actor=seen is not None
                and running
                and view is not None
                and view.actor == seen.seat,
                up=seen.up if seen is not None and stud else (),
            )
        )
    deadline = table.action_deadline if running else None
    actor_name = None
    if running and view is not None and view.actor is not None:
        actor_name = view.seats[view.actor].name
    if hand is not None and view is not None:
        entries = log_entries(
            view,
            [s["name"] for s in hand.seats],
            snapshot.decisions,
            snapshot.notices,
            hand.number,
        )
    elif snapshot.hand is not None:  # an emptied table: what was announced after its last hand
        last = snapshot.hand.number
        entries = notice_lines(
            n for n in snapshot.notices if n.hand_number >= last and n.after_actions is None
        )
    else:
        entries = notice_lines(snapshot.notices)
    log_lines, dealt_rounds = everyones_log(entries)
    runs = runs_on_screen(view, runout)
    return _Shared(
        seats=SeatsRegion(
            hand_id,
            street,
            table.version,
            table.max_seats,
            0,
            tuple(panels),
            face_up=view is not None and view.no_more_betting,
        ),
        hand_seats={seen.seat: number for number, seen in dealt.items()},
        seat_players=seat_players,
        board=BoardRegion(
            hand_id,
            street,
            shown_faces(view.board) if view is not None else (),
            tuple(pots),
            running,
            view.total_pot if view is not None and running else 0,
            hand.number if hand is not None else None,
            runs=runs,
            double_board=view is not None and view.config.double_board,
            later_cards=later_runs(view, runs),
            runs_due=view is not None and view.runs_due,
            rabbit=shown_faces(hand.rabbit["cards"]) if hand is not None and hand.rabbit else (),
            rabbit_open=rabbit_open(hand, not running and not showing, view),
            street_name=street_name(view),
            game_line=mixed_game_line(table, facts, snapshot),
            paused=paused,
        ),
        watching=ActionsRegion(
            table.version,
            hand_id,
            running,
            int(deadline.timestamp() * 1000) if deadline else None,
            actor_name,
            turn_ms=table.action_seconds * 1000,
        ),
        log_lines=log_lines,
        dealt_rounds=dealt_rounds,
        recent=RecentHands(table.pk, tuple(HandLink(h.number, h.pot) for h in snapshot.recent)),
        free_seats=tuple(n + 1 for n in range(table.max_seats) if n not in snapshot.seats),
        min_buy_in=facts.min_buy_in,
        max_buy_in=facts.max_buy_in,
        default_buy_in=min(facts.max_buy_in, max(facts.min_buy_in, 50 * facts.unit)),
        heading=facts.heading,
    )


def _time_bank(bank_size: int, seat: SeatRow | None) -> int | None:
    """The seat's time bank as its plate shows it: None where the table has none."""
    if seat is None or not bank_size:
        return None
    return seat.time_bank
