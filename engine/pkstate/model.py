"""The pkstate document: its entries, forced bets, seats and the whole ``PKState``, which
writes itself back as YAML and replays through ``engine.hand.Hand`` (the format is described
in ``engine.pkstate``)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import yaml

from engine.cards import Card
from engine.deck import stacked_deck
from engine.errors import HandHistoryError, PokerError
from engine.hand import Hand
from engine.types import STREETS, HandConfig
from engine.variants import VARIANTS

if TYPE_CHECKING:
    pass

#: pkstate's game names and the game and betting of each (from the registry: each game names
#: its codes).
GAMES = {
    code: (name, betting)
    for name, game in VARIANTS.items()
    for betting, code in game.pkstate.items()
}
GAME_OF = {rules: name for name, rules in GAMES.items()}
FIELDS = (
    "id",
    "datetime",
    "game",
    "button",
    "forced_bets",
    "limit_bets",
    "board",
    "players",
    "rounds",
)
REQUIRED = ("game", "button", "forced_bets", "players", "rounds")
SEAT_ACTION = re.compile(r"P(1[01]|[0-9])(Dealt|Check|CBR|Fold|Wins|Loses)")
_BETTING = ("Check", "CBR", "Fold")
RESULTS = ("Wins", "Loses")
STREET_CARDS = (0, 3, 1, 1)  # DealCommon of round 1..4


@dataclass(frozen=True)
class Entry:
    """One action of a round: ``DealCommon`` (``cards``), or seat ``seat``'s ``Dealt``
    (``cards``), ``Check``, ``CBR`` (``amount``), ``Fold``, ``Wins`` or ``Loses`` (``amount``)."""

    kind: str
    seat: int | None = None
    cards: tuple[Card, ...] = ()
    amount: int = 0

    @property
    def name(self) -> str:
        return self.kind if self.seat is None else f"P{self.seat}{self.kind}"

    def to_data(self) -> str | dict[str, Any]:
        if self.kind in ("Check", "Fold"):
            return self.name
        if self.kind in ("Dealt", "DealCommon"):
            return {self.name: card_pile(self.cards)}
        return {self.name: self.amount}

    def __str__(self) -> str:
        data = self.to_data()
        return data if isinstance(data, str) else f"{self.name}: {data[self.name]}"


@dataclass(frozen=True)
class ForcedBets:
    small: int
    big: int
    straddles: tuple[int, ...] | None = None
    ante: int | None = None
    big_blind_ante: int | None = None

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"small": self.small, "big": self.big}
        if self.straddles is not None:
            data["straddles"] = list(self.straddles)
        for name in ("ante", "big_blind_ante"):
            if getattr(self, name) is not None:
                data[name] = getattr(self, name)
        return data


@dataclass(frozen=True)
class Seat:
    name: str
    stack: int
    id: str | None = None

    def to_data(self) -> dict[str, Any]:
        data = {"id": self.id} if self.id is not None else {}
        return data | {"name": self.name, "stack": self.stack}


@dataclass
class PKState:
    """One pkstate document; ``rounds`` is a list of rounds, each a list of ``Entry``."""

    game: str
    button: int
    forced_bets: ForcedBets
    players: list[Seat]
    rounds: list[list[Entry]]
    id: str | None = None
    datetime: dt.datetime | None = None
    board: tuple[Card, ...] | None = None
    limit_bets: tuple[int, int] | None = None
    source: str = "<pkstate>"

    def _fail(self, where: str, problem: str) -> HandHistoryError:
        return HandHistoryError(f"{self.source}: {where}: {problem}")

    # --- writing ------------------------------------------------------------------------
    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.id is not None:
            data["id"] = self.id
        if self.datetime is not None:
            data["datetime"] = self.datetime.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")
        data |= {
            "game": self.game,
            "button": self.button,
            "forced_bets": self.forced_bets.to_data(),
        }
        if self.limit_bets is not None:
            data["limit_bets"] = {"small": self.limit_bets[0], "big": self.limit_bets[1]}
        if self.board is not None:
            data["board"] = card_pile(self.board)
        data["players"] = [seat.to_data() for seat in self.players]
        data["rounds"] = [[entry.to_data() for entry in round_] for round_ in self.rounds]
        return data

    def to_yaml(self) -> str:
        return yaml.safe_dump(
            self.to_data(),
            allow_unicode=True,
            sort_keys=False,
            default_flow_style=False,
            width=1 << 16,
        )

    # --- the hand -----------------------------------------------------------------------
    def config(self) -> HandConfig:
        game, betting = GAMES[self.game]
        bets = self.forced_bets
        small_bet, big_bet = self.limit_bets or (None, None)
        try:
            return HandConfig(
                game=game,
                betting=betting,
                small_blind=bets.small,
                big_blind=bets.big,
                ante=bets.big_blind_ante or bets.ante or 0,
                ante_mode="big-blind" if bets.big_blind_ante else "per-player",
                straddle=bets.straddles[0] if bets.straddles else 0,
                straddles=len(bets.straddles or ()),
                small_bet=small_bet,
                big_bet=big_bet,
            )
        except PokerError as error:
            raise self._fail("forced_bets", str(error)) from None

    def _entries(self) -> Iterator[tuple[str, int, Entry]]:
        """``(where, round index, entry)`` for every action; ``where`` names it in errors."""
        for r, round_ in enumerate(self.rounds):
            for i, entry in enumerate(round_):
                yield f"round {r + 1} action {i + 1} ({entry})", r, entry

    def _board(self) -> list[Card]:
        dealt = [
            c for round_ in self.rounds for e in round_ if e.kind == "DealCommon" for c in e.cards
        ]
        return dealt or list(self.board or ())

    def known_cards(self) -> set[Card]:
        """Every card the document names; the replay deals the others from unused cards."""
        holes = {c for round_ in self.rounds for e in round_ if e.kind == "Dealt" for c in e.cards}
        return holes | set(self._board())

    def replay(self) -> Hand:
        """The hand rebuilt through the state machine, up to its last action (a hand in
        progress stays in progress). ``HandHistoryError`` names the action the rules refuse,
        or a result the replay does not give."""
        config = self.config()
        n = len(self.players)
        holes: list[tuple[Card, ...] | None] = [None] * n
        for round_ in self.rounds:
            for entry in round_:
                if entry.kind == "Dealt" and entry.cards and entry.seat is not None:
                    holes[entry.seat] = entry.cards
        order = [(self.button + 1 + k) % n for k in range(n)]
        try:
            deck = stacked_deck([holes[seat] for seat in order], self._board(), config.hole_count)
        except PokerError as error:
            raise self._fail("dealt cards", str(error)) from None
        try:
            hand = Hand(
                config,
                [seat.stack for seat in self.players],
                self.button,
                deck,
                [seat.name for seat in self.players],
            )
        except PokerError as error:  # the seats, stacks and button are checked on reading
            raise self._fail("forced_bets", str(error)) from None
        posted = [
            (e.seat, e.amount)
            for e in hand.events
            if e.kind in ("small_blind", "big_blind", "straddle")
        ]
        first = self.rounds[0] if self.rounds else []
        listed = [(e.seat, e.amount) for e in first[: len(posted)] if e.kind == "CBR"]
        skip = len(posted) if listed == posted else 0  # the blinds as posted, listed first
        results = []
        for where, r, entry in self._entries():
            if r == 0 and skip:
                skip -= 1
            elif entry.kind in RESULTS:
                results.append((where, entry))
            elif entry.kind in _BETTING:
                self._act(hand, where, r, entry)
        if len(self._board()) > len(hand.board):
            raise self._fail(
                "board", f"{len(self._board())} cards, but the hand deals {len(hand.board)}"
            )
        for where, entry in results:
            if not hand.is_over:
                raise self._fail(
                    where, f"a result before the hand is over (P{hand.actor} is to act)"
                )
            assert hand.result is not None and entry.seat is not None  # over; a seat's result
            net = hand.result.net[entry.seat]
            if net != (entry.amount if entry.kind == "Wins" else -entry.amount):
                word = "wins" if net >= 0 else "loses"
                raise self._fail(where, f"the replay has P{entry.seat} {word} {abs(net)}")
        return hand

    def _act(self, hand: Hand, where: str, r: int, entry: Entry) -> None:
        if hand.is_over:
            raise self._fail(where, "the hand is already over")
        if hand.street != STREETS[r]:
            raise self._fail(
                where,
                f"round {r + 1} is the {STREETS[r]}, but the hand is on "
                f"the {hand.street} (P{hand.actor} to act)",
            )
        seat = entry.seat
        legal = hand.legal
        try:
            if entry.kind == "Fold":
                hand.fold(seat=seat)
            elif entry.kind == "Check":
                hand.check(seat=seat)
            elif (
                seat is not None
                and legal is not None
                and hand.actor == seat
                and not legal.check
                and entry.amount in (hand.bets[seat] + legal.call, hand.current_bet)
            ):
                hand.call(seat=seat)
            else:
                hand.bet_or_raise_to(entry.amount, seat=seat)
        except PokerError as error:
            raise self._fail(where, str(error)) from None


def card_pile(cards: Iterable[Card]) -> str:
    return " ".join(card.unicode for card in cards)
