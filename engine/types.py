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

from engine.cards import Card, format_cards
from engine.errors import PokerError

#: Cards each player is dealt per game (in stud, over five streets).
GAMES = {"holdem": 2, "omaha": 4, "omaha-hilo": 4, "stud": 7, "stud-hilo": 7, "razz": 7}
#: Most seats per game (Omaha deals 4 cards each: 10 players use 40 + 5 board cards; stud
#: runs short of cards with 8, hence its common card).
MAX_SEATS = {"holdem": 12, "omaha": 10, "omaha-hilo": 10, "stud": 8, "stud-hilo": 8, "razz": 8}
#: The seven-card games: antes and a bring-in, no blinds, no board (but a common card).
STUD_GAMES = frozenset({"stud", "stud-hilo", "razz"})
#: The games whose pots are split between the best high and the best eight-or-better low.
HILO_GAMES = frozenset({"omaha-hilo", "stud-hilo"})
BETTINGS = ("no-limit", "pot-limit", "fixed-limit")
ANTE_MODES = ("per-player", "big-blind")
STREETS = ("preflop", "flop", "turn", "river")
STUD_STREETS = ("third", "fourth", "fifth", "sixth", "seventh")


def is_whole(value: object) -> bool:
    """A whole number that is not a ``bool``."""
    return isinstance(value, int) and not isinstance(value, bool)


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
    DEAL_SECOND_BOARD = "deal_second_board"  # run it twice: the second run's cards


#: The events that are a player's decision.
DECISIONS = frozenset(
    {
        EventKind.FOLD,
        EventKind.CHECK,
        EventKind.CALL,
        EventKind.BET,
        EventKind.RAISE,
        EventKind.BRING_IN,
    }
)
#: The forced bets, posted before the deal.
FORCED_BETS = frozenset(
    {EventKind.ANTE, EventKind.SMALL_BLIND, EventKind.BIG_BLIND, EventKind.STRADDLE}
)


def check_straddle(big_blind: int, straddle: int) -> None:
    """The straddle rule: none (0), or a blind raise to at least twice the big blind (the
    smallest full raise over it, as casinos require).

    >>> check_straddle(2, 4)
    >>> check_straddle(2, 3)
    Traceback (most recent call last):
    engine.errors.PokerError: a straddle is at least twice the big blind (4), got 3
    """
    if straddle and straddle < 2 * big_blind:
        raise PokerError(
            f"a straddle is at least twice the big blind ({2 * big_blind}), got {straddle}"
        )


@dataclass(frozen=True, slots=True)
class HandConfig:
    """The rules of one hand (stakes and structure); JSON-able through ``to_dict``.

    Fixed limit: ``small_bet`` defaults to the big blind and ``big_bet`` to twice the small bet.
    Stud games (``STUD_GAMES``) are fixed limit with antes and a ``bring_in`` below the small
    bet; they have no blinds (both 0) and name their ``small_bet``.

    Straddles: ``straddle`` is the first straddle's amount and ``straddles`` how many are
    posted this hand (1 when only ``straddle`` is given): under the gun, then each next seat
    re-straddles double the previous. ``button_straddle``: the one straddle is posted by the
    button instead. ``bomb_pot``: every seat antes this amount instead of the blinds and the
    flop comes with no preflop betting. ``run_it_twice``: when nobody can bet any more before
    the river, the hand waits for ``run_once`` or ``run_twice`` (the players' agreement).
    """

    game: str = "holdem"
    betting: str = "no-limit"
    small_blind: int = 1
    big_blind: int = 2
    ante: int = 0
    ante_mode: str = "per-player"
    straddle: int = 0
    small_bet: int | None = None
    big_bet: int | None = None
    bring_in: int = 0
    straddles: int = 0
    button_straddle: bool = False
    bomb_pot: int = 0
    run_it_twice: bool = False

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise PokerError(f"unknown game {self.game!r} (one of {', '.join(GAMES)})")
        if self.betting not in BETTINGS:
            raise PokerError(f"unknown betting {self.betting!r} (one of {', '.join(BETTINGS)})")
        if self.ante_mode not in ANTE_MODES:
            raise PokerError(
                f"unknown ante_mode {self.ante_mode!r} (one of {', '.join(ANTE_MODES)})"
            )
        if self.straddle and not self.straddles:
            object.__setattr__(self, "straddles", 1)  # the one straddle of older configs
        for flag in ("button_straddle", "run_it_twice"):
            if not isinstance(getattr(self, flag), bool):
                raise PokerError(f"{flag} must be true or false, got {getattr(self, flag)!r}")
        for name in (
            "small_blind",
            "big_blind",
            "ante",
            "straddle",
            "bring_in",
            "straddles",
            "bomb_pot",
        ):
            value = getattr(self, name)
            if not is_whole(value) or value < 0:
                raise PokerError(f"{name} must be a whole number of chips >= 0, got {value!r}")
        for name in ("small_bet", "big_bet"):
            value = getattr(self, name)
            if value is not None and (not is_whole(value) or value < 1):
                raise PokerError(f"{name} must be a whole number of chips >= 1, got {value!r}")
        if self.is_stud:
            self._check_stud()
            return
        if self.bring_in:
            raise PokerError("only stud games have a bring-in")
        if self.big_blind < 1:
            raise PokerError("big_blind must be at least 1 chip")
        if self.small_blind > self.big_blind:
            raise PokerError("small_blind must not be larger than big_blind")
        check_straddle(self.big_blind, self.straddle)
        self._check_straddles()

    def _check_straddles(self) -> None:
        if self.straddles and not self.straddle:
            raise PokerError("straddles need the first straddle's amount (straddle)")
        if self.straddles > self.max_seats - 2:
            raise PokerError(
                f"at most {self.max_seats - 2} straddles in {self.game} (every seat but the "
                f"blinds), got {self.straddles}"
            )
        if self.button_straddle and self.straddles != 1:
            raise PokerError("the button straddle is the only straddle: set straddles to 1")
        if self.bomb_pot and self.straddles:
            raise PokerError("a bomb pot has no preflop betting, so no straddles")

    def _check_stud(self) -> None:
        if self.betting != "fixed-limit":
            raise PokerError(f"{self.game} is played fixed-limit only")
        if self.small_blind or self.big_blind or self.straddles or self.button_straddle:
            raise PokerError(f"{self.game} has no blinds or straddle: set them to 0")
        if self.bomb_pot:
            raise PokerError(f"{self.game} has no bomb pots (they are a flop game's)")
        if self.run_it_twice:
            raise PokerError(f"{self.game} is not run twice (it has no board to run)")
        if self.ante_mode != "per-player":
            raise PokerError(f"{self.game} antes are per player")
        if self.small_bet is None:
            raise PokerError(f"{self.game} needs its small_bet")
        if not 1 <= self.bring_in < self.small_bet:
            raise PokerError(
                f"the bring-in is at least 1 chip and below the small bet ({self.small_bet}), "
                f"got {self.bring_in}"
            )

    @property
    def is_stud(self) -> bool:
        return self.game in STUD_GAMES

    @property
    def is_hilo(self) -> bool:
        return self.game in HILO_GAMES

    @property
    def streets(self) -> tuple[str, ...]:
        return STUD_STREETS if self.is_stud else STREETS

    @property
    def straddle_amounts(self) -> tuple[int, ...]:
        """Each straddle in posting order, each double the previous."""
        return tuple(self.straddle << k for k in range(self.straddles))

    @property
    def hole_count(self) -> int:
        return GAMES[self.game]

    @property
    def max_seats(self) -> int:
        return MAX_SEATS[self.game]

    @property
    def fixed_small_bet(self) -> int:
        return self.small_bet if self.small_bet is not None else self.big_blind

    @property
    def fixed_big_bet(self) -> int:
        return self.big_bet if self.big_bet is not None else 2 * self.fixed_small_bet

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "betting": self.betting,
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "ante": self.ante,
            "ante_mode": self.ante_mode,
            "straddle": self.straddle,
            "small_bet": self.small_bet,
            "big_bet": self.big_bet,
            "bring_in": self.bring_in,
            "straddles": self.straddles,
            "button_straddle": self.button_straddle,
            "bomb_pot": self.bomb_pot,
            "run_it_twice": self.run_it_twice,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | HandConfig) -> HandConfig:
        if isinstance(data, HandConfig):
            return data
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise PokerError(f"unknown hand config field(s): {', '.join(sorted(unknown))}")
        return cls(**data)


def action_kind(value: object) -> ActionKind:
    """The ``ActionKind`` named ``value`` (``"fold"`` ...); a ``PokerError`` otherwise."""
    try:
        return ActionKind(value)  # type: ignore[arg-type]  # any value: a ValueError if none
    except ValueError:
        raise PokerError(f"unknown action {value!r} (one of {', '.join(ActionKind)})") from None


@dataclass(frozen=True, slots=True)
class Action:
    """A decision: ``fold``, ``check``, ``call``, ``raise`` (to a street total) or ``all_in``.

    ``kind`` may be given as text; it is kept as an ``ActionKind``.
    """

    kind: ActionKind
    amount: int | None = None

    def __post_init__(self) -> None:
        kind = self.kind
        if type(kind) is not ActionKind:
            kind = action_kind(kind)
            object.__setattr__(self, "kind", kind)
        if kind is ActionKind.RAISE:
            if not is_whole(self.amount) or self.amount is None or self.amount < 1:
                raise PokerError(f"a raise needs a whole amount of chips, got {self.amount!r}")
        elif self.amount is not None:
            raise PokerError(f"{kind} takes no amount")

    def __str__(self) -> str:
        return f"raise {self.amount}" if self.kind is ActionKind.RAISE else str(self.kind)

    @classmethod
    def parse(cls, text: str) -> Action:
        """``"fold"``, ``"check"``, ``"call"``, ``"raise 120"``/``"bet 120"``, ``"all_in"``
        (or ``all-in``, ``allin``)."""
        parts = text.split()
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
        return {"kind": str(self.kind), "amount": self.amount}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Action:
        return cls(data["kind"], data.get("amount"))

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
        raise PokerError(f"not an action: {value!r} (fold, check, call, raise 120 or all_in)")


@dataclass(frozen=True, slots=True)
class Legal:
    """What the actor may do. ``call`` is the chips to add (0 when checking is possible);
    ``min_raise_to``/``max_raise_to`` are street totals, ``None`` when no bet/raise is allowed."""

    fold: bool
    check: bool
    call: int
    min_raise_to: int | None
    max_raise_to: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "fold": self.fold,
            "check": self.check,
            "call": self.call,
            "min_raise_to": self.min_raise_to,
            "max_raise_to": self.max_raise_to,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Legal:
        return cls(
            data["fold"], data["check"], data["call"], data["min_raise_to"], data["max_raise_to"]
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
        if k is EventKind.SHOW:
            return f"{p} sm {format_cards(self.cards)}"
        if k is EventKind.MUCK:
            return f"{p} sm"
        if k is EventKind.RETURN:
            return f"# {p} takes back {self.amount} uncalled"
        if k is EventKind.DEAL_SECOND_BOARD:
            return f"d db {format_cards(self.cards)} # second run"
        if k is EventKind.RUNS:
            return f"# the board is run {'twice' if self.amount == 2 else 'once'}"
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
    """One pot's payout: pot index, its chips, the winning seats and their shares."""

    pot: int
    amount: int
    winners: tuple[int, ...]
    amounts: tuple[int, ...]
    description: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "pot": self.pot,
            "amount": self.amount,
            "winners": list(self.winners),
            "amounts": list(self.amounts),
            "description": self.description,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Award:
        return cls(
            data["pot"],
            data["amount"],
            tuple(data["winners"]),
            tuple(data["amounts"]),
            data["description"],
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
