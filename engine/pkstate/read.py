"""Reading pkstate YAML (``yaml.safe_load`` only) into a ``PKState``, naming the first field
that is wrong."""

from __future__ import annotations

import datetime as dt
from itertools import pairwise
from pathlib import Path
from typing import Any

import yaml

from engine import phh
from engine.cards import Card, parse_cards
from engine.errors import HandHistoryError, PokerError
from engine.pkstate.model import (
    FIELDS,
    GAMES,
    REQUIRED,
    RESULTS,
    SEAT_ACTION,
    STREET_CARDS,
    Entry,
    ForcedBets,
    PKState,
    Seat,
    card_pile,
)
from engine.types import GAMES as HOLE_CARDS, MAX_SEATS, STREETS


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
    return loads(phh.read_text(path), str(path))


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
                f"{self.source}: not a pkstate hand: a mapping of {', '.join(REQUIRED)} is needed"
            )
        for key in data:
            if key not in FIELDS:
                raise self.fail(f"field {key!r}", f"unknown (fields: {', '.join(FIELDS)})")
        for key in REQUIRED:
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
            raise self.fail("board", f"{card_pile(board)}, but the rounds deal {card_pile(dealt)}")
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
            if not isinstance(straddles, list):
                raise self.fail("forced_bets.straddles", "a list of straddles")
            straddles = tuple(self.whole(s, "forced_bets.straddles", 1) for s in straddles)
            if any(later != 2 * earlier for earlier, later in pairwise(straddles)):
                raise self.fail("forced_bets.straddles", "each straddle doubles the previous")

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
                    if len(entry.cards) != STREET_CARDS[r]:
                        raise self.fail(
                            where,
                            f"the {STREETS[r]} is {STREET_CARDS[r]} card{'s' if r == 1 else ''}",
                        )
                if entry.kind in RESULTS:
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
        match = SEAT_ACTION.fullmatch(name) if isinstance(name, str) else None
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
