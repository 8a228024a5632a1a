"""What one viewer may see of a hand: ``SeatView`` for each seat and the whole ``View``.

``engine.hand.Hand.view(seat)`` builds them, already filtered for that viewer (the one
hidden-card filter); the site, the bots and the JSON socket frame read them. A JSON view
(``to_dict``) becomes a ``View`` again through ``View.from_dict``, without its events.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import compress
from operator import is_not
from typing import Any, ClassVar

from engine.cards import Card
from engine.pots import Pot
from engine.types import Event, HandConfig, Legal, Result


def _card_of(text: str | None) -> Card | None:
    return None if text is None else Card.parse(text)


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat as a viewer sees it. ``cards``: its hole cards, each ``None`` when hidden
    from this viewer; empty once folded or mucked unseen. ``up``: which of ``cards`` are
    dealt face up (stud's up-cards, seen by everyone), one flag per card."""

    seat: int
    name: str
    stack: int
    bet: int
    committed: int
    folded: bool
    all_in: bool
    cards: tuple[Card | None, ...]
    up: tuple[bool, ...]
    shown: bool
    is_button: bool
    is_small_blind: bool
    is_big_blind: bool
    is_straddle: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "stack": self.stack,
            "bet": self.bet,
            "committed": self.committed,
            "folded": self.folded,
            "all_in": self.all_in,
            "cards": [None if c is None else str(c) for c in self.cards],
            "up": list(self.up),
            "shown": self.shown,
            "is_button": self.is_button,
            "is_small_blind": self.is_small_blind,
            "is_big_blind": self.is_big_blind,
            "is_straddle": self.is_straddle,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeatView:
        return cls(
            data["seat"],
            data["name"],
            data["stack"],
            data["bet"],
            data["committed"],
            data["folded"],
            data["all_in"],
            tuple(_card_of(c) for c in data["cards"]),
            tuple(data.get("up", (False,) * len(data["cards"]))),
            data["shown"],
            data["is_button"],
            data["is_small_blind"],
            data["is_big_blind"],
            data["is_straddle"],
        )


@dataclass(frozen=True, slots=True)
class View:
    """A hand as one viewer (a seat, or ``None`` for a spectator) may see it, from
    ``Hand.view``: every card in it, the events' included, is one this viewer may see.

    ``legal`` is set only for the actor's own view; ``street`` is ``"over"`` at the end.
    ``no_more_betting``: nobody can bet any more and two or more hands are live (every live
    hand may be turned face up); ``runs_due``: the hand waits for the players' choice to run
    the board once, twice or three times; ``second_board``/``third_board``: the second and
    third runs' whole boards, if run that many times (``boards``: every board dealt).
    """

    viewer: int | None
    config: HandConfig
    street: str
    button: int
    seats: tuple[SeatView, ...]
    board: tuple[Card, ...]
    pots: tuple[Pot, ...]
    total_pot: int
    current_bet: int
    actor: int | None
    legal: Legal | None
    events: tuple[Event, ...]
    result: Result | None
    no_more_betting: bool = False
    runs_due: bool = False
    second_board: tuple[Card, ...] = ()
    third_board: tuple[Card, ...] = ()
    most_runs: int = 1  # while ``runs_due``: the most runs the deck has cards for

    @property
    def boards(self) -> tuple[tuple[Card, ...], ...]:
        """Every board dealt: the first, then each later run's (none before the flop)."""
        later = tuple(b for b in (self.second_board, self.third_board) if b)
        return (self.board, *later) if self.board or later else ()

    @property
    def me(self) -> SeatView | None:
        """The viewer's own seat (``None`` for a spectator)."""
        return None if self.viewer is None else self.seats[self.viewer]

    #: The members of ``to_dict`` that differ from one viewer to another (besides the
    #: viewer's own seat and their own lines of the log: ``own_lines``), as
    #: ``own_members`` gives them. The result is everyone's (cards shown are shown to all).
    OWN_MEMBERS: ClassVar[tuple[str, ...]] = ("viewer", "legal")

    def own_members(self) -> dict[str, Any]:
        """``OWN_MEMBERS`` as ``to_dict`` has them."""
        return {
            "viewer": self.viewer,
            "legal": self.legal.to_dict() if self.legal is not None else None,
        }

    def own_lines(self, public: View) -> dict[int, str]:
        """The lines of ``to_dict``'s log (by index) where this view's differ from
        ``public``'s, the spectator's view of the same moment: the viewer's own cards dealt
        (``Hand.view`` swaps in only those events, the rest are the very same)."""
        mine, theirs = self.events, public.events
        if len(mine) != len(theirs):
            raise ValueError("not a view of the same moment")
        # the events that are not the very same, found in C: a few among a whole hand's
        swapped = compress(range(len(mine)), map(is_not, mine, theirs))
        return {n: mine[n].line for n in swapped if mine[n].line != theirs[n].line}

    def to_dict(
        self,
        seat_data: Callable[[SeatView], dict[str, Any]] = SeatView.to_dict,
        config_data: Callable[[HandConfig], dict[str, Any]] = HandConfig.to_dict,
    ) -> dict[str, Any]:
        """JSON-able, as the ``?state=json`` socket frame and the API send it: cards as
        text, the events as their ``line`` under ``"log"``. ``seat_data``, ``config_data``:
        each seat's and the config's JSON (a caller that keeps them passes its own)."""
        own = self.own_members()
        return {
            "viewer": own["viewer"],
            "config": config_data(self.config),
            "street": self.street,
            "button": self.button,
            "seats": [seat_data(s) for s in self.seats],
            "board": [str(c) for c in self.board],
            "pots": [p.to_dict() for p in self.pots],
            "total_pot": self.total_pot,
            "current_bet": self.current_bet,
            "actor": self.actor,
            "legal": own["legal"],
            "log": [e.line for e in self.events],
            "result": self.result.to_dict() if self.result is not None else None,
            "no_more_betting": self.no_more_betting,
            "runs_due": self.runs_due,
            "second_board": [str(c) for c in self.second_board],
            "third_board": [str(c) for c in self.third_board],
            "most_runs": self.most_runs,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> View:
        """A view from its JSON (``to_dict``), for clients and bots: everything but the
        events (``events`` is empty: the log is text for people, never read back)."""
        legal, result = data["legal"], data["result"]
        return cls(
            viewer=data["viewer"],
            config=HandConfig.from_dict(data["config"]),
            street=data["street"],
            button=data["button"],
            seats=tuple(SeatView.from_dict(s) for s in data["seats"]),
            board=tuple(Card.parse(c) for c in data["board"]),
            pots=tuple(Pot(p["amount"], tuple(p["eligible"])) for p in data["pots"]),
            total_pot=data["total_pot"],
            current_bet=data["current_bet"],
            actor=data["actor"],
            legal=Legal.from_dict(legal) if legal is not None else None,
            events=(),
            result=Result.from_dict(result) if result is not None else None,
            no_more_betting=data.get("no_more_betting", False),
            runs_due=data.get("runs_due", False),
            second_board=tuple(Card.parse(c) for c in data.get("second_board", ())),
            third_board=tuple(Card.parse(c) for c in data.get("third_board", ())),
            most_runs=data.get("most_runs", 1),
        )
