"""The parts of the play state (``tables.presenters.play_state``) that are the very same
object at every version, and for every viewer, of the same value: each made once from its
view model (or its values), so an update's diff passes over what did not change without
walking it (``tables.live.patch``). Nothing may change what these return.

Pure: reads nothing but what it is given.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol

from tables.presenters.models import CardFace, LogLine, PotLine, PreActionChoice, SeatPanel, Viewer

if TYPE_CHECKING:
    from tables.selectors.snapshot import TableFacts


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


# What did not change from one version to the next is the very same object in both states
# (a seat, a log line: equal view models give the one dict), so an update's diff passes it
# over without walking it (``tables.live.patch``). Nothing may change these dicts.
_SHARED_PARTS = 4096


def table_data(
    table: TableColumns, facts: TableFacts, default_buy_in: int | None, cash: bool
) -> dict[str, Any]:
    """The table and its stakes (``facts``: its settings in words); ``default_buy_in`` is the
    buy-in the browser's form offers (None, as every buy-in, unless ``cash``)."""
    return _table_data(
        table.pk,
        table.name,
        facts.variant,
        table.game,
        table.betting,
        facts.stakes,
        table.small_blind,
        table.big_blind,
        table.ante,
        table.straddle,
        table.straddles,
        table.button_straddle,
        table.bring_in,
        table.small_bet,
        table.big_bet,
        table.max_seats,
        facts.min_buy_in if cash else None,
        facts.max_buy_in if cash else None,
        default_buy_in,
        table.action_seconds,
        table.status,
        # (the broadcast's, last: ``_broadcast``'s)
        table.broadcast_proposed,
        table.broadcast_delay,
        table.broadcast_minutes,
        table.broadcast_room_screen,
    )


# The members in the order ``table_data`` passes them to ``_table_data``.
_TABLE_MEMBERS = (
    "id",
    "name",
    "variant",
    "game",
    "betting",
    "stakes",
    "small_blind",
    "big_blind",
    "ante",
    "straddle",
    "straddles",
    "button_straddle",
    "bring_in",
    "small_bet",
    "big_bet",
    "max_seats",
    "min_buy_in",
    "max_buy_in",
    "default_buy_in",
    "action_seconds",
    "status",
)


@lru_cache(maxsize=_SHARED_PARTS)
def _table_data(*values: Any) -> dict[str, Any]:
    """``table_data``'s dict: the very same object at every version of the same settings (each
    value's type is its column's, so no ``True`` takes the place of a ``1``)."""
    *columns, proposed, delay, minutes, room_screen = values
    data = dict(zip(_TABLE_MEMBERS, columns, strict=True))
    data["broadcast"] = _broadcast(proposed, delay, minutes, room_screen)
    return data


@lru_cache(maxsize=64)
def _broadcast(proposed: bool, delay: str, minutes: int, room_screen: bool) -> dict[str, Any]:
    """The hole-card broadcast the host proposes (issue 53): on for a hand only when every
    seated player agreed before its deal (``POST .../broadcast/``, the ``broadcast`` op)."""
    if not proposed:
        return {"proposed": False}
    return {"proposed": True, "delay": delay, "minutes": minutes, "room_screen": room_screen}


@lru_cache(maxsize=_SHARED_PARTS)
def log_line_data(line: LogLine) -> dict[str, Any]:
    return {"kind": line.kind, "text": line.text, "cards": [str(card) for card in line.cards]}


@lru_cache(maxsize=_SHARED_PARTS)
def pre_actions_data(choices: tuple[PreActionChoice, ...]) -> dict[str, Any]:
    """The play state's ``pre_actions``: the very same object while the choices are the same."""
    ticked = next((c for c in choices if c.ticked), None)
    return {
        "offers": [{"kind": c.kind, "amount": c.amount, "label": c.label} for c in choices],
        "ticked": {"kind": ticked.kind, "amount": ticked.amount} if ticked is not None else None,
    }


@lru_cache(maxsize=_SHARED_PARTS)
def seat_data(panel: SeatPanel, in_hand: bool) -> dict[str, Any]:
    """One seat: ``in_hand`` when it was dealt into the running hand."""
    plate = panel.plate
    seat: dict[str, Any] = {
        "seat": panel.label,
        "status": "empty",
        "name": None,
        "is_bot": False,
        "stack": None,
        "bet": 0,
        "cards": _hole_texts(panel.cards),
        # stud: which cards are dealt face up (everyone sees them); all false in flop games
        "up": _up_flags(panel.up, len(panel.cards)),
        "sitting_out": False,
        "leaving": False,
        "is_button": False,
        "is_small_blind": False,
        "is_big_blind": False,
        "is_you": panel.is_me,
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


# A seat's cards and their flags: the very same lists at the versions where a seat changed
# but not its cards (a bet), so the diff passes them over. Nothing may change them.
_NO_CHANCES: list[float] = []


@lru_cache(maxsize=_SHARED_PARTS)
def _hole_texts(cards: tuple[CardFace | None, ...]) -> list[str | None]:
    return [None if card is None else str(card) for card in cards]


@lru_cache(maxsize=_SHARED_PARTS)
def _up_flags(up: tuple[bool, ...], count: int) -> list[bool]:
    return list(up) if up else [False] * count


@lru_cache(maxsize=_SHARED_PARTS)
def you_data(
    viewer: Viewer, cash: bool, time_bank: int | None, can_show: tuple[CardFace, ...]
) -> dict[str, Any]:
    """The play state's ``you``: the very same object while nothing of it changed (most
    versions)."""
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


@lru_cache(maxsize=_SHARED_PARTS)
def boards_data(runs: tuple[tuple[CardFace, ...], ...]) -> list[list[str]]:
    """The play state's ``boards`` (each run's board): the very same object while the
    boards are the same."""
    return [[str(card) for card in run] for run in runs]


@lru_cache(maxsize=_SHARED_PARTS)
def card_texts(cards: tuple[CardFace, ...]) -> list[str]:
    """Cards every viewer sees (the board, a rabbit hunt's) as text: the very same list
    while they are the same."""
    return [str(card) for card in cards]


@lru_cache(maxsize=_SHARED_PARTS)
def pots_data(pots: tuple[PotLine, ...]) -> list[dict[str, Any]]:
    """The board's pots: the very same list while they are the same."""
    return [{"name": pot.label, "amount": pot.amount} for pot in pots]
