"""pkstate YAML: a hand, in progress or finished, as the ``pkstate`` hand-state library writes it.

The format (every field the library has; ``id``, ``datetime``, ``board`` and a player's ``id``
are optional and left out when empty)::

    id: example-hand
    datetime: '2024-05-01T20:15:00Z'     # RFC 3339, with a time zone
    game: NoLimitHoldem
    button: 0
    forced_bets: {small: 50, big: 100}   # also straddles: [200] and ante: 10
    board: 9♣ 6♦ 5♥ 5♠ 8♠
    players: [{name: Alice, stack: 1000}, {name: Bob, stack: 1000}]
    rounds:                              # one list of actions per street
    - - P0Dealt: A♠ K♠
      - P1Dealt: 7♦ 2♣
      - P0CBR: 100
      - P1Fold
      - P0Wins: 100

``loads``/``load`` read (``yaml.safe_load`` only) into a ``PKState``, checking every field;
``PKState.to_yaml()`` writes, so a document reads and writes back the same text;
``PKState.replay()`` rebuilds the hand through ``engine.hand.Hand``; ``dumps(hand)`` writes any
hand. ``python -m engine convert FILE --to yaml|phh`` converts between this and PHH.

How the format maps onto the engine:

* ``game``: one of ``GAMES`` (the library's ``NoLimitHoldem``, ``LimitHoldem``, ``PLO`` and
  ours by the same pattern); its ``Razz`` is not played here.
* ``players`` are the engine's seats in order, ``P0``..``P11`` their indices, ``button`` the
  button's seat, ``stack`` a starting stack.
* The engine posts ``forced_bets`` itself (``ante`` is everyone's). The first round may list
  the posted blinds and straddle first, as ``PnCBR`` (the library's own test hand does); they
  must then be exactly what was posted. Two additions the library does not have, written
  only when needed and skipped by readers that do not know them: ``forced_bets.big_blind_ante``
  (a big-blind ante, not to be misread as everyone's) and ``limit_bets: {small, big}``
  (fixed-limit bet sizes other than the big blind and twice it).
* A round is a street: the first deals the hole cards (``PnDealt``, in dealing order), each
  later one starts with its ``DealCommon``. Actions must fall in their street.
* ``PnCBR: x`` calls, bets or raises to a street total of ``x``, as PHH's ``cbr`` (an all-in
  call for less may give the bet it calls).
* ``PnWins``/``PnLoses``: after the last action, each seat still in at the end and the chips
  it won or lost in all (its net); reading checks them against the replay.
* A hole card nobody may see is left out with its ``PnDealt``; the replay deals that seat
  cards from the unused ones, and writing leaves it out again.

Past 500 lines because the format is one idea: its fields are checked where they are read
(``_Reader``), next to the model that writes them and the replay that gives them meaning.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from engine import phh
from engine.cards import Card, parse_cards
from engine.deck import stacked_deck
from engine.errors import HandHistoryError, PokerError
from engine.hand import Hand
from engine.types import GAMES as HOLE_CARDS
from engine.types import MAX_SEATS, STREETS, HandConfig

if TYPE_CHECKING:
    import argparse

    from engine.cli import Subparsers

GAMES = {
    "NoLimitHoldem": ("holdem", "no-limit"),
    "PotLimitHoldem": ("holdem", "pot-limit"),
    "LimitHoldem": ("holdem", "fixed-limit"),
    "NoLimitOmaha": ("omaha", "no-limit"),
    "PLO": ("omaha", "pot-limit"),
    "LimitOmaha": ("omaha", "fixed-limit"),
}
_GAME_OF = {rules: name for name, rules in GAMES.items()}
_FIELDS = (
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
_REQUIRED = ("game", "button", "forced_bets", "players", "rounds")
_SEAT_ACTION = re.compile(r"P(1[01]|[0-9])(Dealt|Check|CBR|Fold|Wins|Loses)")
_BETTING = ("Check", "CBR", "Fold")
_RESULTS = ("Wins", "Loses")
_STREET_CARDS = (0, 3, 1, 1)  # DealCommon of round 1..4


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
            return {self.name: _pile(self.cards)}
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
            data["board"] = _pile(self.board)
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
            elif entry.kind in _RESULTS:
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


def _pile(cards: Iterable[Card]) -> str:
    return " ".join(card.unicode for card in cards)


# --- reading ------------------------------------------------------------------------------


def loads(text: str, source: str = "<pkstate>") -> PKState:
    """Read one pkstate document; ``HandHistoryError`` names the field that is wrong."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise HandHistoryError(
            f"{source}: not valid YAML{where}: {getattr(error, 'problem', None) or error}"
        ) from None
    return _Reader(source).state(data)


def load(path: str | Path) -> PKState:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise HandHistoryError(f"{path}: cannot read: {error}") from None
    return loads(text, str(path))


class _Reader:
    """Turns ``safe_load``'s plain data into a ``PKState``, naming the first field that is
    wrong in the one error it raises."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, problem: str) -> HandHistoryError:
        return HandHistoryError(f"{self.source}: {where}: {problem}")

    def mapping(
        self, value: object, where: str, fields: tuple[str, ...], required: tuple[str, ...]
    ) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(where, f"must be a mapping of {', '.join(fields)}")
        for key in value:
            if key not in fields:
                raise self.fail(where, f"unknown field {key!r} (fields: {', '.join(fields)})")
        for key in required:
            if key not in value:
                raise self.fail(where, f"missing field {key!r}")
        return value

    def whole(self, value: object, where: str, minimum: int = 0) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise self.fail(where, f"must be a whole number of at least {minimum}, not {value!r}")
        return value

    def text(self, value: object, where: str) -> str:
        if not isinstance(value, str):
            raise self.fail(where, f"must be text, not {value!r} (quote it)")
        return value

    def cards(self, value: object, where: str, count: tuple[int, ...] | None) -> tuple[Card, ...]:
        try:
            cards = tuple(parse_cards(self.text(value, where)))
        except PokerError as error:
            raise self.fail(where, str(error)) from None
        if count is not None and len(cards) not in count:
            raise self.fail(where, f"{len(cards)} cards, not {' or '.join(map(str, count))}")
        return cards

    def state(self, data: object) -> PKState:
        if not isinstance(data, dict):
            raise HandHistoryError(
                f"{self.source}: not a pkstate hand: a mapping of {', '.join(_REQUIRED)} is needed"
            )
        for key in data:
            if key not in _FIELDS:
                raise self.fail(f"field {key!r}", f"unknown (fields: {', '.join(_FIELDS)})")
        for key in _REQUIRED:
            if key not in data:
                raise HandHistoryError(f"{self.source}: missing field {key!r}")
        game = data["game"]
        if game not in GAMES:
            raise self.fail("game", f"{game!r} is not played here (one of {', '.join(GAMES)})")
        players = self.players(data["players"], GAMES[game][0])
        button = self.whole(data["button"], "button")
        if button >= len(players):
            raise self.fail("button", f"no seat {button}: the seats are 0 to {len(players) - 1}")
        board = None
        if data.get("board") is not None:
            board = self.cards(data["board"], "board", (0, 3, 4, 5))
        hole_count = HOLE_CARDS[GAMES[game][0]]
        state = PKState(
            game=game,
            button=button,
            forced_bets=self.forced_bets(data["forced_bets"]),
            players=players,
            rounds=self.rounds(data["rounds"], len(players), hole_count),
            id=None if data.get("id") is None else self.text(data["id"], "id"),
            datetime=self.datetime(data.get("datetime")),
            board=board,
            limit_bets=self.limit_bets(data.get("limit_bets")),
            source=self.source,
        )
        dealt = [
            c for round_ in state.rounds for e in round_ if e.kind == "DealCommon" for c in e.cards
        ]
        if board is not None and dealt and list(board) != dealt:
            raise self.fail("board", f"{_pile(board)}, but the rounds deal {_pile(dealt)}")
        return state

    def players(self, value: object, game: str) -> list[Seat]:
        most = MAX_SEATS[game]
        if not isinstance(value, list) or not 2 <= len(value) <= most:
            raise self.fail("players", f"must list 2 to {most} players")
        seats = []
        for i, player in enumerate(value):
            where = f"players[{i}]"
            player = self.mapping(player, where, ("id", "name", "stack"), ("name", "stack"))
            seats.append(
                Seat(
                    name=self.text(player["name"], f"{where}.name"),
                    stack=self.whole(player["stack"], f"{where}.stack", 1),
                    id=None if player.get("id") is None else self.text(player["id"], f"{where}.id"),
                )
            )
        return seats

    def forced_bets(self, value: object) -> ForcedBets:
        fields = ("small", "big", "straddles", "ante", "big_blind_ante")
        bets_data = self.mapping(value, "forced_bets", fields, ("small", "big"))
        straddles = bets_data.get("straddles")
        if straddles is not None:
            if not isinstance(straddles, list) or len(straddles) > 1:
                raise self.fail("forced_bets.straddles", "a list of at most one straddle")
            straddles = tuple(self.whole(s, "forced_bets.straddles", 1) for s in straddles)

        def optional(name: str) -> int | None:
            amount = bets_data.get(name)
            return None if amount is None else self.whole(amount, f"forced_bets.{name}")

        bets = ForcedBets(
            small=self.whole(bets_data["small"], "forced_bets.small"),
            big=self.whole(bets_data["big"], "forced_bets.big", 1),
            straddles=straddles,
            ante=optional("ante"),
            big_blind_ante=optional("big_blind_ante"),
        )
        if bets.ante and bets.big_blind_ante:
            raise self.fail("forced_bets", "an ante for everyone or a big-blind ante, not both")
        return bets

    def limit_bets(self, value: object) -> tuple[int, int] | None:
        if value is None:
            return None
        bets = self.mapping(value, "limit_bets", ("small", "big"), ("small", "big"))
        return (
            self.whole(bets["small"], "limit_bets.small", 1),
            self.whole(bets["big"], "limit_bets.big", 1),
        )

    def datetime(self, value: object) -> dt.datetime | None:
        if value is None:
            return None
        if isinstance(value, str):
            try:
                value = dt.datetime.fromisoformat(value)
            except ValueError:
                raise self.fail("datetime", f"not an RFC 3339 date and time: {value!r}") from None
        if not isinstance(value, dt.datetime) or value.tzinfo is None:
            raise self.fail(
                "datetime",
                f"must be a date and time with its time zone, like "
                f"2024-05-01T20:15:00Z, not {value!r}",
            )
        return value

    def rounds(self, value: object, seats: int, hole_count: int) -> list[list[Entry]]:
        if not isinstance(value, list) or len(value) > 4:
            raise self.fail("rounds", "must be a list of at most 4 rounds (one per street)")
        rounds: list[list[Entry]] = []
        results = None  # where the results began: nothing but results may follow
        for r, round_ in enumerate(value):
            if not isinstance(round_, list):
                raise self.fail(f"round {r + 1}", "must be a list of actions")
            entries: list[Entry] = []
            for i, item in enumerate(round_):
                where = f"round {r + 1} action {i + 1}"
                entry = self.entry(item, where, seats, hole_count)
                where += f" ({entry})"
                if entry.kind == "Dealt" and (
                    r != 0 or any(e.kind == "Dealt" and e.seat == entry.seat for e in entries)
                ):
                    raise self.fail(where, "hole cards are dealt once, in the first round")
                if entry.kind == "DealCommon":
                    if r == 0 or i != 0:
                        raise self.fail(where, "DealCommon starts round 2, 3 or 4")
                    if any(not prior or prior[0].kind != "DealCommon" for prior in rounds[1:]):
                        raise self.fail(where, "an earlier street's cards are not given")
                    if len(entry.cards) != _STREET_CARDS[r]:
                        raise self.fail(
                            where,
                            f"the {STREETS[r]} is {_STREET_CARDS[r]} card{'s' if r == 1 else ''}",
                        )
                if entry.kind in _RESULTS:
                    results = results or where
                elif results is not None:
                    raise self.fail(where, f"an action after the results ({results})")
                entries.append(entry)
            rounds.append(entries)
        return rounds

    def entry(self, item: object, where: str, seats: int, hole_count: int) -> Entry:
        if isinstance(item, dict) and len(item) == 1:
            ((name, value),) = item.items()
        elif isinstance(item, str):
            name, value = item, None
        else:
            raise self.fail(
                where,
                f"an action is a name (P0Check) or one name and its value "
                f"(P0CBR: 200), not {item!r}",
            )
        if name == "DealCommon":
            return Entry("DealCommon", cards=self.cards(value, f"{where} (DealCommon)", None))
        match = _SEAT_ACTION.fullmatch(name) if isinstance(name, str) else None
        if match is None:
            raise self.fail(
                where,
                f"not a pkstate action: {name!r} (P0..P11 with Dealt, "
                "Check, CBR, Fold, Wins or Loses, or DealCommon)",
            )
        seat, kind = int(match[1]), match[2]
        where = f"{where} ({name})"
        if seat >= seats:
            raise self.fail(where, f"no seat P{seat}: the players are P0 to P{seats - 1}")
        if kind in ("Check", "Fold"):
            if value is not None:
                raise self.fail(where, f"{kind} takes no value")
            return Entry(kind, seat)
        if value is None:
            raise self.fail(where, "needs a value")
        if kind == "Dealt":
            return Entry(kind, seat, cards=self.cards(value, where, (0, hole_count)))
        return Entry(kind, seat, amount=self.whole(value, where, 1 if kind == "CBR" else 0))


# --- writing any hand -----------------------------------------------------------------------


def from_hand(
    hand: Hand,
    *,
    known_cards: Collection[int] | None = None,
    id: str | None = None,
    datetime: dt.datetime | None = None,
) -> PKState:
    """The hand as a pkstate document. With ``known_cards`` (``Hand.visible_cards(seat)`` for
    a viewer, or the cards a file named), hole cards and streets not all among them are left
    out (a street's cards, and every later street's, as the board is dealt in order)."""

    def known(cards: Iterable[int]) -> bool:
        return known_cards is None or all(card in known_cards for card in cards)

    c = hand.config
    rounds: list[list[Entry]] = [[]]
    board_known = True
    for e in hand.events:
        k = e.kind
        if k == "deal_hole" and known(e.cards):
            rounds[0].append(Entry("Dealt", e.seat, tuple(e.cards)))
        elif k == "deal_board":
            board_known = board_known and known(e.cards)
            rounds.append([Entry("DealCommon", cards=tuple(e.cards))] if board_known else [])
        elif k in ("fold", "check"):
            rounds[-1].append(Entry(k.title(), e.seat))
        elif k in ("call", "bet", "raise"):
            rounds[-1].append(Entry("CBR", e.seat, amount=e.amount))
    if hand.result is not None:  # the hand is over
        for seat, net in enumerate(hand.result.net):
            if not hand.folded[seat]:
                rounds[-1].append(Entry("Wins" if net >= 0 else "Loses", seat, amount=abs(net)))
    big_blind_ante = c.ante_mode == "big-blind" and c.ante > 0
    limits = (c.fixed_small_bet, c.fixed_big_bet)
    return PKState(
        game=_GAME_OF[(c.game, c.betting)],
        button=hand.button,
        forced_bets=ForcedBets(
            small=c.small_blind,
            big=c.big_blind,
            straddles=(c.straddle,) if c.straddle else None,
            ante=c.ante if c.ante and not big_blind_ante else None,
            big_blind_ante=c.ante if big_blind_ante else None,
        ),
        players=[
            Seat(name, stack)
            for name, stack in zip(hand.players, hand.starting_stacks, strict=True)
        ],
        rounds=rounds,
        id=id,
        datetime=datetime,
        board=tuple(hand.board) if hand.board and board_known else None,
        limit_bets=limits
        if c.betting == "fixed-limit" and limits != (c.big_blind, 2 * c.big_blind)
        else None,
    )


def dumps(
    hand: Hand,
    *,
    known_cards: Collection[int] | None = None,
    id: str | None = None,
    datetime: dt.datetime | None = None,
) -> str:
    """The hand as pkstate YAML text (see ``from_hand``)."""
    return from_hand(hand, known_cards=known_cards, id=id, datetime=datetime).to_yaml()


# --- the ``convert`` subcommand -------------------------------------------------------------


def read_hand(path: str | Path) -> tuple[Hand, Collection[int], PKState | None]:
    """A ``.phh``, ``.yaml`` or ``.yml`` file's hand, the cards it names, and its pkstate
    document when it is one."""
    suffix = Path(path).suffix.lower()
    if suffix == ".phh":
        history = phh.load(path)
        return history.replay(), history.known_cards(), None
    if suffix in (".yaml", ".yml"):
        state = load(path)
        return state.replay(), state.known_cards(), state
    raise HandHistoryError(f"{path}: cannot tell the format from the name: use .phh, .yaml or .yml")


def add_convert_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "convert",
        help="convert a hand between PHH and pkstate YAML",
        description="Read a hand (FILE.phh, or pkstate FILE.yaml/.yml), replay it through the "
        "state machine and print it as --to says. Cards the file does not name "
        "stay unknown.",
    )
    parser.add_argument("file", metavar="FILE")
    parser.add_argument("--to", required=True, choices=("yaml", "phh"), help="the format to print")
    parser.set_defaults(run=run_convert)


def run_convert(args: argparse.Namespace) -> int:
    hand, known, state = read_hand(args.file)
    if args.to == "phh":
        text = phh.dumps(hand, known_cards=known)
    else:
        text = dumps(
            hand,
            known_cards=known,
            id=state.id if state else None,
            datetime=state.datetime if state else None,
        )
    print(text, end="", flush=True)
    return 0
