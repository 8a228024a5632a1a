"""PokerNow game logs (the CSV of "Download full log": ``entry,at,order``) as PHH hands.

``import_log(text)`` reads the log, splits it into hands in the order played, turns each into
a PHH ``HandHistory`` and replays it through the engine; a hand is kept only when it ends with
the stacks PokerNow printed at the start of the next hand (or, when a player left between
hands or the host changed their stack, the stack they left with or had before), for every
player seated in both. Every other hand is skipped with its reason. Names keep PokerNow's
``name @ id``; cards the log does not show stay unknown (``????``). Amounts in cents (a
0.10/0.25 game) become whole chips of the smallest unit the log uses, recorded as
``pokernow_unit`` in each file.

What is read: hold'em, Omaha and Omaha hi-lo (pot limit), blinds, a dead small blind,
straddles, antes (everyone's), missed blinds posted on coming back (the small blind dead,
as a PHH ante of that seat; the big blind live, as its blind:
``HandConfig.posts``), bomb pots (everyone's bet as PHH antes and no blinds: the engine's
bomb pot, the game's big blind its minimum bet), bets, raises and calls (all in too), the
board, ``shows`` (a whole hand shown after the hand is over too: the player's cards), the
stacks printed between hands, and the host's 7-2 bounty (paid beside the
hand: the stacks printed next are read as before it); hand lines with and without
``(id: ...)``; run it twice (both boards: the engine's PHH reads more than five board cards
as two runs). What is skipped, by name: a board run twice that the deck cannot deal with
its burns, a hand mucked at showdown (the engine judges every live hand; the log never
shows that one), a bomb pot where not every seat put the same bet in. A dead button plays
as the seat before the small blind holding it (the same order of action).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from engine.cards import format_cards, parse_cards
from engine.errors import HandHistoryError, PokerError
from engine.phh import HandHistory, dumps

__all__ = ["ImportedHand", "LogImport", "SkippedHand", "import_log", "log_names"]

_GAMES = {
    "No Limit Texas Hold'em": ("NT", 2),
    "Pot Limit Omaha Hi": ("PO", 4),
    "Pot Limit Omaha Hi/Lo 8 or Better": ("PO/8", 4),
}
_START = re.compile(
    r"^-- starting hand #(?P<number>\d+)\s+(?:\(id: (?P<id>[^)]+)\)\s+)?"
    r"\(?(?P<game>[^()]+?)\)?\s+\((?:dealer: \"(?P<dealer>.+)\"|(?P<dead>dead button))\) --$"
)
_END = re.compile(r"^-- ending hand #(?P<number>\d+) --$")
_STACKS = re.compile(r"#(?P<seat>\d+) \"(?P<name>.+?)\" \((?P<stack>[\d.]+)\)")
_PLAYER = r"^\"(?P<name>.+)\" "
_AMOUNT = r"(?P<amount>\d+(?:\.\d+)?)"
_ACTIONS = [
    ("sb", re.compile(_PLAYER + r"posts a small blind of " + _AMOUNT + "$")),
    ("bb", re.compile(_PLAYER + r"posts a big blind of " + _AMOUNT + "$")),
    ("straddle", re.compile(_PLAYER + r"posts a straddle of " + _AMOUNT + "$")),
    ("ante", re.compile(_PLAYER + r"posts an ante of " + _AMOUNT + "$")),
    # back from missing the blinds: the small blind dead, the big blind live
    ("dead", re.compile(_PLAYER + r"posts a missing small blind of " + _AMOUNT + "$")),
    ("live", re.compile(_PLAYER + r"posts a missed big blind of " + _AMOUNT + "$")),
    (
        "bomb",
        re.compile(
            _PLAYER
            + r"(?:posts a bet of|calls) "
            + _AMOUNT
            + r"(?: and go all in)? \(bomb pot bet\)$"
        ),
    ),
    ("f", re.compile(_PLAYER + r"folds$")),
    ("cc", re.compile(_PLAYER + r"(?:checks|calls " + _AMOUNT + r")(?: and go all in)?$")),
    ("cbr", re.compile(_PLAYER + r"(?:bets|raises to) " + _AMOUNT + r"(?: and go all in)?$")),
    ("sm", re.compile(_PLAYER + r"shows a (?P<cards>.+)\.$")),
]
_POSTS = 7  # the forced bets among _ACTIONS
_SHOWN = dict(_ACTIONS)["sm"]
_BOARD = re.compile(
    r"^(?P<street>Flop|Turn|River)(?P<run> \(second run\))?:.*?\[(?P<cards>[^\]]+)\]$"
)
_LEFT_WITH = re.compile(
    r"^The player \"(?P<name>.+)\" (?:quits the game|stand up) with (?:a|the) stack of "
    + _AMOUNT
    + r"\.?$"
)
# the host changing a stack between hands (a rebuy, a top-up): "from" is the stack after
# the earlier hand
_UPDATED = re.compile(
    r"^The admin updated the player \"(?P<name>.+)\" stack from " + _AMOUNT + r" to [\d.]+\.?$"
)

# a side bet paid after the hand (the host's "7-2 bounty"): not the hand's chips, so the
# stacks printed next are read as if it had not been paid
_BOUNTY = re.compile(
    r"^\"(?P<payer>.+)\" paid " + _AMOUNT + r" for the 7-2 bounty to \"(?P<name>.+)\"$"
)


@dataclass(frozen=True)
class ImportedHand:
    number: int
    pokernow_id: str | None
    history: HandHistory
    phh: str
    #: each player's stack once the hand is over, in the order of ``history.players``
    finishing_stacks: tuple[int, ...] = ()


@dataclass(frozen=True)
class SkippedHand:
    number: int
    reason: str


@dataclass
class LogImport:
    """A log's hands: those imported (in the order played) and those skipped, with why."""

    unit: Decimal
    hands: list[ImportedHand] = field(default_factory=list)
    skipped: list[SkippedHand] = field(default_factory=list)


@dataclass
class _RawHand:
    number: int
    pokernow_id: str | None
    game: str
    dealer: str | None
    seats: list[tuple[int, str, str]]  # (PokerNow seat, name, stack text)
    entries: list[str]
    after: dict[str, str] = field(default_factory=dict)  # name -> stack text, left with
    bounties: dict[str, Decimal] = field(default_factory=dict)  # name -> paid (+) or won (-)
    shown_after: dict[str, str] = field(default_factory=dict)  # name -> cards shown once over


def read_entries(text: str) -> list[str]:
    """The log's entries in the order they happened; a ``HandHistoryError`` naming the first
    line that is not a PokerNow log line."""
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or lines[0].strip() != "entry,at,order":
        first = lines[0][:80] if lines else ""
        raise HandHistoryError(f"line 1: not a PokerNow log (expected 'entry,at,order'): {first!r}")
    rows = []
    reader = csv.reader(io.StringIO("\n".join(lines[1:])))
    try:
        for number, row in enumerate(reader, start=2):
            if len(row) != 3 or not row[2].isdigit():
                raise HandHistoryError(
                    f"line {number}: not a PokerNow log line: {','.join(row)[:80]!r}"
                )
            rows.append((int(row[2]), row[0]))
    except csv.Error as error:  # a field over the reader's limit (131,072 characters)
        line = reader.line_num + 1
        raise HandHistoryError(f"line {line}: not a PokerNow log line ({error})") from None
    rows.sort()
    return [entry for _, entry in rows]


def _split(entries: Sequence[str]) -> list[_RawHand]:
    hands: list[_RawHand] = []
    current: _RawHand | None = None
    ended: _RawHand | None = None  # the hand just over: cards shown after it are its
    for entry in entries:
        start = _START.match(entry)
        if start:
            current = _RawHand(
                int(start["number"]), start["id"], start["game"], start["dealer"], [], []
            )
            hands.append(current)
            continue
        if current is None:
            shown = _SHOWN.match(entry)
            if shown and ended is not None:
                ended.shown_after.setdefault(shown["name"], shown["cards"])
            continue
        if _END.match(entry):
            ended, current = current, None
            continue
        if entry.startswith("Player stacks:") and not current.seats:
            current.seats = [(int(s), n, v) for s, n, v in _STACKS.findall(entry)]
        else:
            current.entries.append(entry)
    # what a player left with between two hands is their stack after the earlier one
    last: _RawHand | None = None
    for entry in entries:
        start = _START.match(entry)
        if start:
            last = next(h for h in hands if h.number == int(start["number"]))
            continue
        left = _LEFT_WITH.match(entry) or _UPDATED.match(entry)
        if left and last is not None:
            last.after.setdefault(left["name"], left["amount"])
        bounty = _BOUNTY.match(entry)
        if bounty and last is not None:
            paid = Decimal(bounty["amount"])
            for name, amount in ((bounty["payer"], paid), (bounty["name"], -paid)):
                last.bounties[name] = last.bounties.get(name, Decimal(0)) + amount
    return hands


def _unit(entries: Sequence[str]) -> Decimal:
    """The smallest unit the log's amounts use: 1, or 0.01 in a game played in cents."""
    places = 0
    for entry in entries:
        for amount in re.findall(r"\d+\.(\d+)", entry):
            places = max(places, len(amount.rstrip("0")))
    return Decimal(1).scaleb(-places)


def _chips(text: str, unit: Decimal) -> int:
    try:
        value = Decimal(text) / unit
    except InvalidOperation:
        raise HandHistoryError(f"not an amount: {text!r}") from None
    if value != value.to_integral_value():
        raise HandHistoryError(f"{text} is not a whole number of {unit}")
    return int(value)


def _cards(text: str) -> str:
    return format_cards(parse_cards(text.replace(",", " ")))


def _bomb_pot(
    raw: _RawHand, names: list[str], posts: dict[str, dict[str, int]]
) -> tuple[list[str], list[int], list[int]]:
    """A bomb pot's (order, antes, blinds): every seat puts the same bet in, no blinds, and
    the flop comes first (the engine's bomb pot: PHH antes for everyone and no blinds)."""
    bets = {name: posted.get("bomb") for name, posted in posts.items()}
    if set(bets) != set(names) or len(set(bets.values())) != 1:
        raise PokerError("a bomb pot where not every seat put the same bet in")
    if raw.dealer is None or len(names) == 2:
        raise PokerError("a bomb pot with a dead button or heads-up")
    at = names.index(raw.dealer)
    order = [names[(at + 1 + k) % len(names)] for k in range(len(names))]
    amount = next(iter(bets.values()))
    assert amount is not None
    return order, [amount] * len(order), [0] * len(order)


def _blinds(
    names: list[str], posts: dict[str, dict[str, int]]
) -> tuple[list[str], list[int], list[int]]:
    """(order, antes, blinds) of a hand with blinds: PHH p1 is left of the button. Missed
    blinds posted on coming back are the antes' dead chips and a big blind posted live."""
    big = [name for name, posted in posts.items() if "bb" in posted]
    if len(big) != 1:
        raise PokerError("no single big blind posted")
    # with a dead small blind the seat before the big blind posts nothing, so the order is
    # taken from the big blind
    at = names.index(big[0])
    order = [names[(at - 1 + k) % len(names)] for k in range(len(names))]
    if len(order) == 2:
        order = [big[0], next(n for n in names if n != big[0])]
    blinds = [0] * len(order)
    antes = [0] * len(order)
    for name, posted in posts.items():
        index = order.index(name)
        for kind, amount in posted.items():
            if kind in ("ante", "dead"):
                antes[index] += amount
            elif kind == "sb" and (index == 0 or len(order) == 2):
                blinds[0] = amount
            elif kind == "bb":
                blinds[1] = amount
            elif kind == "straddle" and index == 2:
                blinds[2] = amount
            elif kind == "live" and index >= 2 and not blinds[index]:
                blinds[index] = amount
            else:
                raise PokerError(f"{name} posts a {kind} out of turn")
    live = [amount for name, posted in posts.items() for k, amount in posted.items() if k == "live"]
    if any(amount != blinds[1] for amount in live):
        raise PokerError("a missed big blind posted for another amount than the big blind")
    if {k for k, a in enumerate(antes) if a} == {1}:
        # PHH reads an ante of the big blind's alone as a big-blind ante
        raise PokerError("the big blind posts a dead blind")
    return order, antes, blinds


def _history(raw: _RawHand, unit: Decimal, big_blind: int) -> HandHistory:
    """The hand as PHH; a ``PokerError`` saying why it cannot be. ``big_blind``: the game's
    big blind at this hand (a bomb pot posts none; it is the minimum bet after the flop)."""
    if raw.game not in _GAMES:
        raise PokerError(f"the game {raw.game!r} is not imported")
    variant, hole = _GAMES[raw.game]
    names = [name for _, name, _ in raw.seats]
    # a dead button (no dealer) acts in the same order: the seat before the small blind is
    # last, as the engine's button is
    if raw.dealer is not None and raw.dealer not in names:
        raise PokerError(f"the dealer {raw.dealer!r} is not among the players")
    posts: dict[str, dict[str, int]] = {}  # name -> kind -> chips
    for entry in raw.entries:
        for kind, pattern in _ACTIONS[:_POSTS]:
            m = pattern.match(entry)
            if m:
                posts.setdefault(m["name"], {})[kind] = _chips(m["amount"], unit)
                break
    if any("bomb" in posted for posted in posts.values()):
        order, antes, blinds = _bomb_pot(raw, names, posts)
        min_bet = big_blind
    else:
        order, antes, blinds = _blinds(names, posts)
        min_bet = blinds[1]
    player = {name: f"p{k + 1}" for k, name in enumerate(order)}
    shown: dict[str, str] = {}
    folded: set[str] = set()
    actions: list[str] = []
    for entry in raw.entries:
        board = _BOARD.match(entry)
        if board:
            actions.append(f"d db {_cards(board['cards'])}")
            continue
        for kind, pattern in _ACTIONS[_POSTS:]:
            m = pattern.match(entry)
            if not m or m["name"] not in player:
                continue
            if kind == "sm":
                shown[m["name"]] = _cards(m["cards"])
                actions.append(f"{player[m['name']]} sm {shown[m['name']]}")
            elif kind == "cbr":
                actions.append(f"{player[m['name']]} cbr {_chips(m['amount'], unit)}")
            else:
                actions.append(f"{player[m['name']]} {kind}")
                if kind == "f":
                    folded.add(m["name"])
            break
    # a hand shown once the hand is over (PokerNow lets anyone show then), if it is whole
    after = {n: _cards(c) for n, c in raw.shown_after.items() if n in player}
    after = {n: c for n, c in after.items() if len(c) == 2 * hole and n not in shown}
    live = [n for n in order if n not in folded]
    mucked = [n for n in live if n not in shown and n not in after]
    if len(live) > 1 and mucked:
        # the engine judges the showdown from every live hand's cards; these were never shown
        raise PokerError(f"{', '.join(mucked)} mucked at showdown (cards the log never shows)")
    boards = [a for a in actions if a.startswith("d db ")]
    dealt = hole * len(order) + sum(len(b) - 5 for b in boards) // 2 + len(boards)
    if dealt > 52:  # PokerNow deals a second run without burns, or from a fresh deck
        raise PokerError(f"the deck runs out: {dealt} cards with the burns, for two boards")
    deals = [f"d dh {player[n]} {shown.get(n) or after.get(n) or '??' * hole}" for n in order]
    stacks = {name: _chips(stack, unit) for _, name, stack in raw.seats}
    return HandHistory(
        variant=variant,
        antes=antes,
        blinds_or_straddles=blinds,
        min_bet=min_bet,
        starting_stacks=[stacks[n] for n in order],
        actions=deals + actions,
        players=order,
        source=f"hand #{raw.number}",
    )


def _big_blinds(hands: Sequence[_RawHand], unit: Decimal) -> list[int]:
    """Each hand's big blind: the one posted there, else the one before (a bomb pot posts
    none), else the first after."""
    big_blind = dict(_ACTIONS)["bb"]
    posted: list[int | None] = []
    for raw in hands:
        found = (big_blind.match(entry) for entry in raw.entries)
        m = next((m for m in found if m), None)
        posted.append(_chips(m["amount"], unit) if m else None)
    known = [amount for amount in posted if amount is not None] or [1]
    last = known[0]
    blinds = []
    for amount in posted:
        last = amount if amount is not None else last
        blinds.append(last)
    return blinds


def import_log(text: str) -> LogImport:
    """Every hand of a PokerNow log as PHH, checked against the stacks the log printed."""
    entries = read_entries(text)
    hands = _split(entries)
    unit = _unit(entries)
    result = LogImport(unit)
    big_blinds = _big_blinds(hands, unit)
    for k, raw in enumerate(hands):
        try:
            history = _history(raw, unit, big_blinds[k])
            hand = history.replay()
        except (PokerError, ValueError) as error:
            result.skipped.append(SkippedHand(raw.number, str(error)))
            continue
        expected = {name: _chips(stack, unit) for name, stack in raw.after.items()}
        if k + 1 < len(hands):
            for _, name, stack in hands[k + 1].seats:
                if name not in expected:
                    before = Decimal(stack) + raw.bounties.get(name, Decimal(0))
                    expected[name] = _chips(str(before), unit)
        ended = dict(zip(hand.players, hand.stacks, strict=True))
        wrong = [
            f"{n} {ended[n]} not {v}" for n, v in expected.items() if n in ended and ended[n] != v
        ]
        if wrong:
            reason = "does not replay to the stacks PokerNow printed next: " + ", ".join(wrong)
            result.skipped.append(SkippedHand(raw.number, reason))
            continue
        extra = f'hand = {raw.number}\npokernow_unit = "{unit}"\n'
        if raw.pokernow_id:
            extra += f'pokernow_id = "{raw.pokernow_id}"\n'
        text_phh = dumps(hand, known_cards=history.known_cards()) + extra
        finishing = tuple(hand.stacks)
        result.hands.append(ImportedHand(raw.number, raw.pokernow_id, history, text_phh, finishing))
    return result


def log_names(text: str) -> list[str]:
    """The PokerNow names (``name @ id``) seated in the log's hands, in the order first seen;
    a ``HandHistoryError`` naming the first line that is not a PokerNow log line."""
    names: dict[str, None] = {}
    for entry in read_entries(text):
        if entry.startswith("Player stacks:"):
            names.update(dict.fromkeys(name for _, name, _ in _STACKS.findall(entry)))
    return list(names)
