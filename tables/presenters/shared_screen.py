"""The screen of one version as every viewer sees it: the spectator's seats, the board, the
clock, everyone's log, the buy-in range, built once per snapshot (kept in its ``memo``) for
every viewer's screen (``tables.presenters.screen``) and play state; with the parts of it that
depend on the game: each seat's draw count (counts only, never the cards), the streets' names,
a mixed table's line (the game dealt, the next, who picks), the boards on the felt (one per
run of a run-out, two on a double board; whether a rabbit may be hunted) and a knockout's
bounties.

Every hole card here comes from the snapshot's ``view(None)`` (the spectator's), except a
seat's own lines of the log, from that seat's own view (``own_log_lines``).

Pure: no ORM, no database read.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol

from engine.streets import street_names
from engine.types import EventKind
from engine.view import SeatView
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
    CardFace,
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
    from tables.selectors.snapshot import SeatRow, Snapshot, TableFacts


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
    # The version before's (made one action before this one: ``Snapshot.previous``).
    earlier = snapshot.previous.memo.get("shared") if snapshot.previous is not None else None
    # Each seat's panel as the version before made it, with every input it was made from: a
    # seat whose inputs are the same (all but the one who acted, most often) is that panel.
    made: tuple[tuple[tuple[Any, ...], SeatPanel], ...] = (
        snapshot.previous.memo.get("panel inputs", ()) if snapshot.previous is not None else ()
    )
    if len(made) != table.max_seats:
        made = ()
    panels = []
    inputs = []
    seat_players: dict[int, int] = {}
    no_more_betting = view is not None and view.no_more_betting
    for number in range(table.max_seats):
        seat, seen = snapshot.seats.get(number), dealt.get(number)
        if seen is not None:
            shown = result.shown.get(seen.seat) if result is not None else None
            name = seen.name if seat is None else seat.player.name
            # every input of the panel (``_seat_panel``'s)
            key: tuple[Any, ...] = (
                number,
                seat,
                seen,
                shown,
                winnings.get(seen.seat, 0),
                engine_stacks,
                drew.get(seen.seat, ""),
                heads.get(name, 0),
                # an all-in run-out's chances (else none)
                _chances(runout, seen.seat, no_more_betting) if no_more_betting else None,
                running and view is not None and view.actor == seen.seat,
                stud,
                table.time_bank_seconds,
            )
        else:
            name = seat.player.name if seat is not None else ""
            key = (number, seat, None, heads.get(name, 0), table.time_bank_seconds)
        if made and made[number][0] == key:
            panel = made[number][1]
        else:
            panel = _seat_panel(key)
            if earlier is not None and len(earlier.seats.seats) == table.max_seats:
                # a seat as it was is the very panel before: hashed once, its HTML found at once
                old = earlier.seats.seats[number]
                panel = old if old == panel else panel
        panels.append(panel)
        inputs.append((key, panel))
        if panel.plate is not None:
            seat_players[number] = seat.player_id if seat is not None else dealt_players[number]
    snapshot.memo["panel inputs"] = tuple(inputs)
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
            bank_drawn=deadline is not None and table.action_banked,
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


def _seat_panel(key: tuple[Any, ...]) -> SeatPanel:
    """One seat's panel as the spectator sees it, from its inputs (``_build_shared``'s key:
    the seat row, the seat's view where it was dealt in, and what its plate reads of the
    hand)."""
    if key[2] is None:  # not dealt into the hand on screen
        number, seat, _, bounty, bank_size = key
        plate = None
        if seat is not None:
            plate = Plate(
                seat.player.name,
                seat.player.is_bot,
                seat.stack,
                seat.sitting_out,
                seat.leave_after_hand,
                time_bank=_time_bank(bank_size, seat),
                waiting=seat.waiting_for_big_blind,
                bounty=bounty,
            )
        return SeatPanel(number, plate)
    (number, seat, seen, shown, won, engine_stacks, drew, bounty, chances, actor, stud, bank) = key
    if chances is None:
        chances = _chances(None, seen.seat, False)
    plate = Plate(
        name=seen.name if seat is None else seat.player.name,
        is_bot=seat is not None and seat.player.is_bot,
        # running: the engine's stack; else the seat's (None: left after the hand)
        stack=seen.stack if engine_stacks or seat is None else seat.stack,
        sitting_out=seat is not None and seat.sitting_out,
        leaving=seat is None or seat.leave_after_hand,
        busted=seat is None and not engine_stacks and seen.stack == 0,
        all_in=seen.all_in,
        folded=seen.folded,
        description=shown[1] if shown is not None else "",
        won=won,
        is_button=seen.is_button and not stud,  # stud deals no button
        is_small_blind=seen.is_small_blind,
        is_big_blind=seen.is_big_blind,
        bet=seen.bet,
        drew=drew,
        time_bank=_time_bank(bank, seat),
        bounty=bounty,
        **chances,
    )
    return SeatPanel(
        number, plate, cards=faces(seen.cards), is_actor=actor, up=seen.up if stud else ()
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


# --- the parts that depend on the game ---------------------------------------------------
class HandRow(Protocol):
    """What ``rabbit_open`` reads of a hand on screen (a ``Hand``: presenters import no model)."""

    @property
    def rabbit(self) -> Any: ...


#: A draw game's draw being made, by the betting round that follows it.
DRAWING_NAMES = {"draw1": "The first draw", "draw2": "The second draw", "draw3": "The third draw"}


def street_name(view: View | None) -> str:
    """Stud's streets and a draw game's rounds in words (a board game's board says it);
    while a draw is being made, that draw ("The first draw"), not the betting after it."""
    if view is None or view.config.variant.structure == "board":
        return ""
    if _drawing(view):
        return "The draw" if len(view.config.streets) == 2 else DRAWING_NAMES[view.street]
    return street_names(view.config).get(view.street, "")


def _drawing(view: View) -> bool:
    """Whether a draw game's draw is being made: on the betting round after the k-th draw,
    a seat still in the hand has thrown away fewer than k times (each draws once a round;
    the engine's street moves on when the draw begins)."""
    streets = view.config.streets
    if not view.config.variant.is_draw or view.street not in streets[1:]:
        return False
    draws = streets.index(view.street)
    thrown = [0] * len(view.seats)
    for event in view.events:
        if event.kind is EventKind.DISCARD and event.seat is not None:
            thrown[event.seat] += 1
    return any(not seat.folded and thrown[seat.seat] < draws for seat in view.seats)


def mixed_game_line(table: Any, facts: TableFacts, snapshot: Snapshot) -> str:
    """A mixed table's line over the board: the game being dealt and the next one ("HORSE:
    Fixed-limit Razz · next: Fixed-limit 7 Card Stud in 2 hands"), or who picks the game
    (``facts``: the table's settings in words, ``snapshot.facts``)."""
    if facts.mixed_label is None:
        return ""
    if table.choice_deadline is not None and table.choice_seat is not None:
        seat = snapshot.seats.get(table.choice_seat)
        who = seat.player.name if seat is not None else "The button"
        return f"{facts.mixed_label}: {who} is picking the game"
    dealt = facts.variant
    coming = facts.next_game
    if coming is None:
        return dealt
    words, left = coming
    when = "next hand" if left == 0 else f"in {left} hand{'s' if left != 1 else ''}"
    return f"{dealt} · next: {words} {when}"


def draw_counts(view: View) -> dict[int, str]:
    """Each seat's last draw in words ("draws 2", "stands pat"), from the public events: how
    many cards, never which."""
    said: dict[int, str] = {}
    for event in view.events:
        if event.kind is EventKind.DISCARD and event.seat is not None:
            said[event.seat] = f"draws {event.amount}" if event.amount else "stands pat"
    return said


def dealt_cards(view: View, seat: int) -> tuple[Card | None, ...]:
    """The cards ``seat`` was dealt, as its own ``view`` shows them: its hole cards now, or in
    a draw game the hand first dealt (the log's "Your cards" at the deal; the draws change
    the hand after it)."""
    if view.config.variant.is_draw:
        for event in view.events:
            if event.kind is EventKind.DEAL_HOLE and event.seat == seat and event.cards:
                return tuple(event.cards)
    return view.seats[seat].cards


def runs_on_screen(view: View | None, runout: dict[str, Any] | None) -> int:
    """The boards on the felt: one per run of a run-out, two all along on a double board."""
    if runout:
        return len(runout["runs"])
    return 2 if view is not None and view.config.double_board else 1


def later_runs(view: View | None, runs: int) -> tuple[tuple[CardFace, ...], ...]:
    """Each later run's board as far as it is on screen (none dealt yet before the first
    street of the run-out shows)."""
    if view is None:
        return ()
    return tuple(shown_faces(board) for board in (view.second_board, view.third_board)[: runs - 1])


def rabbit_open(hand: HandRow | None, over: bool, view: View | None) -> bool:
    """A rabbit hunt may be asked: the hand is ``over`` (and shown: no run-out still being
    dealt) before the river, not yet hunted (``tables.services.runouts.rabbit_hunt``
    decides)."""
    if hand is None or view is None or not over or hand.rabbit:
        return False
    return view.config.variant.structure == "board" and len(view.board) < 5


def bounty_heads(snapshot: Snapshot) -> dict[str, int]:
    """A knockout tournament table's bounty on each head, by the player's name (the
    tournament's banner, public: the tournament's page lists them); none elsewhere."""
    banner = snapshot.banner
    if not banner:
        return {}
    return {head["player"]: head["bounty"] for head in banner.get("bounties", ())}
