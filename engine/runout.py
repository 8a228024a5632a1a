"""All-in run-outs: each live hand's chance at every street once nobody can bet any more.

``runout_odds(hand)`` reads a ``Hand`` (changing nothing) and gives, for the board as it
stood when no more betting was possible and after each street dealt from there to the
river, every live hand's chance of winning alone and of tying, from ``engine.equity`` over
every board still to come (exact unless the boards are too many: Omaha preflop, see
``EquityResult.exact``). The cards of folded hands are not counted out, as nobody at the
table has seen them. Hold'em and Omaha high; a board run twice is read through ``board``.

    >>> from engine.hand import Hand, HandConfig
    >>> hand = Hand(HandConfig(), [50, 50], 0, range(52))
    >>> _ = hand.all_in(), hand.call()
    >>> [odds.street for odds in runout_odds(hand)]
    ['preflop', 'flop', 'turn', 'river']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card
from engine.equity import DEFAULT_MAX_BOARDS, equity
from engine.errors import PokerError
from engine.hand import Hand
from engine.types import EventKind

__all__ = ["StreetOdds", "runout_odds"]

_STREET_OF_SIZE = {0: "preflop", 3: "flop", 4: "turn", 5: "river"}


@dataclass(frozen=True, slots=True)
class StreetOdds:
    """The odds with ``board`` dealt: ``win[i]``/``tie[i]`` for live seat ``seats[i]``."""

    street: str
    board: tuple[Card, ...]
    seats: tuple[int, ...]
    win: tuple[float, ...]
    tie: tuple[float, ...]
    exact: bool


def runout_odds(
    hand: Hand, board: Sequence[Card] | None = None, *, max_boards: int = DEFAULT_MAX_BOARDS
) -> list[StreetOdds]:
    """Street by street from the moment no more betting was possible (``Hand.runout_start``)
    to the river; ``board``: the run to follow (default ``hand.board``; a board run twice:
    ``hand.second_board``). Empty when the hand had no run-out."""
    start = hand.runout_start
    if start is None:
        return []
    if hand.config.is_stud or hand.config.is_hilo:
        raise PokerError(f"run-out odds are for hold'em and Omaha high, not {hand.config.game}")
    run = list(hand.board if board is None else board)
    before = sum(len(e.cards) for e in hand.events[:start] if e.kind is EventKind.DEAL_BOARD)
    seats = tuple(s for s in range(hand.seats) if not hand.folded[s])
    holes = [[int(c) for c in hand.hole[s]] for s in seats]
    odds = []
    for size in (0, 3, 4, 5):
        if size < before or size > len(run):
            continue
        result = equity(holes, [int(c) for c in run[:size]], max_boards=max_boards)
        odds.append(
            StreetOdds(
                _STREET_OF_SIZE[size],
                tuple(run[:size]),
                seats,
                result.win,
                result.tie,
                result.exact,
            )
        )
    return odds
