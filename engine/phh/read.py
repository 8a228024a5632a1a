"""Reading PHH: ``loads``/``load`` give a ``HandHistory``, whose ``replay()`` rebuilds the hand."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.cards import Card
from engine.deck import stacked_deck, stacked_stud_deck
from engine.errors import CardError, HandHistoryError, PokerError
from engine.hand import Hand, HandConfig
from engine.phh.lines import Line, all_known, parse_lines
from engine.phh.variants import VARIANTS
from engine.types import MOST_RUNS, STUD_GAMES
from engine.variants import VARIANTS as VARIANT_GAMES


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
        if VARIANT_GAMES[game].button_blind:
            return self._button_blind_config(game, betting, antes, blinds[:n])
        antes = (antes + [0] * n)[:n]
        nonzero = {i for i, a in enumerate(antes) if a}
        dead = [0] * n
        if nonzero == {1}:
            ante, mode = antes[1], "big-blind"
        else:
            # one ante for everyone (or none), and above it the dead part of missed blinds
            ante, mode = (min(antes) if len(nonzero) == n else 0), "per-player"
            dead = [a - ante for a in antes]
        # a big blind's amount after the blinds is a missed big blind posted live (a
        # straddle is at least twice the big blind)
        live = [a if k >= 2 and blinds[1] and a == blinds[1] else 0 for k, a in enumerate(blinds)]
        posted = [a - b for a, b in zip(blinds[2:n], live[2:n], strict=True)]
        straddle, straddles, on_button = self._straddles(posted)
        posts = tuple((k, dead[k], live[k]) for k in range(n) if dead[k] or live[k])
        deals = [cards or () for kind, _, cards, _, _ in self._parse_lines() if kind == "db"]
        # more board cards than one board has: the rest of the board was run twice (or more)
        twice = sum(len(cards) for cards in deals) > 5
        bomb_pot = 0
        if not blinds[0] and not blinds[1] and mode == "per-player" and ante:
            # no blinds and an ante for everyone: this engine's bomb pot (flop first)
            bomb_pot, ante = ante, 0
        # a bomb pot whose first two deals are flops: two boards, dealt street by street
        # (a board run twice deals its second flop after the first run's river)
        double = bool(bomb_pot) and [len(cards) for cards in deals[:2]] == [3, 3]
        twice = twice and not double
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
                double_board=double,
                posts=posts,
            )
        except PokerError as error:
            raise self._fail(str(error)) from None

    def _button_blind_config(
        self, game: str, betting: str, antes: list[int], blinds: list[int]
    ) -> HandConfig:
        """Short deck: one ante for everyone and the button's blind (the last player's)."""
        if len(set(antes)) > 1:
            raise self._fail(f"unsupported antes {antes}: {game} has one ante for everyone")
        if any(blinds[:-1]):
            raise self._fail(f"unsupported blinds {blinds}: {game} has the button's alone")
        try:
            return HandConfig(
                game=game,
                betting=betting,
                small_blind=0,
                big_blind=blinds[-1] or self.min_bet,
                ante=antes[0] if antes else 0,
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

    def _parse_lines(self) -> list[Line]:
        return parse_lines(self.actions, len(self.starting_stacks), self.source)

    def deck(self, config: HandConfig | None = None) -> list[Card]:
        """A 52-card deck that deals exactly the recorded cards in ``engine.hand`` order."""
        config = config or self.config()
        if config.is_stud:
            return self._stud_deck()
        if config.variant.is_draw:
            return self._draw_deck(config)[0]
        n = len(self.starting_stacks)
        k = config.hole_count
        holes: list[list[Card] | None] = [None] * n
        board: list[Card] = []
        later: list[list[Card]] = []  # the later runs' streets, a line each
        deals: list[list[Card]] = []  # every board line (a double board's streets)
        for kind, seat, cards, _, where in self._parse_lines():
            known = all_known(cards)
            if kind == "dh" and seat is not None:  # a dealing of hole cards names its player
                if cards is not None and len(cards) != k:
                    raise self._fail(f"{where}: {config.game} deals {k} hole cards")
                holes[seat] = known
            elif kind == "db" and known is not None:
                deals.append(known)
                if len(board) >= 5:
                    later.append(known)
                board.extend(known)
            elif kind == "sm" and seat is not None and known is not None and holes[seat] is None:
                holes[seat] = known
        try:
            # p1, left of the button, is dealt first; each later run's street burns first
            if config.double_board:  # each board's street burns first, board one's first
                return stacked_deck(holes, [], k, config.variant.deck, streets=deals)
            return stacked_deck(holes, board, k, config.variant.deck, later_runs=later)
        except CardError as error:
            raise self._fail(str(error)) from None

    def _draw_deck(self, config: HandConfig) -> tuple[list[Card], list[list[Card | None]]]:
        """A draw game's deck (each seat's first cards) and the cards each seat draws, in
        order: a draw may deal cards discarded earlier (the reshuffled stub), which no one
        deck order can, so the replay deals the recorded draws (``Hand.deal_recorded_draws``)."""
        k = config.hole_count
        holes: list[list[Card] | None] = [None] * len(self.starting_stacks)
        dealt = [False] * len(self.starting_stacks)
        draws: list[list[Card | None]] = [[] for _ in self.starting_stacks]
        for kind, seat, cards, amount, where in self._parse_lines():
            if kind != "dh" or seat is None:
                continue
            if dealt[seat]:
                draws[seat].extend(cards if cards is not None else [None] * amount)
                continue
            if cards is not None and len(cards) != k:
                raise self._fail(f"{where}: {config.game} deals {k} hole cards")
            dealt[seat] = True
            holes[seat] = all_known(cards)
        try:
            return stacked_deck(holes, [], k, config.variant.deck), draws
        except CardError as error:
            raise self._fail(str(error)) from None

    def _stud_deck(self) -> list[Card]:
        """The deck of a stud hand: each seat's cards street by street, as the file deals
        them (a shown hand fills in its unknown down cards), and the common card."""
        dealt: list[list[Card | None]] = [[] for _ in self.starting_stacks]
        common: list[Card] = []
        for kind, seat, cards, amount, _where in self._parse_lines():
            if kind == "dh" and seat is not None:
                # a dealing it hides (``????``) still takes its places in the seat's hand
                dealt[seat].extend(cards if cards is not None else [None] * amount)
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

    def _names_hand(self, seat: int) -> bool:
        """Whether the file names every hole card ``seat`` was dealt."""
        return not any(
            line.cards is None or None in line.cards
            for line in self._parse_lines()
            if line.kind == "dh" and line.seat == seat
        )

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
            if config.variant.is_draw:
                hand.deal_recorded_draws(self._draw_deck(config)[1])
        except PokerError as error:
            raise self._fail(str(error)) from None
        # a seat the file shows mucking (a bare ``sm``) whose cards it hides is replayed with
        # stand-in cards: it loses what it contested, whatever they are
        hand.concede_at_showdown(
            seat
            for kind, seat, _, amount, _ in self._parse_lines()
            if kind == "sm" and seat is not None and amount == 0 and not self._names_hand(seat)
        )
        consumed: set[int] = set()  # the skipped checks the file has written
        before_flop = config.bomb_pot > 0  # a bomb pot's hand starts on the flop
        for kind, seat, cards, amount, where in self._parse_lines():
            if kind == "db":
                before_flop = False
            if kind in ("dh", "db", "sm"):
                continue
            if before_flop:
                # pokerkit plays a bomb pot (antes, no blinds) with a betting round before the
                # flop and writes its checks; the engine has none: they change nothing
                if kind != "cc":
                    raise self._fail(f"{where}: a bomb pot has no betting before the flop")
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
                    if hand.draw_due:
                        raise self._fail(f"{where}: a player before it has not drawn (sd) yet")
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
                elif kind == "sd":
                    assert seat is not None  # a player's action names its player
                    hand.discard(_thrown(hand, seat, cards, amount))
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
                hand.choose_runs(self._runs_written(hand) if config.run_it_twice else 1)
            elif hand.draw_due:
                hand.discard(())  # a draw the file leaves out stands pat
            elif _can_check(hand):
                hand.check()
            else:
                hand.fold()
        return hand

    def _runs_written(self, hand: Hand) -> int:
        """How many times the file runs the board, once the runs part from ``hand``'s board:
        the first run's five cards, then each later run's cards after those."""
        lines = self._parse_lines()
        total = sum(len(cards or ()) for kind, _, cards, _, _ in lines if kind == "db")
        each = 5 - len(hand.board)
        later, odd = divmod(total - 5, each)
        if odd or not 1 <= later < MOST_RUNS:
            raise self._fail(
                f"{total} board cards do not run a board of {len(hand.board)} cards "
                "twice or three times"
            )
        return 1 + later


def _thrown(hand: Hand, seat: int, cards: list[Card | None] | None, count: int) -> list[Card]:
    """The cards a ``sd`` line throws away; a file that hides them (``????``) throws away
    that many of the seat's first cards, unknown to it anyway."""
    known = all_known(cards)
    return known if known is not None else list(hand.hole[seat][:count])


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
