"""The play state: what one viewer may know of a table, as one JSON object for every client
that is not a browser (the REST API, the ``?state=json`` socket, the terminal client, bots).

It is built from the viewer's ``Screen`` (``tables.presenters.screen.table_screen``, what the
browser shows) and the engine's view for that viewer, so it holds exactly what the browser
shows and no more: a hole card it carries is one the viewer's screen shows face up (``None``
where the card is face down). Its shape is the JSON Schema ``PLAY_STATE`` (``play_state.json``
beside this module; ``PROTOCOL`` is its version); seat numbers are the table's, from 1, as the
browser labels them and as requests name them.

Pure: reads nothing but the snapshot and the screen (or the viewer's parts of it,
``viewer_members``).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.utils import timezone

from tables.presenters.models import (
    ActionBar,
    ActionsRegion,
    CardFace,
    LogLine,
    Plate,
    PreActionChoice,
    Screen,
    SeatPanel,
    TableColumns,
    Viewer,
)
from tables.presenters.shared_screen import hand_seat_numbers, own_log_lines

if TYPE_CHECKING:
    from engine.view import View
    from tables.presenters.screen import ViewerParts
    from tables.selectors.snapshot import Snapshot, TableFacts


#: The play state's JSON Schema (2020-12): answered by the REST play endpoints and carried by
#: the ``?state=json`` socket's state frames, which both publish it.
PLAY_STATE = json.loads(Path(__file__).with_name("play_state.json").read_text(encoding="utf-8"))

#: The version of the play state's shape (and of the play protocol): bumped when a field
#: changes meaning or goes away; new fields may appear within a version.
PROTOCOL = 1
#: How many of the hand's log lines the state carries (the latest).
LOG_LINES = 60


def play_state(snapshot: Snapshot, screen: Screen, now: datetime | None = None) -> dict[str, Any]:
    """``screen`` (``table_screen(snapshot, viewer, ...)``) as the play state's JSON object.

    ``now``: the moment the clock's ``seconds_left`` counts from (default: now).
    """
    table = snapshot.table
    view = _view_on_screen(snapshot, screen.hand_id, screen.viewer_index)
    hand = snapshot.hand if view is not None else None
    numbers = hand_seat_numbers(snapshot)
    dealt = set(numbers.values()) if screen.running else set()
    panels = screen.seats.seats
    controls = screen.controls
    cash = _cash(controls.seating_closed)
    you = _you(snapshot, screen.viewer, screen.actions, cash)
    return {
        "protocol": PROTOCOL,
        "table": _table(table, snapshot.facts, controls.default_buy_in if cash else None, cash),
        "version": screen.version,
        "hand": hand.pk if screen.running and hand is not None else None,
        # the table's last hand's, also when the felt shows none (a paused or emptied table)
        "hand_number": snapshot.hand.number if snapshot.hand is not None else None,
        "running": screen.running,
        "street": view.street if view is not None else None,
        "seats": [_seat(panel, panel.number in dealt) for panel in panels],
        "board": [str(card) for card in screen.board.cards],
        "boards": _boards(screen),
        "runs_due": screen.board.runs_due,
        "rabbit": [str(card) for card in screen.board.rabbit] or None,
        "pots": [{"name": pot.label, "amount": pot.amount} for pot in screen.board.pots]
        if screen.running
        else [],
        "total_pot": screen.board.total_pot,
        "button": _label(numbers.get(view.button)) if view is not None else None,
        "actor": next((panel.label for panel in panels if panel.is_actor), None),
        "you": you,
        "legal": legal_member(screen.actions, view),
        "clock": _clock(table, screen, you, now),
        "log": _log(screen),
        "result": _result(snapshot, screen, view) if not screen.running else None,
        "tournament": snapshot.banner,
        "choice": _choice(screen.actions),
        "pre_actions": pre_actions_member(screen.actions.pre_actions),
    }


#: The members of the play state that differ from one viewer to another (besides the seats
#: they see as theirs, the buy-in their form offers, their time bank on the clock and their
#: own lines of the log): ``viewer_members`` builds only these. The clock's deadline and
#: seconds left are the table's, the hand's result is everyone's, and the log differs from
#: the spectator's only in the viewer's "Your cards" lines (``tables.presenters.log``).
VIEWER_MEMBERS = ("you", "legal", "choice", "pre_actions")


def viewer_members(
    snapshot: Snapshot, parts: ViewerParts
) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """What the play state of the viewer of ``parts`` (``tables.presenters.screen``) holds
    for them alone, by its path in the state: the members ``VIEWER_MEMBERS``,
    ``table/default_buy_in``, ``clock/time_bank`` and their own lines of the log (``log/N``:
    their cards dealt, where everyone else reads that cards were dealt); and each seat they
    see otherwise than a spectator does (``parts.panels``) by its number (the table's, from
    0). Everything else of the viewer's play state is the spectator's (``tables.live.frames``
    builds it once per version for all viewers). What these read must be named by
    ``tables.presenters.own_signature`` (their reuse from the version before)."""
    shared, actions = parts.shared, parts.actions
    view = _view_on_screen(snapshot, shared.board.hand_id, parts.index)
    cash = _cash(parts.seating_closed)
    you = _you(snapshot, parts.viewer, actions, cash)
    dealt = set(shared.hand_seats.values()) if snapshot.running else set()
    members: dict[str, Any] = {
        "you": you,
        "legal": legal_member(actions, view),
        "choice": _choice(actions),
        "pre_actions": pre_actions_member(actions.pre_actions),
        # the buy-in the form offers depends on what the viewer left this table with
        "table/default_buy_in": parts.default_buy_in if cash else None,
        "clock/time_bank": you["time_bank"] if you is not None else None,
    }
    members.update(_own_log(own_log_lines(snapshot, parts.index), len(shared.log_lines)))
    seats = {n: _seat(panel, n in dealt) for n, panel in parts.panels.items()}
    return members, seats


def _own_log(own: dict[int, LogLine], length: int) -> dict[str, Any]:
    """The viewer's ``own`` lines of the log (by place in a log of ``length`` lines) within
    the state's latest ``LOG_LINES``, by their path in the state (``log/N``)."""
    start = max(length - LOG_LINES, 0)
    return {f"log/{n - start}": _log_line(line) for n, line in own.items() if n >= start}


def _view_on_screen(snapshot: Snapshot, hand_id: int | None, index: int | None) -> View | None:
    """The view of hand seat ``index`` of the hand on screen (``hand_id``), or None when it
    shows none: between hands a paused or emptied table shows no hand, though the snapshot
    holds its last one (``tables.presenters.shared_screen``), and the state holds what the
    screen shows."""
    return snapshot.view(index) if hand_id is not None else None


def _cash(seating_closed: str | None) -> bool:
    """A cash table: a tournament seats its players with its own chips (no buy-in, bankroll
    or top-up there); ``seating_closed``: the controls' (``ControlsRegion``)."""
    return seating_closed is None


def legal_member(actions: ActionsRegion, view: View | None) -> dict[str, Any] | None:
    """The ``legal`` member of the viewer of ``actions`` (their actions region; made alone
    where their other own parts are reused: ``own_signature.own_legal``)."""
    if actions.bar is not None:
        return legal_data(actions.bar, view)
    return runs_legal_data(actions.runs_most) if actions.runs_ask else None


def _choice(actions: ActionsRegion) -> list[dict[str, str]] | None:
    """The games the viewer may pick from, when it is theirs to pick (dealer's choice)."""
    return [{"game": game, "name": name} for game, name in actions.choice] or None


def pre_actions_member(choices: tuple[PreActionChoice, ...]) -> dict[str, Any] | None:
    """The ``pre_actions`` member of a viewer offered ``choices`` (an actions region's): what
    they may tick to do in advance (in the hand, not to act), and what they ticked; else
    null."""
    return _pre_actions_data(choices) if choices else None


def _log(screen: Screen) -> list[dict[str, Any]]:
    return [_log_line(line) for line in screen.log.lines[-LOG_LINES:]]


def _label(number: int | None) -> int | None:
    return None if number is None else number + 1


def _table(
    table: TableColumns, facts: TableFacts, default_buy_in: int | None, cash: bool
) -> dict[str, Any]:
    """The table and its stakes (``facts``: its settings in words); ``default_buy_in`` is the
    buy-in the browser's form offers (None, as every buy-in, unless ``cash``)."""
    return {
        "id": table.pk,
        "name": table.name,
        "variant": facts.variant,
        "game": table.game,
        "betting": table.betting,
        "stakes": facts.stakes,
        "small_blind": table.small_blind,
        "big_blind": table.big_blind,
        "ante": table.ante,
        "straddle": table.straddle,
        "straddles": table.straddles,
        "button_straddle": table.button_straddle,
        "bring_in": table.bring_in,
        "small_bet": table.small_bet,
        "big_bet": table.big_bet,
        "max_seats": table.max_seats,
        "min_buy_in": facts.min_buy_in if cash else None,
        "max_buy_in": facts.max_buy_in if cash else None,
        "default_buy_in": default_buy_in,
        "action_seconds": table.action_seconds,
        "status": table.status,
        "broadcast": _broadcast(
            table.broadcast_proposed,
            table.broadcast_delay,
            table.broadcast_minutes,
            table.broadcast_room_screen,
        ),
    }


@lru_cache(maxsize=64)
def _broadcast(proposed: bool, delay: str, minutes: int, room_screen: bool) -> dict[str, Any]:
    """The hole-card broadcast the host proposes (issue 53): on for a hand only when every
    seated player agreed before its deal (``POST .../broadcast/``, the ``broadcast`` op)."""
    if not proposed:
        return {"proposed": False}
    return {"proposed": True, "delay": delay, "minutes": minutes, "room_screen": room_screen}


# What did not change from one version to the next is the very same object in both states
# (a seat, a log line: equal view models give the one dict), so an update's diff passes it
# over without walking it (``tables.live.patch``). Nothing may change these dicts.
_SHARED_PARTS = 4096


@lru_cache(maxsize=_SHARED_PARTS)
def _log_line(line: LogLine) -> dict[str, Any]:
    return {"kind": line.kind, "text": line.text, "cards": [str(card) for card in line.cards]}


@lru_cache(maxsize=_SHARED_PARTS)
def _pre_actions_data(choices: tuple[PreActionChoice, ...]) -> dict[str, Any]:
    """``pre_actions_member``'s dict: the very same object while the choices are the same."""
    ticked = next((c for c in choices if c.ticked), None)
    return {
        "offers": [{"kind": c.kind, "amount": c.amount, "label": c.label} for c in choices],
        "ticked": {"kind": ticked.kind, "amount": ticked.amount} if ticked is not None else None,
    }


@lru_cache(maxsize=_SHARED_PARTS)
def _cards_data(cards: tuple[CardFace | None, ...]) -> list[str | None]:
    """A seat's cards as text: the very same list wherever they are the same, so a seat
    that changed (a bet, a stack) is diffed without walking its cards."""
    return [None if card is None else str(card) for card in cards]


@lru_cache(maxsize=16)
def _face_down(count: int) -> list[bool]:
    """``count`` cards none of which is dealt face up (every flop game's)."""
    return [False] * count


#: A seat's chances outside an all-in run-out (every seat's, most of the time).
_NO_CHANCES: list[float] = []


def _seat(panel: SeatPanel, in_hand: bool) -> dict[str, Any]:
    """One seat: ``in_hand`` when it was dealt into the running hand. Whether it is to act is
    the state's ``actor``: a seat whose turn came or went is the very same dict."""
    return _seat_data(panel.label, panel.plate, panel.cards, panel.up, panel.is_me, in_hand)


@lru_cache(maxsize=_SHARED_PARTS)
def _seat_data(
    label: int,
    plate: Plate | None,
    cards: tuple[CardFace | None, ...],
    up: tuple[bool, ...],
    is_me: bool,
    in_hand: bool,
) -> dict[str, Any]:
    """``_seat``'s dict, from what it reads of the panel."""
    seat: dict[str, Any] = {
        "seat": label,
        "status": "empty",
        "name": None,
        "is_bot": False,
        "stack": None,
        "bet": 0,
        "cards": _cards_data(cards),
        # stud: which cards are dealt face up (everyone sees them); all false in flop games
        "up": list(up) if up else _face_down(len(cards)),
        "sitting_out": False,
        "leaving": False,
        "is_button": False,
        "is_small_blind": False,
        "is_big_blind": False,
        "is_you": is_me,
        "description": "",
        "won": 0,
        "chances": _NO_CHANCES,
    }
    if plate is None:
        return seat
    if plate.busted:
        # The page keeps a busted player's plate until the next hand; to a program the seat
        # is what it is, free (the hand's result still names them and what they showed).
        return {**seat, "cards": [], "up": []}
    if in_hand:
        status = "all_in" if plate.all_in else "folded" if plate.folded else "playing"
    else:
        status = "sitting_out" if plate.sitting_out else "waiting"
    seat.update(
        status=status,
        name=plate.name,
        is_bot=plate.is_bot,
        stack=plate.stack,
        bet=plate.bet,
        sitting_out=plate.sitting_out,
        leaving=plate.leaving,
        is_button=plate.is_button,
        is_small_blind=plate.is_small_blind,
        is_big_blind=plate.is_big_blind,
        description=plate.description,
        won=plate.won,
        chances=list(plate.chances) if plate.chances else _NO_CHANCES,
    )
    return seat


def _you(
    snapshot: Snapshot, viewer: Viewer | None, actions: ActionsRegion, cash: bool
) -> dict[str, Any] | None:
    """The viewer; their bankroll and top-up room only at a ``cash`` table."""
    if viewer is None:
        return None
    seat = snapshot.seats.get(viewer.seat - 1) if viewer.seat is not None else None
    time_bank = seat.time_bank if seat is not None else None
    return _you_data(viewer, cash, time_bank, actions.can_show)


@lru_cache(maxsize=_SHARED_PARTS)
def _you_data(
    viewer: Viewer, cash: bool, time_bank: int | None, can_show: tuple[CardFace, ...]
) -> dict[str, Any]:
    """``_you``'s dict: the very same object while nothing of it changed (most versions)."""
    return {
        "name": viewer.name,
        "seat": viewer.seat,
        "bankroll": viewer.bankroll if cash else None,
        "stack": viewer.stack if viewer.seated else None,
        "sitting_out": viewer.sitting_out,
        "leaving": viewer.leaving,
        "in_hand": viewer.in_hand,
        "top_up_room": viewer.room if cash else None,
        "time_bank": time_bank,
        # seat etiquette: dealt in once the big blind reaches them; sitting out next hand
        # ("hand") or at the next big blind ("big_blind")
        "waiting_for_big_blind": viewer.waiting_for_big_blind,
        "sit_out_next": viewer.sit_out_next,
        # the cards of the hand just over this viewer may still show (``show_cards``)
        "can_show": [card.code for card in can_show],
    }


def _boards(screen: Screen) -> list[list[str]]:
    """Each run of the board: the board, then each later run's when it was run more than
    once."""
    if screen.hand_id is None:
        return []
    board = screen.board
    runs = [board.cards, *board.later_cards[: board.runs - 1]]
    return [[str(card) for card in run] for run in runs]


def _clock(
    table: TableColumns, screen: Screen, you: dict[str, Any] | None, now: datetime | None
) -> dict[str, Any]:
    deadline_ms = screen.actions.deadline_ms
    deadline = seconds_left = None
    if deadline_ms is not None:
        moment = datetime.fromtimestamp(deadline_ms / 1000, tz=UTC)
        deadline = moment.isoformat().replace("+00:00", "Z")
        now = now or timezone.now()
        seconds_left = round(max(0.0, (moment - now).total_seconds()), 3)
    return {
        "deadline": deadline,
        "seconds_left": seconds_left,
        "action_seconds": table.action_seconds,
        "time_bank": you["time_bank"] if you is not None else None,
        "bank_drawn": screen.actions.bank_drawn,
    }


def _result(snapshot: Snapshot, screen: Screen, view: View | None) -> dict[str, Any] | None:
    """How the hand on screen ended (None while it runs or without a hand): its pots (the
    board's pot lines are the awards, in order), who won them, the hands shown at showdown.
    Each names the seat its player played the hand in, even one gone since (went broke, or
    left): their seat is drawn empty, and this is where a client finds what they showed."""
    if view is None or view.result is None:
        return None
    assert snapshot.hand is not None  # a view: there is a hand on screen
    result, names = view.result, [seat.name for seat in view.seats]
    played_in = [start["seat"] + 1 for start in snapshot.hand.seats]
    return {
        "hand": snapshot.hand.pk,
        "number": snapshot.hand.number,
        "pots": [
            {
                "name": line.label,
                "amount": award.amount,
                "winners": [
                    {"seat": played_in[w], "name": names[w], "amount": amount}
                    for w, amount in zip(award.winners, award.amounts, strict=True)
                ],
                "description": award.description,
                "half": award.half or None,
            }
            for line, award in zip(screen.board.pots, result.awards, strict=True)
        ],
        "shown": [
            {
                "seat": played_in[index],
                "name": names[index],
                "cards": [str(card) for card in cards],
                "description": description,
            }
            for index, (cards, description) in sorted(result.shown.items())
        ],
    }


def runs_legal_data(most: int) -> dict[str, Any]:
    """The run-it-twice question as the asked player's legal actions (three times only
    where the deck has the cards for it: ``most``)."""
    return {
        "actions": ["run_thrice", "run_twice", "run_once"][3 - most :],
        "call": 0,
        "min_raise_to": None,
        "max_raise_to": None,
        "raise_word": "",
        "call_word": "call",  # nothing to call: the schema's default word
        "sizes": [],
    }


def legal_data(bar: ActionBar, view: View | None) -> dict[str, Any]:
    """The actor's legal actions, as their buttons offer them."""
    me = view.me if view is not None else None
    everything = me.bet + me.stack if me is not None else 0
    # all-in is a call when the stack covers no more, else a bet or raise to everything
    all_in = (
        everything > 0
        and view is not None
        and (
            everything <= view.current_bet
            or (bar.max_raise_to is not None and everything <= bar.max_raise_to)
        )
    )
    actions = [
        kind
        for kind, allowed in (
            ("fold", bar.fold),
            ("check", bar.check),
            ("call", bar.call > 0),
            ("raise", bar.can_raise),
            ("all_in", all_in and not bar.draw),
            ("discard", bool(bar.draw)),
        )
        if allowed
    ]
    extra = {"hand_words": bar.hand_words} if bar.draw else {}
    return {
        **extra,
        "actions": actions,
        "call": bar.call,
        "min_raise_to": bar.min_raise_to,
        "max_raise_to": bar.max_raise_to,
        "raise_word": bar.word.lower(),
        "call_word": bar.call_word.lower(),
        "sizes": [{"label": size.label, "amount": size.amount} for size in bar.sizes],
    }
