"""The action lines of a PHH file, parsed: what each deals, shows, throws away or bets, and
for whom (``HandHistory`` builds its config, deck and replay from them)."""

from __future__ import annotations

import re
from typing import NamedTuple

from engine.cards import Card, parse_cards
from engine.errors import CardError, HandHistoryError

_ACTION = re.compile(r"^p(\d+) (f|cc|cbr|sm|pb|sd)(?: (\S+))?$")
_DEAL = re.compile(r"^d (dh|db) (?:p(\d+) )?(\S+)$")


class Line(NamedTuple):
    """One parsed action line: ``kind`` (dh, db, f, cc, cbr, sm, pb, sd), the seat (``None``
    for a board), the cards dealt, shown or thrown away (``None`` when the file hides them),
    a ``cbr`` amount or how many cards a ``sd`` throws away or a ``sm`` shows (none: a
    muck), and where the line is, for messages."""

    kind: str
    seat: int | None
    cards: list[Card | None] | None
    amount: int
    where: str


def parse_lines(actions: list[str], n: int, source: str) -> list[Line]:
    """The ``actions`` of a file from ``source`` for ``n`` players, each line parsed;
    ``HandHistoryError`` naming the first line that is not a PHH action."""

    def _fail(problem: str) -> HandHistoryError:
        return HandHistoryError(f"{source}: {problem}")

    parsed = []
    for index, line in enumerate(actions):
        where = f"action {index + 1} {line!r}"
        text = line.split("#", 1)[0].strip()
        deal = _DEAL.match(text)
        act = _ACTION.match(text)
        try:
            if deal:
                kind, player, cards = deal.groups()
                if kind == "dh" and player is None:
                    raise _fail(f"{where}: 'd dh' needs a player")
                seat = int(player) - 1 if player else None
                if seat is not None and not 0 <= seat < n:
                    raise _fail(f"{where}: no player p{player}")
                parsed.append(Line(kind, seat, dealt_cards(cards), len(cards) // 2, where))
            elif act:
                player, kind, arg = act.groups()
                seat = int(player) - 1
                if not 0 <= seat < n:
                    raise _fail(f"{where}: no player p{player}")
                if kind == "cbr":
                    if arg is None or not re.fullmatch(r"\d+", arg):
                        raise _fail(f"{where}: 'cbr' needs a whole amount")
                    parsed.append(Line(kind, seat, None, int(arg), where))
                elif kind == "sm":
                    # the amount: how many cards it shows (none: the hand is mucked)
                    shown = None if arg is None else dealt_cards(arg)
                    parsed.append(Line(kind, seat, shown, len(arg or "") // 2, where))
                elif kind == "sd":  # the amount: how many thrown away (known or not)
                    thrown = [] if arg is None else dealt_cards(arg)
                    parsed.append(Line(kind, seat, thrown, len(arg or "") // 2, where))
                else:
                    if arg is not None:
                        raise _fail(f"{where}: '{kind}' takes no argument")
                    parsed.append(Line(kind, seat, None, 0, where))
            else:
                raise _fail(f"{where}: not a PHH action line")
        except CardError as error:
            raise _fail(f"{where}: {error}") from None
    return parsed


def dealt_cards(text: str) -> list[Card | None] | None:
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


def all_known(cards: list[Card | None] | None) -> list[Card] | None:
    """The cards when all of them are known, else ``None`` (unknown cards: spare ones)."""
    if cards is None or any(c is None for c in cards):
        return None
    return [c for c in cards if c is not None]
