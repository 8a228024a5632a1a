"""The screen of one version as every viewer sees it: the spectator's seats, the board, the
clock, everyone's log, the buy-in range, built once per snapshot (kept in its ``memo``) for
every viewer's screen (``tables.presenters.screen``) and play state.

Every hole card here comes from the snapshot's ``view(None)`` (the spectator's), except a
seat's own lines of the log, from that seat's own view (``own_log_lines``).

Pure: no ORM, no database read.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from engine.view import SeatView
from tables.presenters.games import (
    bounty_heads,
    dealt_cards,
    draw_counts,
    later_runs,
    mixed_game_line,
    rabbit_open,
    runs_on_screen,
    street_name,
)
from tables.presenters.log import (
    Dealt,
    DealtRound,
    everyones_log,
    later_log_entries,
    log_entries,
    notice_lines,
    own_lines,
    running_log,
)
from tables.presenters.models import (
    ActionsRegion,
    BoardRegion,
    HandLink,
    LogLine,
    Plate,
    PotLine,
    RecentHands,
    SeatPanel,
    SeatsRegion,
    faces,
    shown_faces,
)
from tables.presenters.pots import awarded_pot_lines, pot_label
from tables.presenters.runout import runout_chances

if TYPE_CHECKING:
    from engine.cards import Card
    from engine.view import View
    from tables.selectors.snapshot import SeatRow, Snapshot


@dataclass(frozen=True)
class SharedScreen:
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


def hand_seat_numbers(snapshot: Snapshot) -> dict[int, int]:
    """The hand on screen's seats (engine seat index) -> their table seat number (0-based),
    for the seats still held by the player dealt in."""
    return shared_screen(snapshot).hand_seats


def own_log_lines(snapshot: Snapshot, index: int | None) -> dict[int, LogLine]:
    """The lines of the log (by place) that hand seat ``index`` reads as their own cards
    dealt, where everyone else reads that the cards were dealt: built once per version and
    seat."""
    key = ("own log", index)
    own: dict[int, LogLine] | None = snapshot.memo.get(key)
    if own is None:
        shared = shared_screen(snapshot)
        shown = shared.board.hand_id is not None
        cards: tuple[Card | None, ...] = ()
        if shown and index is not None and snapshot.view(None).config.variant.is_draw:
            cards = dealt_cards(snapshot.view(index), index)  # the hand first dealt: its event
        elif shown and index is not None:  # their cards now (not their whole view: a signature's)
            cards = snapshot.view_seat(index).cards
        own = snapshot.memo[key] = _own_lines(shared.dealt_rounds, index if shown else None, cards)
    return own


@lru_cache(maxsize=4096)
def _own_lines(
    rounds: tuple[DealtRound, ...], index: int | None, cards: tuple[Card | None, ...]
) -> dict[int, LogLine]:
    """``own_lines``: the very same lines at each version of a hand (its rounds dealt the
    same), so what is made of them is made once. Nothing may change the dict."""
    return own_lines(rounds, index, cards)


def shared_screen(snapshot: Snapshot) -> SharedScreen:
    """The viewer-independent part of the screen, built once per snapshot."""
    shared = snapshot.memo.get("shared")
    if shared is None:
        snapshot.memo["html"] = {}
        shared = snapshot.memo["shared"] = _build_shared(snapshot)
        snapshot.previous = None  # used: no older version is kept alive
    return shared


def _chances(runout: dict[str, Any] | None, seat: int, no_more_betting: bool) -> dict[str, Any]:
    """A plate's chances in an all-in run-out (``Plate.chances``, ``chances_pending``)."""
    chances = runout_chances(runout, seat) if no_more_betting else ()
    return {"chances": chances or (), "chances_pending": chances is None}


def _build_shared(snapshot: Snapshot) -> SharedScreen:
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
    # The version before's (made one action before this one: ``Snapshot.previous``).
    earlier = snapshot.previous.memo.get("shared") if snapshot.previous is not None else None
    if earlier is not None and len(earlier.seats.seats) == len(panels):
        # a seat as it was is the very panel before: hashed once, its HTML found at once
        kept = zip(earlier.seats.seats, panels, strict=True)
        panels = [old if old == new else new for old, new in kept]
    previous = snapshot.previous
    if earlier is not None and previous is not None and previous.recent is snapshot.recent:
        recent = earlier.recent  # the same hands (a later version of a running hand)
    else:
        recent = RecentHands(table.pk, tuple(HandLink(h.number, h.pot) for h in snapshot.recent))
        if earlier is not None and earlier.recent == recent:
            recent = earlier.recent
    deadline = table.action_deadline if running else None
    actor_name = None
    if running and view is not None and view.actor is not None:
        actor_name = view.seats[view.actor].name
    if hand is not None and view is not None:
        log_lines, dealt_rounds = _hand_log(snapshot, view)
    elif snapshot.hand is not None:  # an emptied table: what was announced after its last hand
        last = snapshot.hand.number
        log_lines, dealt_rounds = everyones_log(
            notice_lines(
                n for n in snapshot.notices if n.hand_number >= last and n.after_actions is None
            )
        )
    else:
        log_lines, dealt_rounds = everyones_log(notice_lines(snapshot.notices))
    runs = runs_on_screen(view, runout)
    return SharedScreen(
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
        recent=recent,
        free_seats=tuple(n + 1 for n in range(table.max_seats) if n not in snapshot.seats),
        min_buy_in=facts.min_buy_in,
        max_buy_in=facts.max_buy_in,
        default_buy_in=min(facts.max_buy_in, max(facts.min_buy_in, 50 * facts.unit)),
        heading=facts.heading,
    )


def _hand_log(snapshot: Snapshot, view: View) -> tuple[tuple[LogLine, ...], tuple[DealtRound, ...]]:
    """The hand's log as everyone reads it (``everyones_log``): while the hand runs (and every
    notice came before it), the previous version's lines and the new events' after them."""
    hand = snapshot.hand
    assert hand is not None  # a view of the hand on screen
    names = [s["name"] for s in hand.seats]
    if (
        not snapshot.running
        or snapshot.hand_facts.runout_showing
        or any(n.hand_number >= hand.number for n in snapshot.notices)
    ):
        return everyones_log(
            log_entries(view, names, snapshot.decisions, snapshot.notices, hand.number)
        )
    earlier = snapshot.previous
    kept = earlier.memo.get("hand log") if earlier is not None and earlier.hand is hand else None
    shown: SharedScreen | None = earlier.memo.get("shared") if earlier is not None else None
    later = None
    if kept is not None and shown is not None:
        later = later_log_entries(kept, view, snapshot.decisions)
    if later is None or shown is None:
        log = snapshot.memo["hand log"] = running_log(
            view, names, snapshot.decisions, snapshot.notices
        )
        return everyones_log(log.entries)
    log, added = later
    snapshot.memo["hand log"] = log
    lines = tuple(line for line in added if not isinstance(line, Dealt))
    if len(lines) < len(added):  # hole cards dealt: where their rounds' lines go
        return everyones_log(log.entries)
    return shown.log_lines + lines, shown.dealt_rounds


def _time_bank(bank_size: int, seat: SeatRow | None) -> int | None:
    """The seat's time bank as its plate shows it: None where the table has none."""
    if seat is None or not bank_size:
        return None
    return seat.time_bank
