"""Finished hands as PokerStars hand-history text, the format trackers and solvers read.

``hand_text(hand, viewer=seat)`` writes one hand as that seat saw it: the cards come from
``Hand.view(seat)`` (the engine's one hidden-card filter), so the viewer's own hole cards
appear as ``Dealt to NAME [..]`` and another player's only where that player showed them.
``viewer=None`` writes a spectator's history; ``everything=True`` writes every hole card
(a PHH file, where all cards are known). ``histories_text`` joins hands as PokerStars does,
two blank lines apart.

Amounts are the table's chips with no currency (play money); a tournament hand names its
tournament and level in the header. Seats print as ``Seat 1`` .. ``Seat N`` in the hand's
seat order.

>>> from engine.hand import Hand
>>> from engine.deck import fresh_deck
>>> hand = Hand({"small_blind": 1, "big_blind": 2}, [100, 100], 0, fresh_deck(), ["Ann", "Bob"])
>>> _ = hand.fold()
>>> print(hand_text(hand, viewer=1, header=Header(hand_id=7, table="Elm")).splitlines()[6:9])
['*** HOLE CARDS ***', 'Dealt to Bob [2c 2h]', 'Ann: folds']
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from engine.cards import Card
from engine.errors import HandHistoryError
from engine.hand import Event, EventKind, Hand, HandConfig
from engine.types import RUN_BOARD_EVENTS, RUNS_WORDS

__all__ = ["Header", "hand_text", "histories_text", "game_name"]

#: Hands in one file are separated by two blank lines, as PokerStars writes them.
SEPARATOR = "\n\n\n"

_BETTINGS = {"no-limit": "No Limit", "pot-limit": "Pot Limit", "fixed-limit": "Limit"}
_BOARD_STREETS = {3: "FLOP", 4: "TURN", 5: "RIVER"}
_STUD_STREETS = ("3rd STREET", "4th STREET", "5th STREET", "6th STREET", "RIVER")
_STUD_FOLDED_ON = ("3rd Street", "4th Street", "5th Street", "6th Street", "River")
_FOLDED_ON = {0: "before Flop", 3: "on the Flop", 4: "on the Turn", 5: "on the River"}
_DRAWS = ("FIRST", "SECOND", "THIRD")
_ORDINALS = ("1st", "2nd", "3rd")
#: The games PokerStars names otherwise than their label (the draw games and six-plus).
_POKERSTARS_NAMES = {
    "27-triple-draw": "Triple Draw 2-7 Lowball",
    "27-single-draw": "Single Draw 2-7 Lowball",
    "five-card-draw": "5 Card Draw",
    "short-deck": "6+ Hold'em",
}
_FORCED = frozenset(
    {EventKind.ANTE, EventKind.SMALL_BLIND, EventKind.BIG_BLIND, EventKind.STRADDLE}
)
_ROMAN = ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))


@dataclass(frozen=True, slots=True)
class Header:
    """What the hand's first two lines say: its number, table, start time and seats; for a
    tournament hand its tournament number and blind level (from 1)."""

    hand_id: int
    table: str = "Table"
    started_at: datetime | None = None
    max_seats: int | None = None
    tournament_id: int | None = None
    level: int | None = None


def game_name(config: HandConfig) -> str:
    """The game as PokerStars names it, e.g. ``Hold'em No Limit``, ``Razz Limit``,
    ``Triple Draw 2-7 Lowball Limit``."""
    name = _POKERSTARS_NAMES.get(config.game, config.variant.label)
    return f"{name} {_BETTINGS[config.betting]}"


def _roman(number: int) -> str:
    text = ""
    for value, letters in _ROMAN:
        while number >= value:
            text += letters
            number -= value
    return text


def _cards(cards: Iterable[Card]) -> str:
    return "[" + " ".join(str(card) for card in cards) + "]"


def _stakes(config: HandConfig) -> str:
    if config.variant.button_blind:  # no small blind: the button's one blind, and antes
        return f"{config.ante} ante, {config.big_blind} button blind"
    if config.is_stud or config.betting == "fixed-limit":
        return f"{config.fixed_small_bet}/{config.fixed_big_bet}"
    return f"{config.small_blind}/{config.big_blind}"


def _header_lines(hand: Hand, header: Header) -> list[str]:
    c = hand.config
    when = (header.started_at or datetime.now(UTC)).astimezone(UTC)
    stamp = when.strftime("%Y/%m/%d %H:%M:%S UTC")
    if header.tournament_id is not None:
        level = _roman(header.level or 1)
        game = f"Tournament #{header.tournament_id}, Freeroll  {game_name(c)}"
        first = (
            f"PokerStars Hand #{header.hand_id}: {game} - Level {level} ({_stakes(c)}) - {stamp}"
        )
        money = ""
    else:
        first = f"PokerStars Hand #{header.hand_id}:  {game_name(c)} ({_stakes(c)}) - {stamp}"
        money = " (Play Money)"
    seats = max(header.max_seats or hand.seats, hand.seats)
    table = header.table.replace("'", "")
    return [first, f"Table '{table}' {seats}-max{money} Seat #{hand.button + 1} is the button"]


class _Writer:
    """Walks a hand's events (as the viewer sees them) and writes the body lines."""

    def __init__(self, hand: Hand, events: Sequence[Event]) -> None:
        self.hand = hand
        self.events = events
        self.names = hand.players
        self.stacks = list(hand.starting_stacks)
        self.bets = [0] * hand.seats
        self.current = 0
        self.lines: list[str] = []
        self.board = 0  # board cards dealt so far (first run)
        self.runs = 2 if hand.config.double_board else 1  # two boards from the flop
        self.stud_street = -1
        self.draw = 0  # draw rounds begun so far
        self.drew: set[int] = set()  # the seats that discarded in this draw round
        self.known: list[list[Card]] = [[] for _ in range(hand.seats)]
        self.new: dict[int, list[Card]] = {}
        self.folded_at: dict[int, str] = {}
        self.voluntary: set[int] = set()
        self.showdown = False
        self.dealt = False
        # each later run's board starts with the cards dealt before the runs parted
        self.later = {
            run: len(hand.boards[run - 1])
            - sum(len(e.cards) for e in events if _RUN_OF_EVENT.get(e.kind) == run)
            for run in RUN_BOARD_EVENTS
            if len(hand.boards) >= run
        }

    def _pay(self, seat: int, to: int) -> str:
        self.stacks[seat] -= to - self.bets[seat]
        self.bets[seat] = to
        return " and is all-in" if self.stacks[seat] == 0 else ""

    def _street(self, title: str) -> None:
        self.lines.append(f"*** {title} ***")
        self.bets = [0] * self.hand.seats
        self.current = 0

    def _flush_stud_deals(self) -> None:
        for seat in sorted(self.new, key=lambda s: (s - self.hand.button - 1) % self.hand.seats):
            new = self.new[seat]
            old = self.known[seat]
            shown = (_cards(old) + " " if old else "") + _cards(new)
            self.lines.append(f"Dealt to {self.names[seat]} {shown}")
            old.extend(new)
        self.new = {}

    def _where(self) -> str:
        if self.hand.config.is_stud:
            return f"on the {_STUD_FOLDED_ON[max(self.stud_street, 0)]}"
        if self.hand.config.variant.is_draw:
            return f"after the {_ORDINALS[self.draw - 1]} Draw" if self.draw else "before the Draw"
        return _FOLDED_ON.get(self.board, "before Flop")

    def _discard(self, e: Event, name: str, previous: EventKind | None) -> None:
        """A seat's discard; the first of a draw round opens its section (a new betting round
        follows it, so the bets start again from nothing)."""
        seat = e.seat or 0
        drawing = previous in (EventKind.DISCARD, EventKind.DRAW, EventKind.RESHUFFLE)
        if not drawing or seat in self.drew:  # all in: the draws follow each other
            self.draw += 1
            self.drew = set()
            self._street(f"{_DRAWS[self.draw - 1]} DRAW")
        self.drew.add(seat)
        if not e.amount:
            self.lines.append(f"{name}: stands pat")
            return
        plural = "card" if e.amount == 1 else "cards"
        thrown = f" {_cards(e.cards)}" if e.cards else ""  # only the seat's own discards
        self.lines.append(f"{name}: discards {e.amount} {plural}{thrown}")
        self.known[seat] = [c for c in self.known[seat] if c not in e.cards]

    def _drawn(self, e: Event, name: str) -> None:
        """The cards dealt for a discard, as PokerStars writes them: the kept, then the new
        (only to the seat that drew them)."""
        seat = e.seat or 0
        if e.cards:
            kept = self.known[seat]
            shown = (_cards(kept) + " " if kept else "") + _cards(e.cards)
            self.lines.append(f"Dealt to {name} {shown}")
            self.known[seat] = [*kept, *e.cards]

    def write(self) -> list[str]:
        stud = self.hand.config.is_stud
        deals = (EventKind.DEAL_HOLE, EventKind.DEAL_UP)
        dealing = "DEALING HANDS" if self.hand.config.variant.is_draw else "HOLE CARDS"
        previous: EventKind | None = None
        for e in self.events:
            k = e.kind
            name = self.names[e.seat] if e.seat is not None else ""
            if stud and k in deals:
                if previous not in deals:
                    self.stud_street += 1
                    self._street(_STUD_STREETS[self.stud_street])
                if e.seat is not None and e.cards:
                    self.new.setdefault(e.seat, []).extend(e.cards)
                previous = k
                continue
            if stud and previous in deals:
                self._flush_stud_deals()
            previous_kind, previous = previous, k
            if k is EventKind.ANTE:
                self.stacks[e.seat or 0] -= e.amount
                all_in = " and is all-in" if self.stacks[e.seat or 0] == 0 else ""
                self.lines.append(f"{name}: posts the ante {e.amount}{all_in}")
            elif k in (EventKind.SMALL_BLIND, EventKind.BIG_BLIND, EventKind.STRADDLE):
                what = {
                    EventKind.SMALL_BLIND: "small blind",
                    EventKind.BIG_BLIND: "big blind",
                    EventKind.STRADDLE: "straddle",
                }[k]
                all_in = self._pay(e.seat or 0, self.bets[e.seat or 0] + e.amount)
                self.current = max(self.current, self.bets[e.seat or 0])
                self.lines.append(f"{name}: posts {what} {e.amount}{all_in}")
            elif k is EventKind.DEAL_HOLE:
                if not self.dealt:
                    self.dealt = True
                    self.lines.append(f"*** {dealing} ***")
                if e.cards:
                    self.known[e.seat or 0] = list(e.cards)
                    self.lines.append(f"Dealt to {name} {_cards(e.cards)}")
            elif k is EventKind.BRING_IN:
                all_in = self._pay(e.seat or 0, e.amount)
                self.current = e.amount
                self.lines.append(f"{name}: brings in for {e.amount}{all_in}")
            elif k is EventKind.FOLD:
                self.folded_at[e.seat or 0] = self._where()
                self.lines.append(f"{name}: folds")
            elif k is EventKind.CHECK:
                self.lines.append(f"{name}: checks")
            elif k is EventKind.CALL:
                added = e.amount - self.bets[e.seat or 0]
                all_in = self._pay(e.seat or 0, e.amount)
                self.voluntary.add(e.seat or 0)
                self.lines.append(f"{name}: calls {added}{all_in}")
            elif k in (EventKind.BET, EventKind.RAISE):
                self._bet(e, name)
            elif k is EventKind.RETURN:
                self.stacks[e.seat or 0] += e.amount
                self.lines.append(f"Uncalled bet ({e.amount}) returned to {name}")
            elif k is EventKind.RUNS:
                self.runs = e.amount
            elif k is EventKind.DEAL_BOARD:
                self._board(e.cards)
            elif k in _RUN_OF_EVENT:
                self._later_board(_RUN_OF_EVENT[k], e.cards)
            elif k in (EventKind.SHOW, EventKind.MUCK):
                if not self.showdown:
                    self.showdown = True
                    self.lines.append(f"*** {'FIRST ' if self.runs > 1 else ''}SHOW DOWN ***")
                if k is EventKind.SHOW:
                    self.lines.append(f"{name}: shows {_cards(e.cards)} ({_first_run(e.text)})")
                else:
                    self.lines.append(f"{name}: mucks hand")
            elif k is EventKind.DISCARD:
                self._discard(e, name, previous_kind)
            elif k is EventKind.DRAW:
                self._drawn(e, name)
            elif k is EventKind.REVEAL:  # shown by choice once the hand was over
                self.lines.append(f"{name}: shows {_cards(e.cards)}")
        if stud and self.new:
            self._flush_stud_deals()
        return self.lines

    def _bet(self, e: Event, name: str) -> None:
        seat = e.seat or 0
        before = self.current
        all_in = self._pay(seat, e.amount)
        self.voluntary.add(seat)
        self.current = e.amount
        c = self.hand.config
        if c.is_stud and self.stud_street == 0 and before == c.bring_in and before:
            self.lines.append(f"{name}: completes it to {e.amount}{all_in}")
        elif e.kind is EventKind.BET or before == 0:
            self.lines.append(f"{name}: bets {e.amount}{all_in}")
        else:
            self.lines.append(f"{name}: raises {e.amount - before} to {e.amount}{all_in}")

    def _board(self, cards: tuple[Card, ...]) -> None:
        board = self.hand.board
        old = list(board[: self.board])
        self.board += len(cards)
        street = _BOARD_STREETS.get(self.board, "BOARD")
        title = f"FIRST {street}" if self.runs > 1 else street
        shown = _cards(cards) if not old else f"{_cards(old)} {_cards(cards)}"
        self.lines.append(f"*** {title} *** {shown}")
        self.bets = [0] * self.hand.seats
        self.current = 0

    def _later_board(self, run: int, cards: tuple[Card, ...]) -> None:
        """A street of the second or third run (``run``), as "*** SECOND TURN ***"."""
        old = self.hand.boards[run - 1][: self.later[run]]
        self.later[run] += len(cards)
        street = _BOARD_STREETS.get(self.later[run], "BOARD")
        shown = _cards(cards) if not old else f"{_cards(old)} {_cards(cards)}"
        self.lines.append(f"*** {_RUN_TITLES[run - 1]} {street} *** {shown}")


def _first_run(text: str) -> str:
    """A shown hand's description (the first run's, when the board was run more than once)."""
    for kind in ("run", "board"):
        if text.startswith(f"first {kind}: "):
            return text.removeprefix(f"first {kind}: ").split(f"; second {kind}: ")[0]
    return text


#: The runs' names in titles ("*** SECOND FLOP ***", "THIRD Board").
_RUN_TITLES = ("FIRST", "SECOND", "THIRD")
_RUN_OF_EVENT = {kind: run for run, kind in RUN_BOARD_EVENTS.items()} | {
    EventKind.DEAL_BOARD_TWO: 2  # a double board's board two, written as a second run's
}


def _pot_label(pot: int, pots: int) -> str:
    if pots == 1:
        return "pot"
    return "main pot" if pot == 0 else f"side pot-{pot}"


def _award_prefixes(run: int) -> tuple[str, str]:
    """How an award of the run (or board) after ``run`` begins: "second run", "second board"."""
    name = _RUN_TITLES[run].lower()
    return f"{name} run", f"{name} board"


def _collected_lines(hand: Hand, runs: int) -> list[str]:
    result = hand.result
    assert result is not None
    pots = 1 + max((a.pot for a in result.awards), default=0)
    lines: list[str] = []
    run = 1
    for award in result.awards:
        # a later run's awards follow the run before it's, under their own title
        if run < runs and award.description.startswith(_award_prefixes(run)):
            run += 1
            lines.append(f"*** {_RUN_TITLES[run - 1]} SHOW DOWN ***")
        for seat, share in zip(award.winners, award.amounts, strict=True):
            if share:
                label = _pot_label(award.pot, pots)
                lines.append(f"{hand.players[seat]} collected {share} from {label}")
    return lines


def _summary_lines(hand: Hand, writer: _Writer) -> list[str]:
    result = hand.result
    assert result is not None
    total = sum(a.amount for a in result.awards)
    pot_sizes: dict[int, int] = {}
    for award in result.awards:
        pot_sizes[award.pot] = pot_sizes.get(award.pot, 0) + award.amount
    pots = ""
    if len(pot_sizes) > 1:
        sides = [f"Side pot-{k} {v}." for k, v in sorted(pot_sizes.items()) if k]
        pots = f" Main pot {pot_sizes.get(0, 0)}. " + " ".join(sides)
    lines = ["*** SUMMARY ***", f"Total pot {total}{pots} | Rake 0"]
    if len(hand.boards) > 1:
        runs = f"run {RUNS_WORDS[len(hand.boards)]}"
        lines.append(f"Hand was {'dealt two boards' if hand.config.double_board else runs}")
        for title, board in zip(_RUN_TITLES, hand.boards, strict=False):
            lines.append(f"{title} Board {_cards(board)}")
    elif hand.board:
        lines.append(f"Board {_cards(hand.board)}")
    won = [0] * hand.seats
    for award in result.awards:
        for seat, share in zip(award.winners, award.amounts, strict=True):
            won[seat] += share
    for seat in range(hand.seats):
        lines.append(f"Seat {seat + 1}: {_seat_summary(hand, writer, seat, won[seat])}")
    return lines


def _seat_summary(hand: Hand, writer: _Writer, seat: int, won: int) -> str:
    result = hand.result
    assert result is not None
    roles = []
    if seat == hand.button:
        roles.append("(button)")
    if seat == hand.small_blind_seat:
        roles.append("(small blind)")
    if seat == hand.big_blind_seat:
        roles.append("(big blind)")
    who = " ".join([hand.players[seat], *roles])
    if seat in writer.folded_at:
        quiet = seat not in writer.voluntary and roles in ([], ["(button)"])
        return f"{who} folded {writer.folded_at[seat]}" + (" (didn't bet)" if quiet else "")
    if seat in result.shown:
        cards, text = result.shown[seat]
        if won:
            return f"{who} showed {_cards(cards)} and won ({won}) with {_first_run(text)}"
        return f"{who} showed {_cards(cards)} and lost with {_first_run(text)}"
    if writer.showdown and not won:
        known = writer.known[seat]  # the whole hand, when this viewer saw it dealt
        whole = len(known) == hand.config.hole_count
        return f"{who} mucked" + (f" {_cards(known)}" if whole else "")
    return f"{who} collected ({won})"


def hand_text(
    hand: Hand,
    *,
    viewer: int | None = None,
    header: Header,
    everything: bool = False,
    known_cards: Collection[int] | None = None,
) -> str:
    """One finished hand as PokerStars text, as ``viewer`` (a seat, ``None``: a spectator)
    saw it, or with every hole card when ``everything`` (a hand read from a file): then
    hole cards not all among ``known_cards`` (the cards the file names) are left out."""
    if not hand.is_over:
        raise HandHistoryError("only a finished hand can be written as a PokerStars history")
    events: Sequence[Event]
    if not everything:
        events = hand.view(viewer).events
    elif known_cards is None:
        events = hand.events
    else:
        events = [
            replace(e, cards=())
            if e.kind is EventKind.DEAL_HOLE and not all(c in known_cards for c in e.cards)
            else e
            for e in hand.events
        ]
    writer = _Writer(hand, _antes_first(events))
    lines = _header_lines(hand, header)
    for seat in range(hand.seats):
        chips = hand.starting_stacks[seat]
        lines.append(f"Seat {seat + 1}: {hand.players[seat]} ({chips} in chips)")
    lines += writer.write()
    lines += _collected_lines(hand, len(hand.boards))
    lines += _summary_lines(hand, writer)
    return "\n".join(lines) + "\n"


def _antes_first(events: Sequence[Event]) -> Sequence[Event]:
    """The events with the antes before the blinds, as PokerStars writes them (the engine
    takes a big-blind ante after the blind; trackers read an ante after it as none)."""
    antes = [e for e in events if e.kind is EventKind.ANTE]
    forced = next((i for i, e in enumerate(events) if e.kind in _FORCED), None)
    if not antes or forced is None:
        return events
    rest = [e for e in events if e.kind is not EventKind.ANTE]
    return [*rest[:forced], *antes, *rest[forced:]]


def histories_text(texts: Iterable[str]) -> str:
    """Hand texts (``hand_text``) as one file, separated as PokerStars separates hands."""
    return SEPARATOR.join(text.rstrip("\n") + "\n" for text in texts)
