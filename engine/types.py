"""The engine's typed values: a hand's rules, decisions, events, results and views.

Everything here is immutable and plain: ``engine.hand.Hand`` makes them, the site, the bots,
the log, the replayer, statistics and PHH read them. Kinds are ``StrEnum`` members, so they
equal their names as text (``EventKind.CALL == "call"``) and print as them. What needs JSON
(the ``?state=json`` socket frame, the API) asks for ``to_dict()``; a JSON view becomes a
``View`` again through ``View.from_dict`` (``engine.view``: what one seat may see, built from
these; without its events: the log text is for people, nothing reads it back).

>>> Action.parse("raise 120")
Action(kind=ActionKind.RAISE, amount=120)
>>> str(Action("raise", 120)), Action.coerce({"kind": "fold"}).kind == "fold"
('raise 120', True)
>>> Event(EventKind.RAISE, 1, 300).line, Event(EventKind.DEAL_HOLE, 0).line
('p2 cbr 300', 'd dh p1 ????')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from typing import Any

from engine.cards import Card, format_cards, parse_cards
from engine.config import (
    ANTE_MODES as ANTE_MODES,
    BETTINGS as BETTINGS,
    GAMES as GAMES,
    HILO_GAMES as HILO_GAMES,
    MAX_SEATS as MAX_SEATS,
    STREETS as STREETS,
    STUD_GAMES as STUD_GAMES,
    STUD_STREETS as STUD_STREETS,
    HandConfig as HandConfig,
    check_straddle as check_straddle,
    is_whole as is_whole,
)
from engine.errors import PokerError


class _Kind(StrEnum):
    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"


class ActionKind(_Kind):
    """A decision a player makes."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    RAISE = "raise"  # a bet or a raise, to a street total
    ALL_IN = "all_in"
    # Not a betting decision: with ``run_it_twice`` on, when nobody can bet any more before
    # the river, how many times the rest of the board is dealt (the players' agreement).
    RUN_ONCE = "run_once"
    RUN_TWICE = "run_twice"
    RUN_THRICE = "run_thrice"
    # The draw games' draw round: the cards thrown away (none: standing pat), as many dealt.
    DISCARD = "discard"


class EventKind(_Kind):
    """Something that happened in a hand (forced bets, dealing, decisions, the end)."""

    ANTE = "ante"
    SMALL_BLIND = "small_blind"
    BIG_BLIND = "big_blind"
    STRADDLE = "straddle"
    BRING_IN = "bring_in"  # stud: the lowest (razz: highest) up-card's forced opening bet
    DEAL_HOLE = "deal_hole"  # cards dealt face down
    DEAL_UP = "deal_up"  # stud: a card dealt face up, seen by everyone
    DEAL_BOARD = "deal_board"
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    SHOW = "show"
    MUCK = "muck"
    RETURN = "return"  # the uncalled part of a bet goes back
    WIN = "win"
    RUNS = "runs"  # the board is run ``amount`` times from here
    DEAL_SECOND_BOARD = "deal_second_board"  # a board run twice or more: the second run's cards
    DEAL_THIRD_BOARD = "deal_third_board"  # run it three times: the third run's cards
    DEAL_BOARD_TWO = "deal_board_two"  # a double-board bomb pot: board two's cards, a street
    # The draw games: the cards a seat throws away (``amount``: how many; none is standing
    # pat), the cards dealt in their place, and the discards shuffled into a new stub when
    # the deck runs out. Others see the counts, never the cards.
    DISCARD = "discard"
    DRAW = "draw"
    RESHUFFLE = "reshuffle"
    # Once the hand is over: a player shows cards of their own choice (all or some of them:
    # after a fold, winning without a showdown, or losing at one). Everyone sees those cards.
    REVEAL = "reveal"


#: The most times a board is run (run it three times).
MOST_RUNS = 3
#: The choice of runs as a decision, by the runs it asks for.
RUN_ACTIONS = {1: ActionKind.RUN_ONCE, 2: ActionKind.RUN_TWICE, 3: ActionKind.RUN_THRICE}
#: The runs in words ("the board is run twice").
RUNS_WORDS = {1: "once", 2: "twice", 3: "three times"}
#: The events dealing a later run's cards, by run (2: the second run).
RUN_BOARD_EVENTS = {2: EventKind.DEAL_SECOND_BOARD, 3: EventKind.DEAL_THIRD_BOARD}

#: The events that are a player's decision.
DECISIONS = frozenset(
    {
        EventKind.FOLD,
        EventKind.CHECK,
        EventKind.CALL,
        EventKind.BET,
        EventKind.RAISE,
        EventKind.BRING_IN,
        EventKind.DISCARD,
    }
)
#: The forced bets, posted before the deal.
FORCED_BETS = frozenset(
    {EventKind.ANTE, EventKind.SMALL_BLIND, EventKind.BIG_BLIND, EventKind.STRADDLE}
)


def action_kind(value: object) -> ActionKind:
    """The ``ActionKind`` named ``value`` (``"fold"`` ...); a ``PokerError`` otherwise."""
    try:
        return ActionKind(value)  # type: ignore[arg-type]  # any value: a ValueError if none
    except ValueError:
        raise PokerError(f"unknown action {value!r} (one of {', '.join(ActionKind)})") from None


def discard_cards(value: object) -> tuple[Card, ...]:
    """The cards of a discard: ``Card`` values, their texts, or one text (``"7h2c"``); each
    card once, else a ``PokerError``."""
    if isinstance(value, str):
        cards = tuple(parse_cards(value))
    elif isinstance(value, list | tuple | frozenset | set):
        cards = tuple(c if isinstance(c, Card) else Card.parse(c) for c in value)
    else:
        raise PokerError(f"a discard is a list of cards, got {value!r}")
    if len(set(cards)) != len(cards):
        raise PokerError(f"a card is discarded once: {format_cards(cards, ' ')}")
    return cards


@dataclass(frozen=True, slots=True)
class Action:
    """A decision: ``fold``, ``check``, ``call``, ``raise`` (to a street total), ``all_in``,
    or in the draw games ``discard`` with the cards thrown away (none: stand pat).

    ``kind`` may be given as text; it is kept as an ``ActionKind``.
    """

    kind: ActionKind
    amount: int | None = None
    cards: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        kind = self.kind
        if type(kind) is not ActionKind:
            kind = action_kind(kind)
            object.__setattr__(self, "kind", kind)
        if self.cards and kind is not ActionKind.DISCARD:
            raise PokerError(f"{kind} takes no cards")
        if kind is ActionKind.DISCARD:
            object.__setattr__(self, "cards", discard_cards(self.cards))
        if kind is ActionKind.RAISE:
            if not is_whole(self.amount) or self.amount is None or self.amount < 1:
                raise PokerError(f"a raise needs a whole amount of chips, got {self.amount!r}")
        elif self.amount is not None:
            raise PokerError(f"{kind} takes no amount")

    def __repr__(self) -> str:
        cards = f", cards={self.cards!r}" if self.cards else ""
        return f"Action(kind={self.kind!r}, amount={self.amount!r}{cards})"

    def __str__(self) -> str:
        if self.kind is ActionKind.DISCARD:
            return f"discard {format_cards(self.cards)}".rstrip()
        return f"raise {self.amount}" if self.kind is ActionKind.RAISE else str(self.kind)

    @classmethod
    def parse(cls, text: str) -> Action:
        """``"fold"``, ``"check"``, ``"call"``, ``"raise 120"``/``"bet 120"``, ``"all_in"``
        (or ``all-in``, ``allin``), ``"discard 7h2c"`` (or ``"discard 7h 2c"``; ``"discard"`` or
        ``"stand_pat"`` stands pat)."""
        parts = text.split()
        if parts and parts[0] in ("discard", "draw"):
            return cls(ActionKind.DISCARD, cards=tuple(parse_cards("".join(parts[1:]))))
        if parts == ["stand_pat"] or parts == ["stand", "pat"]:
            return cls(ActionKind.DISCARD)
        if len(parts) == 2 and parts[0] in ("raise", "bet"):
            if not (parts[1].isascii() and parts[1].isdigit()):  # not "²", "٣" or "-5"
                raise PokerError(
                    f"not an action: {text!r} (a raise is to a whole number "
                    "of chips, e.g. raise 120)"
                )
            return cls(ActionKind.RAISE, int(parts[1]))
        if len(parts) == 1:
            kind = parts[0].replace("-", "_")
            return cls(ActionKind.ALL_IN if kind == "allin" else action_kind(kind))
        raise PokerError(f"not an action: {text!r}")

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": str(self.kind), "amount": self.amount}
        if self.kind is ActionKind.DISCARD:
            data["cards"] = [str(c) for c in self.cards]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Action:
        return cls(data["kind"], data.get("amount"), discard_cards(data.get("cards") or ()))

    @classmethod
    def coerce(cls, value: object) -> Action:
        """An ``Action`` from an action, its text (``parse``), its dict (``from_dict``) or a
        ``(kind, amount)`` pair; anything else is a ``PokerError``."""
        if isinstance(value, Action):
            return value
        if isinstance(value, str):
            return cls.parse(value)
        if isinstance(value, Mapping) and "kind" in value:
            return cls.from_dict(value)
        if isinstance(value, tuple | list) and len(value) == 2:
            return cls(value[0], value[1])
        raise PokerError(
            f"not an action: {value!r} (fold, check, call, raise 120, all_in or discard 7h2c)"
        )


@dataclass(frozen=True, slots=True)
class Legal:
    """What the actor may do. ``call`` is the chips to add (0 when checking is possible);
    ``min_raise_to``/``max_raise_to`` are street totals, ``None`` when no bet/raise is allowed.
    ``discard``: the draw games' draw round, where the only decision is which cards to throw
    away (none to all of them); nothing else is open then."""

    fold: bool
    check: bool
    call: int
    min_raise_to: int | None
    max_raise_to: int | None
    discard: bool = False

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "fold": self.fold,
            "check": self.check,
            "call": self.call,
            "min_raise_to": self.min_raise_to,
            "max_raise_to": self.max_raise_to,
        }
        if self.discard:
            data["discard"] = True
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Legal:
        return cls(
            data["fold"],
            data["check"],
            data["call"],
            data["min_raise_to"],
            data["max_raise_to"],
            bool(data.get("discard", False)),
        )


@dataclass(frozen=True, init=False)
class Event:
    """Something that happened. ``cards`` is empty where the viewer may not see them (another
    seat's dealt hole cards in ``View.events``); ``text`` is a shown hand's or a winning
    hand's description.

    ``line`` is the event as a PHH-like line (``p2 cbr 300``, ``d db 7h``): seats print as
    ``p<seat+1>`` in this hand's seat order; lines PHH has no action for (forced bets,
    returned bets, winnings) print as ``#`` comments. Formatted once per event.
    """

    kind: EventKind
    seat: int | None = None
    amount: int = 0
    cards: tuple[Card, ...] = ()
    text: str = ""

    def __init__(
        self,
        kind: EventKind,
        seat: int | None = None,
        amount: int = 0,
        cards: tuple[Card, ...] = (),
        text: str = "",
    ) -> None:
        # Frozen, but filled in straight: a hand makes about 30 events and the frozen
        # dataclass's own __init__ (one object.__setattr__ per field) cost 10% of a replay.
        fields = self.__dict__
        fields["kind"] = kind
        fields["seat"] = seat
        fields["amount"] = amount
        fields["cards"] = cards
        fields["text"] = text

    @cached_property
    def line(self) -> str:
        p = f"p{self.seat + 1}" if self.seat is not None else ""
        k = self.kind
        if k is EventKind.DEAL_HOLE:
            return f"d dh {p} {format_cards(self.cards) if self.cards else '????'}"
        if k is EventKind.DEAL_UP:
            return f"d dh {p} {format_cards(self.cards)}"
        if k is EventKind.BRING_IN:
            return f"{p} pb"
        if k is EventKind.DEAL_BOARD:
            return f"d db {format_cards(self.cards)}"
        if k is EventKind.FOLD:
            return f"{p} f"
        if k is EventKind.CHECK or k is EventKind.CALL:
            return f"{p} cc"
        if k is EventKind.BET or k is EventKind.RAISE:
            return f"{p} cbr {self.amount}"
        if k is EventKind.DISCARD:
            if not self.amount:
                return f"{p} sd"
            return f"{p} sd {format_cards(self.cards) if self.cards else '??' * self.amount}"
        if k is EventKind.DRAW:
            return f"d dh {p} {format_cards(self.cards) if self.cards else '??' * self.amount}"
        if k is EventKind.RESHUFFLE:
            return f"# {self.amount} cards out of play are shuffled into a new stub"
        if k is EventKind.SHOW:
            return f"{p} sm {format_cards(self.cards)}"
        if k is EventKind.MUCK:
            return f"{p} sm"
        if k is EventKind.REVEAL:
            return f"# {p} shows {format_cards(self.cards)} after the hand"
        if k is EventKind.RETURN:
            return f"# {p} takes back {self.amount} uncalled"
        if k is EventKind.DEAL_SECOND_BOARD:
            return f"d db {format_cards(self.cards)} # second run"
        if k is EventKind.DEAL_THIRD_BOARD:
            return f"d db {format_cards(self.cards)} # third run"
        if k is EventKind.DEAL_BOARD_TWO:
            return f"d db {format_cards(self.cards)} # board two"
        if k is EventKind.RUNS:
            return f"# the board is run {RUNS_WORDS.get(self.amount, self.amount)}"
        if k is EventKind.WIN:
            return f"# {p} wins {self.amount}" + (f" ({self.text})" if self.text else "")
        return f"# {p} posts {k.replace('_', ' ')} {self.amount}"

    def __str__(self) -> str:
        return self.line

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": str(self.kind),
            "seat": self.seat,
            "amount": self.amount,
            "cards": [str(c) for c in self.cards],
            "text": self.text,
        }


@dataclass(frozen=True, slots=True)
class Award:
    """One pot's payout: pot index, its chips, the winning seats and their shares.

    ``half`` in the hi-lo games at showdown: ``"high"`` or ``"low"`` (the pot was split), or
    ``"whole"`` (no eligible hand had a low: the high hand takes the whole pot); ``""``
    otherwise."""

    pot: int
    amount: int
    winners: tuple[int, ...]
    amounts: tuple[int, ...]
    description: str
    half: str = ""

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "pot": self.pot,
            "amount": self.amount,
            "winners": list(self.winners),
            "amounts": list(self.amounts),
            "description": self.description,
        }
        if self.half:
            data["half"] = self.half
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Award:
        return cls(
            data["pot"],
            data["amount"],
            tuple(data["winners"]),
            tuple(data["amounts"]),
            data["description"],
            data.get("half", ""),
        )


@dataclass(frozen=True, slots=True)
class Result:
    """How a finished hand ended: per-seat net chips, awards, and the hands shown
    (seat -> (cards, description))."""

    net: tuple[int, ...]
    awards: tuple[Award, ...]
    shown: Mapping[int, tuple[tuple[Card, ...], str]]

    def to_dict(self) -> dict[str, Any]:
        return {
            "net": list(self.net),
            "awards": [a.to_dict() for a in self.awards],
            "shown": {
                str(s): {"cards": [str(c) for c in cards], "description": d}
                for s, (cards, d) in self.shown.items()
            },
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Result:
        return cls(
            tuple(data["net"]),
            tuple(Award.from_dict(a) for a in data["awards"]),
            {
                int(s): (tuple(Card.parse(c) for c in v["cards"]), v["description"])
                for s, v in data["shown"].items()
            },
        )
