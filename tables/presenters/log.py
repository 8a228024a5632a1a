"""The hand's log in words, from the engine view's typed, already filtered events.

``log_entries`` reads the spectator's view once per table version; each dealing of hole
cards is a ``Dealt`` marker in its place, and ``viewer_log`` makes each round of them one
line: "Your cards" for a viewer dealt in, the round's words without a card for everyone
else.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.cards import Card
from engine.streets import STUD_STREET_NAMES, StreetTracker
from engine.types import FORCED_BETS, RUNS_WORDS, Event, EventKind
from engine.view import View
from tables.presenters.models import CardFace, LogLine
from tables.text import chips, without_board_codes

if TYPE_CHECKING:
    from tables.selectors.hands import Decision
    from tables.selectors.hosting import NoticeRow


@dataclass(frozen=True, slots=True)
class Dealt:
    """Where hand seat ``seat`` was dealt hole cards face down: ``count`` of them, from its
    ``first`` card on (stud deals two down on 3rd street and one on 7th)."""

    seat: int
    first: int = 0
    count: int = 0  # 0: all of them (the flop games deal every hole card at once)


#: Stud's streets, in the log's words.
STUD_STREET_LINES = tuple(STUD_STREET_NAMES.values())
#: A hi-lo award's words after the chips won.
HALF_WORDS = {"high": " for high", "low": " for low", "whole": " (no low)"}


def log_entries(
    view: View,
    names: Sequence[str],
    decisions: Sequence[Decision] = (),
    notices: Sequence[NoticeRow] = (),
    hand_number: int = 0,
) -> list[LogLine | Dealt]:
    """The lines of the hand's log from ``view``'s events (``names``: by hand seat).

    ``decisions``: the hand's stored decisions in order, if known: they add "(all-in)" and
    "(timed out)" to the decisions' lines. A decision that put its player all in without the
    all-in key (a call their stack covered exactly, or could not cover) says "(all-in)" too.
    ``notices``: the table's notices around hand ``hand_number`` (``log_notices``), each
    placed where it was posted: those from before the hand first, one posted after the
    hand's ``k``-th decision before the line of the next, those from after the hand last.
    (The notices are the same for every viewer: services write them for all to read, never
    a card.)
    """
    before = [n for n in notices if n.hand_number < hand_number]
    during = [n for n in notices if n.hand_number == hand_number and n.after_actions is not None]
    after = [
        n
        for n in notices
        if n.hand_number > hand_number or (n.hand_number == hand_number and n.after_actions is None)
    ]
    writer = _Writer(view, names, during)
    writer.lines = notice_lines(before)
    writer.read(view, decisions)
    lines = writer.lines
    # after the last decision (or a hand's later ones not yet read), then after the hand
    lines += notice_lines(n for n in during if (n.after_actions or 0) >= writer.made)
    return lines + notice_lines(after)


@dataclass(frozen=True, slots=True)
class HandLog:
    """``log_entries`` of a running hand's view whose notices all came before the hand, and
    where its walk through the events stopped: a later view of the same hand (its events only
    ever appended) goes on from there (``later_log_entries``)."""

    entries: tuple[LogLine | Dealt, ...]
    writer: _Writer
    events: tuple[Event, ...]  # the view's, read
    decisions: Sequence[Decision]  # the hand's, read
    all_in: frozenset[int]  # the decisions (by event) that put their player all in


def running_log(
    view: View, names: Sequence[str], decisions: Sequence[Decision], notices: Sequence[NoticeRow]
) -> HandLog:
    """``log_entries`` of a running hand's ``view`` whose ``notices`` all came before it."""
    writer = _Writer(view, names, [])
    writer.lines = notice_lines(notices)
    writer.read(view, decisions)
    return HandLog(
        tuple(writer.lines), writer, view.events, decisions, frozenset(writer.went_all_in)
    )


def later_log_entries(
    log: HandLog, view: View, decisions: Sequence[Decision]
) -> tuple[HandLog, tuple[LogLine | Dealt, ...]] | None:
    """``running_log`` of ``view``, a later view of ``log``'s running hand, from ``log``, and
    its entries that are new; None where the earlier entries may read otherwise (the events
    or decisions read are not where they were, an earlier line's "(all-in)" would move)."""
    done, read = len(log.events), log.writer.made
    if (
        view.result is not None
        or len(view.events) < done
        or len(decisions) < read
        or len(log.decisions) < read
        or not all(map(operator.is_, log.events, view.events))
        or not all(map(operator.is_, log.decisions[:read], decisions))
    ):
        return None
    writer = log.writer.copy()
    writer.lines = []
    writer.read(view, decisions, done)
    if frozenset(n for n in writer.went_all_in if n < done) != log.all_in:
        return None
    added = tuple(writer.lines)
    later = HandLog(
        log.entries + added, writer, view.events, decisions, frozenset(writer.went_all_in)
    )
    return later, added


class _Writer:
    """``log_entries``' walk through a view's events: what it has counted so far."""

    def __init__(self, view: View, names: Sequence[str], during: Sequence[NoticeRow]) -> None:
        self.names = names
        self.during = during
        self.stud = view.config.is_stud
        self.street_lines = STUD_STREET_LINES[1:] if self.stud else ("Flop", "Turn", "River")
        self.streets = 0  # street lines written
        self.made = 0  # decisions met so far
        self.dealt = [0] * len(names)  # stud: cards dealt to each seat so far
        self.tracker = StreetTracker(view.config.variant.structure)
        self.lines: list[LogLine | Dealt] = []
        self.last_chips: dict[int, int] = {}  # seat -> its last chip decision (event)
        self.went_all_in: set[int] = set()

    def copy(self) -> _Writer:
        out = _Writer.__new__(_Writer)
        out.__dict__.update(self.__dict__)
        out.dealt = list(self.dealt)
        out.last_chips = dict(self.last_chips)
        out.tracker = self.tracker.copy()
        return out

    def _street(self) -> str:
        words = self.street_lines
        self.streets += 1
        return words[self.streets - 1] if self.streets <= len(words) else "Board"

    def read(self, view: View, decisions: Sequence[Decision], start: int = 0) -> None:
        """Write the lines of ``view``'s events from its ``start``-th on."""
        stud, names, dealt, lines, tracker = (
            self.stud,
            self.names,
            self.dealt,
            self.lines,
            self.tracker,
        )
        # Each WIN event is one winner's share of one award, in the awards' order: the award
        # says which half of a hi-lo pot it is.
        halves = iter(
            award.half
            for award in (view.result.awards if view.result is not None else ())
            for _ in award.winners
        )
        # The decisions (by event) that put their player all in: the last chip decision of
        # each seat the engine holds all in (a player all in makes no decision after it).
        last_chips = self.last_chips
        for number in range(start, len(view.events)):
            event = view.events[number]
            if event.kind in _CHIP_DECISIONS and event.seat is not None:  # a decision's
                last_chips[event.seat] = number
        seats = view.seats
        went_all_in = self.went_all_in = {n for seat, n in last_chips.items() if seats[seat].all_in}
        # Stud's 3rd street opens the hand, as preflop does (no "Preflop:" line): no line of
        # its own, which read as an empty one; each later street has its line, as the flop has.
        for number in range(start, len(view.events)):
            event = view.events[number]
            kind, amount = event.kind, event.amount
            if tracker.see(event):
                if stud:
                    lines.append(LogLine(f"{self._street()}:"))
                elif tracker.draw:
                    lines.append(LogLine(f"Draw {tracker.street}:"))
            if kind is EventKind.DEAL_BOARD:
                words = "Common card" if stud else self._street()
                lines.append(LogLine(f"{words}:", _faces(event.cards)))
                continue
            if kind is EventKind.RUNS:
                lines.append(LogLine(f"The board is run {RUNS_WORDS.get(amount, amount)}"))
                continue
            if kind is EventKind.DEAL_BOARD_TWO:  # a double-board bomb pot's second board
                lines.append(LogLine("Board two:", _faces(event.cards)))
                continue
            if kind is EventKind.DEAL_SECOND_BOARD or kind is EventKind.DEAL_THIRD_BOARD:
                run = "Second" if kind is EventKind.DEAL_SECOND_BOARD else "Third"
                lines.append(LogLine(f"{run} run:", _faces(event.cards)))
                continue
            if kind is EventKind.RESHUFFLE:
                lines.append(LogLine("The deck ran out: the discards are shuffled into a new stub"))
                continue
            seat = event.seat
            assert seat is not None  # every other event is a seat's
            if kind is EventKind.DEAL_HOLE:
                count = (2 if dealt[seat] == 0 else 1) if stud else 0
                lines.append(Dealt(seat, dealt[seat], count))
                dealt[seat] += count
                continue
            if kind is EventKind.DEAL_UP:
                dealt[seat] += len(event.cards)
                lines.append(LogLine(f"{names[seat]} gets (up)", _faces(event.cards)))
                continue
            name = names[seat]
            if kind in FORCED_BETS:
                lines.append(LogLine(f"{name} posts {kind.replace('_', ' ')} {chips(amount)}"))
            elif kind is EventKind.RETURN:
                lines.append(LogLine(f"{name} takes back {chips(amount)} uncalled"))
            elif kind is EventKind.WIN:
                half = HALF_WORDS.get(next(halves, ""), "")
                lines.append(
                    LogLine(
                        f"{name} wins {chips(amount)}{half}"
                        + (f" ({without_board_codes(event.text)})" if event.text else "")
                    )
                )
            elif kind is EventKind.SHOW:
                lines.append(LogLine(f"{name} shows", _faces(event.cards)))
            elif kind is EventKind.MUCK:
                lines.append(LogLine(f"{name} mucks"))
            elif kind is EventKind.DRAW:  # how many, never which: the log is everyone's
                lines.append(LogLine(f"{name} is dealt {amount}"))
            elif kind is EventKind.REVEAL:  # by choice, once the hand was over
                lines.append(LogLine(f"{name} shows", _faces(event.cards)))
            else:
                lines += notice_lines(n for n in self.during if n.after_actions == self.made)
                made = self.made
                self.made += 1
                lines.append(
                    LogLine(
                        f"{name} {_DECISION_WORDS[kind](amount)}"
                        + _decision_notes(
                            decisions[made] if made < len(decisions) else None,
                            number in went_all_in,
                        )
                    )
                )


def notice_lines(notices: Iterable[NoticeRow]) -> list[LogLine | Dealt]:
    """Notices as lines of the log (kind "notice")."""
    return [LogLine(notice.text, kind="notice") for notice in notices]


_DECISION_WORDS: dict[EventKind, Callable[[int], str]] = {
    EventKind.FOLD: lambda amount: "folds",
    EventKind.CHECK: lambda amount: "checks",
    EventKind.CALL: lambda amount: "calls",
    EventKind.BET: lambda amount: f"bets to {chips(amount)}",
    EventKind.RAISE: lambda amount: f"raises to {chips(amount)}",
    EventKind.BRING_IN: lambda amount: f"brings in for {chips(amount)}",
    EventKind.DISCARD: lambda amount: f"draws {amount}" if amount else "stands pat",
}


#: ``HandAction.Source.TIMEOUT``: a decision the clock made (a presenter imports no model).
TIMED_OUT = "timeout"

#: The decisions that put chips in (one of them may put the player all in).
_CHIP_DECISIONS = frozenset({EventKind.CALL, EventKind.BET, EventKind.RAISE, EventKind.BRING_IN})


def _decision_notes(decision: Decision | None, all_in: bool = False) -> str:
    """ " (all-in)", " (timed out)", both or neither (``all_in``: the decision put the
    player all in, whichever key made it)."""
    all_in = all_in or (decision is not None and decision.kind == "all_in")
    timed_out = decision is not None and decision.source == TIMED_OUT
    return (" (all-in)" if all_in else "") + (" (timed out)" if timed_out else "")


def _faces(cards: Sequence[Card]) -> tuple[CardFace, ...]:
    return tuple(CardFace(str(c)) for c in cards)


@dataclass(frozen=True, slots=True)
class DealtRound:
    """One round of hole cards dealt (the ``Dealt`` markers of one street): its line's
    ``place`` in the log, which cards it dealt (``Dealt.first``, ``Dealt.count``) and to
    which hand seats."""

    place: int
    first: int
    count: int
    seats: frozenset[int]


def everyones_log(
    entries: Sequence[LogLine | Dealt],
) -> tuple[tuple[LogLine, ...], tuple[DealtRound, ...]]:
    """``log_entries`` as a viewer dealt no card reads them, and where its rounds of hole
    cards dealt are.

    Each round (every seat's cards in a flop or draw game, stud's two down on 3rd street,
    its one on 7th) is one line, where its first marker is, in the round's words
    (``DEALT_LINES``); a viewer dealt in reads their cards there (``own_lines``). So every
    viewer's log has as many lines, each at the same place, and differs from the
    spectator's only in its own "Your cards" lines (a ``frames=diff`` socket's own part of
    the log is those lines alone)."""
    lines: list[LogLine] = []
    rounds: dict[tuple[int, int], tuple[int, set[int]]] = {}
    for line in entries:
        if not isinstance(line, Dealt):
            lines.append(line)
            continue
        found = rounds.get((line.first, line.count))
        if found is None:
            rounds[line.first, line.count] = (len(lines), {line.seat})
            lines.append(DEALT_LINES[line.count])
        else:
            found[1].add(line.seat)
    dealt = tuple(
        DealtRound(place, first, count, frozenset(seats))
        for (first, count), (place, seats) in rounds.items()
    )
    return tuple(lines), dealt


def own_lines(
    rounds: Sequence[DealtRound], index: int | None, cards: Sequence[Card | None]
) -> dict[int, LogLine]:
    """The lines of the log (by place) the viewer in hand seat ``index``, whose hole
    ``cards`` (from their own engine view) are known, reads as "Your cards"."""
    if index is None or any(c is None for c in cards):
        return {}
    own = {}
    for dealt in rounds:
        if index in dealt.seats:
            mine = cards[dealt.first : dealt.first + dealt.count] if dealt.count else cards
            words = "Your cards" if dealt.count != 1 else "Your card"
            if dealt.count:
                words += " (down)"
            own[dealt.place] = LogLine(words, _faces([c for c in mine if c is not None]))
    return own


def viewer_log(
    entries: Sequence[LogLine | Dealt], index: int | None, cards: Sequence[Card | None]
) -> tuple[LogLine, ...]:
    """``log_entries`` for the viewer in hand seat ``index`` whose hole ``cards`` are known:
    ``everyones_log`` with their own lines (``own_lines``)."""
    lines, rounds = everyones_log(entries)
    return with_own_lines(lines, own_lines(rounds, index, cards))


def with_own_lines(lines: tuple[LogLine, ...], own: dict[int, LogLine]) -> tuple[LogLine, ...]:
    """``lines`` with ``own`` (by place) put in."""
    if not own:
        return lines
    out = list(lines)
    for place, line in own.items():
        out[place] = line
    return tuple(out)


#: A round of hole cards dealt as everyone but its players reads it, by cards each (0:
#: all of them, as the flop and draw games deal them).
DEALT_LINES = {
    0: LogLine("The hole cards are dealt"),
    1: LogLine("One card each is dealt down"),
    2: LogLine("Two cards each are dealt down"),
}
