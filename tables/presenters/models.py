"""The table screen's view models: exactly what each partial (``templates/jinja2/tables/``)
renders, as frozen dataclasses.

A view model is the key of the cache of its HTML (``tables.presenters.render``): it holds
everything its template shows and nothing else, so the cache cannot serve HTML of something
else. A template reads only its model's attributes (and HTML rendered from its parts).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol, TypeVar, dataclass_transform

SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
SUIT_NAMES = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
RANK_TEXT = {"T": "10"}
RANK_WORDS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "10"}

_Model = TypeVar("_Model")


@dataclass_transform(frozen_default=True)
def view_model(cls: type[_Model]) -> type[_Model]:
    """``cls`` as a frozen dataclass with slots that computes its hash once.

    Every viewer of every version looks its regions up in the HTML caches, and a region holds
    the seats, cards and lines shared by all viewers of that version: hashed once each, not
    once per viewer. (0: not computed yet.)
    """
    cls.__annotations__["_hash"] = int
    cls._hash = field(default=0, init=False, repr=False, compare=False)  # type: ignore[attr-defined]
    cls = dataclass(frozen=True, slots=True)(cls)
    value_hash = cls.__hash__

    def __hash__(self: Any) -> int:
        known: int = self._hash
        if not known:
            known = value_hash(self)
            object.__setattr__(self, "_hash", known)
        return known

    cls.__hash__ = __hash__  # type: ignore[method-assign]
    return cls


@view_model
class CardFace:
    """A face-up card (``_card.html``): ``As`` -> rank ``A``, suit ``♠``, its colour class."""

    code: str

    @property
    def rank(self) -> str:
        return RANK_TEXT.get(self.code[0], self.code[0])

    @property
    def suit(self) -> str:
        return SUIT_SYMBOLS[self.code[1]]

    @property
    def suit_name(self) -> str:
        return SUIT_NAMES[self.code[1]]

    @property
    def spoken(self) -> str:
        """What a screen reader says: ``As`` -> "ace of spades"."""
        return f"{RANK_WORDS.get(self.code[0], self.code[0])} of {self.suit_name}"

    def __str__(self) -> str:
        return self.code


def faces(cards: Any) -> tuple[CardFace | None, ...]:
    """Cards of an engine view: a card -> its face, ``None`` (hidden) stays ``None``."""
    if type(cards) is tuple:
        return _faces_of(cards)
    return tuple(CardFace(str(c)) if c is not None else None for c in cards)


@lru_cache(maxsize=4096)
def _faces_of(cards: tuple[Any, ...]) -> tuple[CardFace | None, ...]:
    """``faces`` of a seat's cards: the very same faces at every version and for every
    viewer that sees them (each hashed once; the panels holding them compare at once)."""
    return tuple(CardFace(str(c)) if c is not None else None for c in cards)


def shown_faces(cards: Iterable[object]) -> tuple[CardFace, ...]:
    """Cards every viewer sees (a board, a rabbit hunt's cards; a card or its text): faces."""
    return tuple(CardFace(str(c)) for c in cards)


# --- seats ----------------------------------------------------------------------------------


@view_model
class Plate:
    """A taken seat's plate (``_seat_plate.html``): the same for every viewer."""

    name: str
    is_bot: bool
    stack: int
    sitting_out: bool
    leaving: bool
    all_in: bool = False
    folded: bool = False
    description: str = ""  # the hand shown at showdown
    won: int = 0
    is_button: bool = False
    is_small_blind: bool = False
    is_big_blind: bool = False
    bet: int = 0
    chances: tuple[float, ...] = ()  # all-in run-out: the chance (%) on each run's board
    chances_pending: bool = False  # all-in run-out: the chances are being computed ("…")
    busted: bool = False  # lost every chip in the finished hand on screen (seat freed)
    drew: str = ""  # a draw game: "draws 2" or "stands pat" at the last draw (counts only)
    time_bank: int | None = None  # seconds of time bank left (None: the table has no bank)
    waiting: bool = False  # not dealt in until the big blind reaches the seat
    bounty: int = 0  # a knockout tournament's bounty on this player's head (0: none)


@view_model
class NoteMark:
    """The viewer's own note on a seat's player (``_seat.html``): shown to its author only,
    so it is put on the viewer's own seats, never on the spectator's shared ones."""

    label: str  # a colour of ``PlayerNote.Label`` ("": none)
    label_name: str  # the colour in words ("Red", "No label")
    text: str


class NoteMarks:
    """One viewer's notes on players: player id -> ``NoteMark``. Immutable; equal and hashed
    by value (the key of a viewer's screen in the snapshot's ``memo``)."""

    __slots__ = ("_marks", "_key", "_hash")

    def __init__(self, marks: dict[int, NoteMark] | None = None) -> None:
        self._marks = dict(marks or {})
        self._key = tuple(sorted(self._marks.items()))
        self._hash = hash(self._key)

    def get(self, player_id: int | None) -> NoteMark | None:
        return self._marks.get(player_id) if player_id is not None else None

    def __bool__(self) -> bool:
        return bool(self._marks)

    def __len__(self) -> int:
        return len(self._marks)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NoteMarks) and other._key == self._key

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"NoteMarks({self._marks!r})"


#: A viewer without notes (a spectator's, or a player's who wrote none).
NO_NOTES = NoteMarks()


@view_model
class SeatPanel:
    """One seat as one viewer sees it (``_seat.html``): its plate and the hole cards this
    viewer may see (``None``: face down)."""

    number: int  # 0-based
    plate: Plate | None  # None: nobody sits here
    cards: tuple[CardFace | None, ...] = ()
    is_actor: bool = False
    is_me: bool = False
    up: tuple[bool, ...] = ()  # stud: which of ``cards`` are dealt face up; () in flop games
    note: NoteMark | None = None  # the viewer's own note on this seat's player

    @property
    def label(self) -> int:
        return self.number + 1

    @property
    def down_cards(self) -> tuple[CardFace | None, ...]:
        """Stud: the cards dealt face down (the viewer's own face up, others' as backs)."""
        return tuple(card for card, up in zip(self.cards, self.up, strict=True) if not up)

    @property
    def up_cards(self) -> tuple[CardFace | None, ...]:
        """Stud: the cards dealt face up, which everyone sees."""
        return tuple(card for card, up in zip(self.cards, self.up, strict=True) if up)


@view_model
class SeatsRegion:
    """The seats around the table (``_seats.html``), ``bottom`` the viewer's own."""

    hand_id: int | None
    street: str
    version: int
    max_seats: int
    bottom: int
    seats: tuple[SeatPanel, ...]
    face_up: bool = False  # nobody can bet any more: every live hand is face up


# --- board ----------------------------------------------------------------------------------


@view_model
class PotLine:
    """A pot on the board; after the showdown, who won it with what."""

    label: str
    amount: int
    winners: tuple[str, ...] = ()
    description: str = ""
    half: str = ""  # hi-lo: "high", "low" or "whole" (no low: the high takes it all)


@view_model
class BoardRegion:
    """The board cards, the pots and the hand's number (``_board.html``)."""

    hand_id: int | None
    street: str
    cards: tuple[CardFace, ...]
    pots: tuple[PotLine, ...]
    running: bool
    total_pot: int
    hand_number: int | None
    runs: int = 1  # how many times the board is run (2: twice, 3: three times)
    # a board run more than once: each later run's board (the second, then the third)
    later_cards: tuple[tuple[CardFace, ...], ...] = ()
    runs_due: bool = False  # the players are asked how many times to run the board
    double_board: bool = False  # a double-board bomb pot: the boards are "Board 1", "Board 2"
    rabbit: tuple[CardFace, ...] = ()  # the rabbit hunt's cards, once asked
    rabbit_open: bool = False  # the hand ended before the river: a rabbit hunt may be asked
    street_name: str = ""  # stud: "3rd street" to "7th street"; a draw game's round
    game_line: str = ""  # a mixed game: the game dealt and what comes next, or who picks it
    paused: bool = False  # the host paused the game: no hand on the felt, none starts


# --- actions --------------------------------------------------------------------------------


@view_model
class QuickSize:
    """A raise-to amount offered on a button ("Min", "½ pot", "Pot", "All-in")."""

    label: str
    amount: int


@view_model
class ActionBar:
    """The actor's buttons: what is legal, with the amounts."""

    fold: bool
    check: bool
    call: int
    can_raise: bool
    min_raise_to: int | None
    max_raise_to: int | None
    word: str  # "Bet", "Raise" or stud's "Complete" (to the small bet after the bring-in)
    sizes: tuple[QuickSize, ...]
    call_word: str = "Call"  # or stud's "Bring in" (the forced opening bet, a call)
    draw: tuple[CardFace, ...] = ()  # a draw game's draw: the viewer's cards to pick from
    hand_words: str = ""  # the draw: the viewer's hand in words ("8-6-4-3-2", "a 3-card badugi")


@view_model
class PreActionChoice:
    """A choice a player in the hand who is not to act may tick in advance
    (``engine.pre_actions``): ``ticked`` when it is the one they ticked."""

    kind: str
    amount: int  # "call": the chips it calls, else 0
    label: str
    ticked: bool = False


@view_model
class ActionsRegion:
    """Whose turn it is and the clock; the action bar for the actor only (``_actions.html``)."""

    version: int
    hand_id: int | None
    running: bool
    deadline_ms: int | None
    actor_name: str | None
    bar: ActionBar | None = None
    turn_ms: int = 0  # a turn's clock before any time bank: how far the seat's bar runs
    # the clock drew on the actor's time bank this turn (a page opened since can't infer it)
    bank_drawn: bool = False
    runs_ask: bool = False  # this viewer is asked: run it three times, twice or once
    runs_most: int = 2  # the most runs the deck has cards for (3: three times is offered)
    # dealer's choice, for the player on the next button: the games to pick from (value, words)
    choice: tuple[tuple[str, str], ...] = ()
    choice_deadline_ms: int | None = None  # when the host's first game is dealt for them
    # The hand is over: the viewer's cards from it that others do not see, to show (all or one)
    can_show: tuple[CardFace, ...] = ()
    # The viewer is in the hand and not to act: what they may tick to do in advance
    pre_actions: tuple[PreActionChoice, ...] = ()


# --- controls -------------------------------------------------------------------------------


@view_model
class Viewer:
    """A logged-in viewer with a player: their seat here (if any) and their chips."""

    name: str
    bankroll: int
    seated: bool
    seat: int | None  # 1-based
    stack: int
    sitting_out: bool
    leaving: bool
    in_hand: bool
    room: int  # how many chips a top-up may add
    busted: bool = False  # lost every chip (and the seat) in the finished hand on screen
    waiting_for_big_blind: bool = False  # dealt in once the big blind reaches them
    sit_out_next: str = ""  # sits out from the next hand ("hand") or at the big blind


@view_model
class ControlsRegion:
    """Sit down, sit out, leave, top up; or log in (``_controls.html``)."""

    viewer: Viewer | None
    free_seats: tuple[int, ...]  # 1-based
    min_buy_in: int
    max_buy_in: int
    default_buy_in: int
    login_next: str  # the table's page: where a visitor who logs in comes back to
    rejoin_rule: str = ""  # why the least buy-in is above the table's (``Table.rejoin_rule``)
    #: Why nobody sits down, leaves or tops up here (a tournament seats its players), or None:
    #: then only "I'm back" is offered to a player sitting out.
    seating_closed: str | None = None
    #: The page's heading under the table's name (``Table.heading``: game, stakes, status),
    #: and the header's bankroll: kept live from here (``static/js/table.js``).
    heading: str = ""
    result_url: str = ""  # a closed game: its ledger (its result and settle-up)
    #: The viewer left moments ago: when (ms since the epoch) the sit-down form is offered
    #: again; it counts down to it (``static/js/table.js``).
    reseat_at_ms: int | None = None


# --- log ------------------------------------------------------------------------------------


@view_model
class LogLine:
    """One line of the hand log (``_log_line.html``): its words and the cards it names.

    ``kind``: "hand" for what happened in the hand, "notice" for what the host (or the site)
    announced (``TableNotice``), shown among the hand's lines where it happened.
    """

    text: str
    cards: tuple[CardFace, ...] = ()
    kind: str = "hand"


@view_model
class HandLink:
    """A finished hand the table links to (its replayer)."""

    number: int
    pot: int


@view_model
class RecentHands:
    """The table's last finished hands (``_recent.html``), newest first."""

    table_id: int
    hands: tuple[HandLink, ...]


@view_model
class LogRegion:
    """The hand's log for one viewer and the recent hands (``_log.html``)."""

    hand_number: int | None
    lines: tuple[LogLine, ...]
    recent: RecentHands


# --- one viewer's screen --------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Screen:
    """Everything the table page and its socket show one viewer, region by region.

    ``viewer_index``: the viewer's seat in the hand on screen (None: not dealt in).
    ``html``: the regions' HTML already rendered for this table version (shared by its
    viewers; keyed on the region's view model, see ``tables.presenters.render``).
    """

    version: int
    hand_id: int | None
    running: bool
    viewer_index: int | None
    viewer: Viewer | None
    seats: SeatsRegion
    board: BoardRegion
    actions: ActionsRegion
    controls: ControlsRegion
    log: LogRegion
    html: dict[Hashable, str] = field(default_factory=dict, repr=False)

    def regions(self) -> dict[str, Any]:
        """Each region's view model by name (``tables.presenters.render.REGIONS``)."""
        return {
            "seats": self.seats,
            "board": self.board,
            "actions": self.actions,
            "controls": self.controls,
            "log": self.log,
        }


class TableColumns(Protocol):
    """What the play state reads of its table's row (a ``Table``: presenters import no model;
    what the model works out, the stakes in words or the buy-ins, is ``Snapshot.facts``)."""

    @property
    def pk(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def game(self) -> str: ...
    @property
    def betting(self) -> str: ...
    @property
    def small_blind(self) -> int: ...
    @property
    def big_blind(self) -> int: ...
    @property
    def ante(self) -> int: ...
    @property
    def straddle(self) -> int: ...
    @property
    def straddles(self) -> int: ...
    @property
    def button_straddle(self) -> bool: ...
    @property
    def bring_in(self) -> int: ...
    @property
    def small_bet(self) -> int | None: ...
    @property
    def big_bet(self) -> int | None: ...
    @property
    def max_seats(self) -> int: ...
    @property
    def action_seconds(self) -> int: ...
    @property
    def status(self) -> str: ...
    @property
    def broadcast_proposed(self) -> bool: ...
    @property
    def broadcast_delay(self) -> str: ...
    @property
    def broadcast_minutes(self) -> int: ...
    @property
    def broadcast_room_screen(self) -> bool: ...
