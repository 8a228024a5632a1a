"""Poker Hand History (PHH, the TOML format of uoftcprg ``phh-std``): read, replay, write.

``load(path)``/``loads(text)`` give a ``HandHistory``; ``HandHistory.replay()`` rebuilds the
hand through ``engine.hand.Hand`` with a deck consistent with the recorded cards (unknown
cards and burns are filled from the unused cards in order); ``dumps(hand)`` writes any hand.

Seats: PHH lists players from the seat left of the button (heads-up: the big blind first), so
PHH ``p1..pN`` are our seats ``0..N-1`` with the button at ``N-1``. ``blinds_or_straddles`` and
``antes`` are read in pokerkit's convention: entry 0 is the small blind, entry 1 the big blind
(also heads-up), so an ante only at entry 1 is a big-blind ante.

Reading accepts what real files do: show lines before the last board cards, ``pN sm`` with no
cards (a muck), players skipped by the file (they fold, or check where checking is free),
float ``finishing_stacks``. Showdowns, uncalled bets and payouts are the engine's own.

Variants: ``NT``, ``FT``, ``PO``, ``FO/8`` (fixed-limit Omaha hi-lo), ``F7S``, ``F7S/8``,
``FR`` (stud, stud hi-lo, razz: ``antes``, ``bring_in``, ``small_bet``, ``big_bet``; ``pN pb``
posts the bring-in; ``d dh pN ????Th`` deals two down cards and one up) and ``PO/8`` for
pot-limit Omaha hi-lo, which the standard does not name (pokerkit 0.7 writes its pot-limit
Omaha hi-lo game as ``FO/8``). A redundant check is accepted when reading: the check of a
seat the engine no longer asks because it is the only one left who could act, facing
nothing (pokerkit asks for it and writes it); the live game never asks for it.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.cards import Card, format_cards, parse_cards
from engine.deck import stacked_deck, stacked_stud_deck
from engine.errors import CardError, HandHistoryError, PokerError
from engine.hand import Hand, HandConfig
from engine.types import STUD_GAMES

if TYPE_CHECKING:
    import argparse

    from engine.cli import Subparsers

VARIANTS = {
    "NT": ("holdem", "no-limit"),
    "FT": ("holdem", "fixed-limit"),
    "PO": ("omaha", "pot-limit"),
    "FO/8": ("omaha-hilo", "fixed-limit"),
    "PO/8": ("omaha-hilo", "pot-limit"),
    "F7S": ("stud", "fixed-limit"),
    "F7S/8": ("stud-hilo", "fixed-limit"),
    "FR": ("razz", "fixed-limit"),
}
_VARIANT_OF = {v: k for k, v in VARIANTS.items()}
_ACTION = re.compile(r"^p(\d+) (f|cc|cbr|sm|pb)(?: (\S+))?$")
_DEAL = re.compile(r"^d (dh|db) (?:p(\d+) )?(\S+)$")


@dataclass
class HandHistory:
    """One PHH hand, fields as in the file (``actions`` are the raw action lines)."""

    variant: str
    antes: list[int]
    blinds_or_straddles: list[int]
    min_bet: int
    starting_stacks: list[int]
    actions: list[str]
    players: list[str] | None = None
    finishing_stacks: list[float] | None = None
    small_bet: int | None = None
    big_bet: int | None = None
    bring_in: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    source: str = "<phh>"

    def _fail(self, problem: str) -> HandHistoryError:
        return HandHistoryError(f"{self.source}: {problem}")

    def config(self) -> HandConfig:
        n = len(self.starting_stacks)
        game, betting = VARIANTS[self.variant]
        antes = list(self.antes)
        if game in STUD_GAMES:
            if len(set(antes)) > 1:
                raise self._fail(f"unsupported antes {antes}: stud has one ante for everyone")
            try:
                return HandConfig(
                    game=game,
                    betting=betting,
                    small_blind=0,
                    big_blind=0,
                    ante=antes[0] if antes else 0,
                    bring_in=self.bring_in or 0,
                    small_bet=self.small_bet,
                    big_bet=self.big_bet,
                )
            except PokerError as error:
                raise self._fail(str(error)) from None
        blinds = list(self.blinds_or_straddles) + [0] * 3
        nonzero = {i for i, a in enumerate(antes) if a}
        if not nonzero:
            ante, mode = 0, "per-player"
        elif len(nonzero) == n and len(set(antes)) == 1:
            ante, mode = antes[0], "per-player"
        elif nonzero == {1}:
            ante, mode = antes[1], "big-blind"
        else:
            raise self._fail(
                f"unsupported antes {antes}: use one ante for everyone or a big-blind ante"
            )
        straddle, straddles, on_button = self._straddles(blinds[2:n])
        # more board cards than one board has: the rest of the board was run twice
        twice = (
            sum(len(cards or ()) for kind, _, cards, _, _ in self._parse_lines() if kind == "db")
            > 5
        )
        bomb_pot = 0
        if not blinds[0] and not blinds[1] and mode == "per-player" and ante:
            # no blinds and an ante for everyone: this engine's bomb pot (flop first)
            bomb_pot, ante = ante, 0
        try:
            return HandConfig(
                game=game,
                betting=betting,
                small_blind=blinds[0],
                big_blind=self.min_bet if bomb_pot else blinds[1],
                ante=ante,
                ante_mode=mode,
                straddle=straddle,
                straddles=straddles,
                button_straddle=on_button,
                small_bet=self.small_bet,
                big_bet=self.big_bet,
                bomb_pot=bomb_pot,
                run_it_twice=twice,
            )
        except PokerError as error:
            raise self._fail(str(error)) from None

    def _straddles(self, posted: list[int]) -> tuple[int, int, bool]:
        """(first straddle, how many, by the button) from the entries after the big blind:
        consecutive from under the gun, each double the previous, or the button's alone."""
        count = sum(1 for amount in posted if amount)
        if not count:
            return 0, 0, False
        if count == 1 and len(posted) > 1 and posted[-1]:
            return posted[-1], 1, True
        first = posted[0]
        if posted[:count] != [first << k for k in range(count)] or any(posted[count:]):
            raise self._fail(
                f"unsupported straddles {posted}: straddles are posted from under the gun, "
                "each double the previous, or by the button alone"
            )
        return first, count, False

    def _parse_lines(self) -> list[_Line]:
        n = len(self.starting_stacks)
        parsed = []
        for index, line in enumerate(self.actions):
            where = f"action {index + 1} {line!r}"
            text = line.split("#", 1)[0].strip()
            deal = _DEAL.match(text)
            act = _ACTION.match(text)
            try:
                if deal:
                    kind, player, cards = deal.groups()
                    if kind == "dh" and player is None:
                        raise self._fail(f"{where}: 'd dh' needs a player")
                    seat = int(player) - 1 if player else None
                    if seat is not None and not 0 <= seat < n:
                        raise self._fail(f"{where}: no player p{player}")
                    parsed.append(_Line(kind, seat, _dealt_cards(cards), 0, where))
                elif act:
                    player, kind, arg = act.groups()
                    seat = int(player) - 1
                    if not 0 <= seat < n:
                        raise self._fail(f"{where}: no player p{player}")
                    if kind == "cbr":
                        if arg is None or not re.fullmatch(r"\d+", arg):
                            raise self._fail(f"{where}: 'cbr' needs a whole amount")
                        parsed.append(_Line(kind, seat, None, int(arg), where))
                    elif kind == "sm":
                        shown = None if arg is None else _dealt_cards(arg)
                        parsed.append(_Line(kind, seat, shown, 0, where))
                    else:
                        if arg is not None:
                            raise self._fail(f"{where}: '{kind}' takes no argument")
                        parsed.append(_Line(kind, seat, None, 0, where))
                else:
                    raise self._fail(f"{where}: not a PHH action line")
            except CardError as error:
                raise self._fail(f"{where}: {error}") from None
        return parsed

    def deck(self, config: HandConfig | None = None) -> list[Card]:
        """A 52-card deck that deals exactly the recorded cards in ``engine.hand`` order."""
        config = config or self.config()
        if config.is_stud:
            return self._stud_deck()
        n = len(self.starting_stacks)
        k = config.hole_count
        holes: list[list[Card] | None] = [None] * n
        board: list[Card] = []
        for kind, seat, cards, _, where in self._parse_lines():
            known = _known(cards)
            if kind == "dh" and seat is not None:  # a dealing of hole cards names its player
                if cards is not None and len(cards) != k:
                    raise self._fail(f"{where}: {config.game} deals {k} hole cards")
                holes[seat] = known
            elif kind == "db" and known is not None:
                board.extend(known)
            elif kind == "sm" and seat is not None and known is not None and holes[seat] is None:
                holes[seat] = known
        try:
            return stacked_deck(holes, board, k)  # p1, left of the button, is dealt first
        except CardError as error:
            raise self._fail(str(error)) from None

    def _stud_deck(self) -> list[Card]:
        """The deck of a stud hand: each seat's cards street by street, as the file deals
        them (a shown hand fills in its unknown down cards), and the common card."""
        dealt: list[list[Card | None]] = [[] for _ in self.starting_stacks]
        common: list[Card] = []
        for kind, seat, cards, _, _where in self._parse_lines():
            if kind == "dh" and seat is not None and cards is not None:
                dealt[seat].extend(cards)
            elif kind == "db" and cards is not None:
                common.extend(c for c in cards if c is not None)
            elif kind == "sm" and seat is not None and cards and len(cards) == len(dealt[seat]):
                dealt[seat] = [
                    d if d is not None else c for d, c in zip(dealt[seat], cards, strict=True)
                ]
        try:
            return stacked_stud_deck(dealt, common)
        except CardError as error:
            raise self._fail(str(error)) from None

    def known_cards(self) -> set[int]:
        """Every card the file names (hole cards, board, shown hands); the rest are unknown."""
        return {
            card
            for kind, _, cards, _, _ in self._parse_lines()
            if kind in ("dh", "db", "sm") and cards is not None
            for card in cards
            if card is not None
        }

    def replay(self) -> Hand:
        """The hand rebuilt through the state machine (a skipped player folds or checks)."""
        config = self.config()
        n = len(self.starting_stacks)
        try:
            hand = Hand(config, self.starting_stacks, n - 1, self.deck(config), self.players)
        except PokerError as error:
            raise self._fail(str(error)) from None
        consumed: set[int] = set()  # the skipped checks the file has written
        for kind, seat, _, amount, where in self._parse_lines():
            if kind in ("dh", "db", "sm"):
                continue
            if kind == "cc" and hand.actor != seat:
                redundant = [
                    i
                    for i, skip in enumerate(hand.skipped_checks)
                    if i not in consumed and skip == (seat, len(hand.actions))
                ]
                if redundant:
                    consumed.add(redundant[0])
                    continue
            try:
                for _ in range(n):
                    if hand.is_over or hand.actor == seat:
                        break
                    # a player the file skips folds (checks where checking is free)
                    if _can_check(hand):
                        hand.check()
                    else:
                        hand.fold()
                if hand.is_over:
                    raise self._fail(f"{where}: the hand is already over")
                if kind == "f":
                    if _can_check(hand):
                        hand.check()
                    else:
                        hand.fold()
                elif kind == "cc" or kind == "pb":
                    if _can_check(hand):
                        hand.check()
                    else:
                        hand.call()
                else:
                    hand.bet_or_raise_to(amount)
            except PokerError as error:
                if isinstance(error, HandHistoryError):
                    raise
                raise self._fail(f"{where}: {error}") from None
        for _ in range(4 * n):
            if hand.is_over:
                break
            if hand.runs_due:
                hand.choose_runs(2 if config.run_it_twice else 1)
            elif _can_check(hand):
                hand.check()
            else:
                hand.fold()
        return hand


def _dealt_cards(text: str) -> list[Card | None] | None:
    """Cards as a file deals or shows them: ``None`` for each ``??``; ``None`` for all of
    them when none is known."""
    if text.strip("?") == "":
        return None
    if "?" not in text:
        return list(parse_cards(text))
    cards: list[Card | None] = []
    for start in range(0, len(text), 2):
        token = text[start : start + 2]
        cards.append(None if token == "??" else parse_cards(token)[0])
    return cards


def _known(cards: list[Card | None] | None) -> list[Card] | None:
    """The cards when all of them are known, else ``None`` (unknown cards: spare ones)."""
    if cards is None or any(c is None for c in cards):
        return None
    return [c for c in cards if c is not None]


class _Line(NamedTuple):
    """One parsed action line: ``kind`` (dh, db, f, cc, cbr, sm), the seat (``None`` for a
    board), the cards dealt or shown (``None`` when the file hides them), a ``cbr`` amount
    and where the line is, for messages."""

    kind: str
    seat: int | None
    cards: list[Card | None] | None
    amount: int
    where: str


def _can_check(hand: Hand) -> bool:
    legal = hand.legal
    return legal is not None and legal.check


_FIELDS = {
    "variant",
    "antes",
    "blinds_or_straddles",
    "min_bet",
    "starting_stacks",
    "actions",
    "players",
    "finishing_stacks",
    "small_bet",
    "big_bet",
    "bring_in",
}


def loads(text: str, source: str = "<phh>") -> HandHistory:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise HandHistoryError(f"{source}: not valid TOML: {error}") from None
    for name in ("variant", "starting_stacks", "actions"):
        if name not in data:
            raise HandHistoryError(f"{source}: missing field {name!r}")
    variant = data["variant"]
    if variant not in VARIANTS:
        raise HandHistoryError(
            f"{source}: unsupported variant {variant!r} (one of {', '.join(VARIANTS)})"
        )
    stacks = data["starting_stacks"]
    n = len(stacks) if isinstance(stacks, list) else 0
    if n < 2:
        raise HandHistoryError(f"{source}: starting_stacks must list 2 or more stacks")

    def ints(name: str, default: object) -> list[int]:
        value = data.get(name, default)
        if isinstance(value, int) and not isinstance(value, bool):
            value = [value] * n
        if not isinstance(value, list) or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in value
        ):
            raise HandHistoryError(f"{source}: {name} must be a list of numbers")
        if any(v != int(v) or v < 0 for v in value):
            raise HandHistoryError(f"{source}: {name} must be whole chip amounts >= 0")
        return [int(v) for v in value]

    actions = data["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise HandHistoryError(f"{source}: actions must be a list of strings")
    players = data.get("players")
    return HandHistory(
        variant=variant,
        antes=ints("antes", 0),
        blinds_or_straddles=ints("blinds_or_straddles", [0] * n),
        min_bet=int(data.get("min_bet", 0)),
        starting_stacks=ints("starting_stacks", None),
        actions=actions,
        players=[str(p) for p in players] if isinstance(players, list) else None,
        finishing_stacks=data.get("finishing_stacks"),
        small_bet=data.get("small_bet"),
        big_bet=data.get("big_bet"),
        bring_in=data.get("bring_in"),
        extra={k: v for k, v in data.items() if k not in _FIELDS},
        source=source,
    )


def read_text(path: Path) -> str:
    """A hand history file's text; ``HandHistoryError`` naming the file if it cannot be read."""
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise HandHistoryError(f"{path}: cannot read: {error}") from None


def load(path: str | Path) -> HandHistory:
    path = Path(path)
    return loads(read_text(path), str(path))


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise HandHistoryError(f"cannot write {value!r} as TOML")


def dumps(
    hand: Hand, reveal_mucked: bool = True, known_cards: Collection[int] | None = None
) -> str:
    """The hand as PHH text (``finishing_stacks`` once it is over).

    Hole cards are written for every seat (PHH convention) unless ``reveal_mucked`` is false:
    then only shown hands are written and the others are ``????``. With ``known_cards``, any
    dealt or shown cards not all among them are written as ``?`` too (a viewer's history,
    ``Hand.visible_cards``, or a hand read from a file that did not name them).
    """

    def written(cards: Sequence[int]) -> str:
        if known_cards is None or all(card in known_cards for card in cards):
            return format_cards(cards)
        return "??" * len(cards)

    c = hand.config
    variant = _VARIANT_OF.get((c.game, c.betting))
    if variant is None:
        raise HandHistoryError(f"PHH has no variant for {c.game} {c.betting}")
    n = hand.seats
    order = [(hand.button + 1 + k) % n for k in range(n)]  # PHH p1 is left of the button
    phh: dict[int | None, int] = {seat: i + 1 for i, seat in enumerate(order)}
    if c.ante_mode == "big-blind":
        antes = [0] * n
        if c.ante:
            antes[1] = c.ante
    else:
        antes = [c.ante] * n
    blinds = [0] * n
    if c.bomb_pot:
        antes = [c.bomb_pot] * n  # no blinds: the flop comes first (see HandHistory.config)
    else:
        blinds[0], blinds[1] = c.small_blind, c.big_blind
    if c.button_straddle:
        blinds[n - 1] = c.straddle
    else:
        blinds[2 : 2 + c.straddles] = c.straddle_amounts
    shown = set(hand.result.shown) if hand.result else set()
    lines = []
    for e in hand.events:
        k = e.kind
        if k == "deal_hole":
            cards = written(e.cards)
            if not reveal_mucked and e.seat not in shown:
                cards = "??" * len(e.cards)
            lines.append(f"d dh p{phh[e.seat]} {cards}")
        elif k == "deal_up":
            lines.append(f"d dh p{phh[e.seat]} {written(e.cards)}")
        elif k == "bring_in":
            lines.append(f"p{phh[e.seat]} pb")
        elif k == "deal_board" or k == "deal_second_board":
            lines.append(f"d db {written(e.cards)}")
        elif k == "fold":
            lines.append(f"p{phh[e.seat]} f")
        elif k in ("check", "call"):
            lines.append(f"p{phh[e.seat]} cc")
        elif k in ("bet", "raise"):
            lines.append(f"p{phh[e.seat]} cbr {e.amount}")
        elif k == "show":
            lines.append(f"p{phh[e.seat]} sm {written(e.cards)}")
        elif k == "muck":
            lines.append(f"p{phh[e.seat]} sm")
    if c.is_stud:
        fields = [("variant", variant), ("antes", antes), ("bring_in", c.bring_in)]
    else:
        fields = [
            ("variant", variant),
            ("antes", antes),
            ("blinds_or_straddles", blinds),
            ("min_bet", c.big_blind),
        ]
    if c.betting == "fixed-limit":
        fields += [("small_bet", c.fixed_small_bet), ("big_bet", c.fixed_big_bet)]
    fields += [
        ("starting_stacks", [hand.starting_stacks[s] for s in order]),
        ("actions", lines),
        ("players", [hand.players[s] for s in order]),
    ]
    if hand.is_over:
        fields.append(("finishing_stacks", [hand.stacks[s] for s in order]))
    return "".join(f"{k} = {_toml_value(v)}\n" for k, v in fields)


def seat_of_phh(hand_button: int, seats: int, player: int) -> int:
    """Our seat index of PHH player ``player`` (1-based) for a hand with this button."""
    return (hand_button + player) % seats


# --- the ``replay`` subcommand --------------------------------------------------------------


def add_replay_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="replay PHH hand histories through the state machine",
        description="Replay each PHH file through the hand state machine and print its "
        "finishing stacks (one JSON object per line and file with --json).",
    )
    parser.add_argument("files", nargs="+", metavar="FILE.phh")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.set_defaults(run=run_replay)


def run_replay(args: argparse.Namespace) -> int:
    for name in args.files:
        hand = load(name).replay()
        if args.json:
            print(json.dumps({"file": name, "finishing_stacks": list(hand.stacks)}), flush=True)
        else:
            print(f"{name}: {' '.join(str(s) for s in hand.stacks)}", flush=True)
    return 0
