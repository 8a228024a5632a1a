"""Run-outs: the later boards of a hand run twice or three times and the rabbit hunt's cards,
dealt from the hand's deck after the cards already used (``engine.hand.machine.Hand`` asks for
the runs).

Once nobody can bet any more with two or more hands live (``no_more_betting``), every live
hand is face up in every view. With ``run_it_twice`` and the board not complete, the hand then
waits for ``run_once``/``run_twice``/``run_thrice``; run two or three times, the rest of the
board is dealt again for each later run, from the same deck after the runs before it (each
street burning first, as for the first run), and each pot is split between the runs (its odd
chips one at a time to the runs from the first), each part awarded on its own board
(``engine.hand.showdown``).
"""

from __future__ import annotations

from engine.cards import Card
from engine.errors import IllegalAction
from engine.hand.state import BOARD_SIZES, HandState
from engine.types import RUN_BOARD_EVENTS, Event

__all__ = ["Runouts"]


def _board_streets(cards: int) -> tuple[int, ...]:
    """The streets (0 preflop .. 3 river) a board of this many cards has been dealt for."""
    return tuple(s for s in range(4) if sum(BOARD_SIZES[: s + 1]) <= cards)


class Runouts(HandState):
    """The later runs' boards and the rabbit hunt."""

    def _deal_later_runs(self) -> None:
        """Each run after the first (``_runs``), in turn: the streets after the one the runs
        part from, burning first as for the first run, from the same deck after the cards
        of the runs before it."""
        for run in range(2, (self._runs or 1) + 1):
            board = list(self.board[: sum(BOARD_SIZES[: self._run_from + 1])])
            pos = self._next_card
            for street in range(self._run_from + 1, 4):
                size = BOARD_SIZES[street]
                cards = tuple(self._deck[pos + 1 : pos + 1 + size])
                pos += 1 + size
                board.extend(cards)
                self.events.append(Event(RUN_BOARD_EVENTS[run], None, 0, cards))
            self._next_card = pos
            if run == 2:
                self.second_board = board
            else:
                self.third_board = board

    def rabbit_hunt(self) -> tuple[Card, ...]:
        """The board cards that would have come had the hand not ended before the river,
        dealt from this hand's deck as the dealer would have (burning before each street);
        empty when the board is complete. Changes nothing; only once the hand is over."""
        if not self._over:
            raise IllegalAction("no rabbit hunt while the hand is being played")
        if self._stud:
            raise IllegalAction("no rabbit hunt in stud: it has no board")
        if self._draw:  # the stub's cards are nobody's to see
            raise IllegalAction("no rabbit hunt in a draw game: it has no board")
        if self.config.double_board:  # which cards were whose board would be a guess
            raise IllegalAction("no rabbit hunt on a double board")
        cards: list[Card] = []
        pos = self._next_card
        for street in range(len(_board_streets(len(self.board))), 4):
            size = BOARD_SIZES[street]
            cards.extend(self._deck[pos + 1 : pos + 1 + size])
            pos += 1 + size
        return tuple(cards)
