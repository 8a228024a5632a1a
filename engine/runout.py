"""All-in run-outs: each live hand's chance at every street once nobody can bet any more, and
a finished hand's view cut to the street a run-out shows. (The later runs' boards and the
rabbit hunt are dealt by the hand itself: ``engine.hand.dealing``.)

``runout_odds(hand)`` reads a ``Hand`` (changing nothing) and gives, for the board as it
stood when no more betting was possible and after each street dealt from there to the
river, every live hand's chance of winning alone and of tying, from ``engine.equity`` over
every board still to come (exact unless the boards are too many: Omaha preflop, see
``EquityResult.exact``). The cards of folded hands are not counted out, as nobody at the
table has seen them. A board run twice is read through ``board``.

Omaha hi-lo: ``win`` is the chance of scooping (the whole pot alone), ``tie`` of taking part
of it, ``share`` the pot expected; the boards are enumerated one by one in Python (exact up
to ``HILO_MAX_BOARDS``, from the flop always; preflop a seeded sample). Short deck: its own
deck and ranks (``engine.evaluate.shortdeck``: a flush beats a full house), boards one by one
(exact up to ``DECK_MAX_BOARDS``, from the flop always; preflop a seeded sample).

    >>> from engine.hand import Hand, HandConfig
    >>> hand = Hand(HandConfig(), [50, 50], 0, range(52))
    >>> _ = hand.all_in(), hand.call()
    >>> [odds.street for odds in runout_odds(hand)]
    ['preflop', 'flop', 'turn', 'river']

The site deals the whole run-out in the action that ends the betting but shows it one street
at a time: ``runout_frame`` turns the view of the finished hand (already filtered for its
viewer: every live hand is face up once nobody can bet) into the view of the street on screen.
It only hides, so it cannot show a viewer anything the view did not give them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from math import comb
from typing import Any

from engine.cards import ALL_CARDS, Card
from engine.equity import DEFAULT_MAX_BOARDS, equity
from engine.errors import PokerError
from engine.evaluate import evaluate_omaha, evaluate_omaha_low8
from engine.hand import Hand
from engine.types import EventKind, HandConfig
from engine.view import View

__all__ = [
    "StreetOdds",
    "cards_odds",
    "runout_frame",
    "runout_odds",
    "runout_streets",
    "street_odds",
]

_STREET_OF_SIZE = {0: "preflop", 3: "flop", 4: "turn", 5: "river"}
#: Omaha hi-lo boards enumerated at most (a flop leaves about a thousand); more are sampled.
HILO_MAX_BOARDS = 20_000
#: Short-deck boards enumerated at most (a flop leaves a few hundred); more are sampled.
DECK_MAX_BOARDS = 20_000
#: The events of the end of a hand (after the last board card).
_SHOWDOWN = frozenset({EventKind.SHOW, EventKind.MUCK, EventKind.WIN})
#: The events dealing a later run's board (after the first run's).
_LATER_RUNS = frozenset({EventKind.DEAL_SECOND_BOARD, EventKind.DEAL_THIRD_BOARD})


@dataclass(frozen=True, slots=True)
class StreetOdds:
    """The odds with ``board`` dealt: ``win[i]``/``tie[i]`` for live seat ``seats[i]``
    (hi-lo: scoop and part of the pot), ``share[i]`` its expected part of the pot."""

    street: str
    board: tuple[Card, ...]
    seats: tuple[int, ...]
    win: tuple[float, ...]
    tie: tuple[float, ...]
    share: tuple[float, ...]
    exact: bool


def runout_streets(hand: Hand, board: Sequence[Card] | None = None) -> list[tuple[str, int]]:
    """The streets ``runout_odds`` gives, as (street, board cards dealt), without computing
    any odds: cheap enough for the action that ends the betting (the odds themselves are
    not). Empty when the hand had no run-out."""
    start = hand.runout_start
    if start is None:
        return []
    if hand.config.variant.structure != "board":
        raise PokerError(f"a run-out is a board game's, not {hand.config.game}'s")
    dealt = len(hand.board if board is None else board)
    before = sum(len(e.cards) for e in hand.events[:start] if e.kind is EventKind.DEAL_BOARD)
    return [(_STREET_OF_SIZE[size], size) for size in (0, 3, 4, 5) if before <= size <= dealt]


def runout_odds(
    hand: Hand, board: Sequence[Card] | None = None, *, max_boards: int = DEFAULT_MAX_BOARDS
) -> list[StreetOdds]:
    """Street by street from the moment no more betting was possible (``Hand.runout_start``)
    to the river; ``board``: the run to follow (default ``hand.board``; a board run more than
    once: each of ``hand.boards``). Empty when the hand had no run-out. The streets are
    ``runout_streets``'s (a board game's)."""
    run = list(hand.board if board is None else board)
    seats = tuple(s for s in range(hand.seats) if not hand.folded[s])
    # a double board's other board is dealt street by street with this one: out of play
    others = [b for b in hand.boards if b != run] if hand.config.double_board else []
    return [
        street_odds(
            hand,
            street,
            tuple(run[:size]),
            seats,
            max_boards=max_boards,
            dead=[card for other in others for card in other[:size]],
        )
        for street, size in runout_streets(hand, run)
    ]


def street_odds(
    hand: Hand,
    street: str,
    board: tuple[Card, ...],
    seats: Sequence[int],
    *,
    max_boards: int = DEFAULT_MAX_BOARDS,
    dead: Sequence[Card] = (),
) -> StreetOdds:
    """The odds of the hands of ``seats`` (live seats of a board game) with ``board`` dealt,
    over every board still to come from the cards not in play (``dead``: a double board's
    other board), by the hand's game: Hold'em and Omaha by
    ``engine.equity``, hi-lo and short deck as the module docstring says. The run-outs' odds
    of every live hand, and a side pot's of the hands that can win it
    (``engine.allin_ev``)."""
    seats = tuple(seats)
    holes = [tuple(hand.hole[s]) for s in seats]
    return cards_odds(hand.config, street, board, seats, holes, max_boards=max_boards, dead=dead)


def cards_odds(
    config: HandConfig,
    street: str,
    board: tuple[Card, ...],
    seats: Sequence[int],
    holes: Sequence[Sequence[Card]],
    *,
    max_boards: int = DEFAULT_MAX_BOARDS,
    seed: int | None = None,
    dead: Sequence[Card] = (),
) -> StreetOdds:
    """``street_odds`` from the cards alone: the hands ``holes`` of ``seats`` in a board
    game of ``config``, with ``board`` dealt and ``dead`` out of play. Reads nothing but the
    cards given, so a figure made from the cards one viewer saw depends on nothing else (the
    replayer's odds).
    ``seed``: the seed of ``engine.equity``'s sample where it samples (Omaha preflop), so
    the same cards give the same figure every time."""
    seats = tuple(seats)
    hands = [[int(c) for c in hole] for hole in holes]
    known = [int(c) for c in board]
    out = [int(c) for c in dead]
    if config.is_hilo:
        return _hilo_odds(street, board, seats, hands, (known, out))
    if config.variant.deck_size != len(ALL_CARDS):
        return _deck_odds(config, street, board, seats, hands, (known, out))
    result = equity(hands, known, out, max_boards=max_boards, rng=seed)
    return StreetOdds(street, board, seats, result.win, result.tie, result.equity, result.exact)


def _boards_to_come(
    stub: list[int], missing: int, limit: int
) -> tuple[Sequence[tuple[int, ...]], bool]:
    """Every way to deal the ``missing`` board cards from ``stub`` and True (exact), or past
    ``limit`` boards a seeded sample of ``limit`` and False."""
    if comb(len(stub), missing) <= limit:
        return list(combinations(stub, missing)), True
    rng = random.Random(0)  # the same sample each time: the odds do not flicker
    return [tuple(rng.sample(stub, missing)) for _ in range(limit)], False


def _deck_odds(
    config: HandConfig,
    street: str,
    board: tuple[Card, ...],
    seats: tuple[int, ...],
    holes: list[list[int]],
    cards: tuple[list[int], list[int]],
) -> StreetOdds:
    """A high-hand game of its own deck (short deck) over every board still to come from
    that deck, by the game's own ranks (a seeded sample past ``DECK_MAX_BOARDS``: its ranks
    are evaluated one hand at a time). ``cards``: the board's, and those out of play."""
    variant = config.variant
    known, out = cards
    used = {c for hole in holes for c in hole} | set(known) | set(out)
    stub = sorted(c for c in variant.deck if c not in used)
    boards, exact = _boards_to_come(stub, 5 - len(known), DECK_MAX_BOARDS)
    players = len(holes)
    wins, ties, shares = [0] * players, [0] * players, [0.0] * players
    for rest in boards:
        full = [*known, *rest]
        values = [variant.strength(hole, full) for hole in holes]
        top = max(values)
        winners = [i for i in range(players) if values[i] == top]
        for i in winners:
            shares[i] += 1 / len(winners)
            if len(winners) == 1:
                wins[i] += 1
            else:
                ties[i] += 1
    return _counted_odds(street, board, seats, (wins, ties, shares), len(boards), exact)


def _hilo_odds(
    street: str,
    board: tuple[Card, ...],
    seats: tuple[int, ...],
    holes: list[list[int]],
    cards: tuple[list[int], list[int]],
) -> StreetOdds:
    """Omaha hi-lo odds over every board still to come (a seeded sample past
    ``HILO_MAX_BOARDS``): each board's pot halved, the high half whole when nobody has a low;
    ties split their half. ``cards``: the board's, and those out of play."""
    known, out = cards
    used = {c for hole in holes for c in hole} | set(known) | set(out)
    stub = [c for c in range(len(ALL_CARDS)) if c not in used]
    boards, exact = _boards_to_come(stub, 5 - len(known), HILO_MAX_BOARDS)
    players = len(holes)
    scoops, parts, shares = [0] * players, [0] * players, [0.0] * players
    for rest in boards:
        full = known + list(rest)
        highs = [evaluate_omaha(hole, full) for hole in holes]
        lows = [evaluate_omaha_low8(hole, full) for hole in holes]
        top = max(highs)
        high_winners = [i for i in range(players) if highs[i] == top]
        qualified = [low for low in lows if low is not None]
        halves = [(1.0 if not qualified else 0.5, high_winners)]
        if qualified:
            best = max(qualified)
            halves.append((0.5, [i for i in range(players) if lows[i] == best]))
        got = [0.0] * players
        for part, winners in halves:
            for i in winners:
                got[i] += part / len(winners)
        for i in range(players):
            shares[i] += got[i]
            if got[i] == 1.0:
                scoops[i] += 1
            elif got[i]:
                parts[i] += 1
    return _counted_odds(street, board, seats, (scoops, parts, shares), len(boards), exact)


def _counted_odds(
    street: str,
    board: tuple[Card, ...],
    seats: tuple[int, ...],
    counts: tuple[Sequence[float], Sequence[float], Sequence[float]],
    total: int,
    exact: bool,
) -> StreetOdds:
    """The odds of a street from what was counted over ``total`` boards: per seat the boards
    won whole, the boards won in part (a tie, or a hi-lo half) and the pots' shares."""
    won, part, shares = counts
    return StreetOdds(
        street,
        board,
        seats,
        tuple(w / total for w in won),
        tuple(p / total for p in part),
        tuple(s / total for s in shares),
        exact,
    )


def runout_frame(view: View, runout: Mapping[str, Any]) -> View:
    """``view`` (a finished hand) as it stands with ``runout["shown"]`` streets dealt after
    the first: the board cut to that street, no result, the chips won not yet in the stacks,
    the log up to that street. ``runout``: a run-out as the site stores it, each run's
    streets (``runout_streets``'s, as ``{"street", "cards"}``) under ``"runs"``."""
    step = runout["runs"][0][runout["shown"]]
    cards = step["cards"]
    won = [0] * len(view.seats)
    if view.result is not None:
        for award in view.result.awards:
            for seat, amount in zip(award.winners, award.amounts, strict=True):
                won[seat] += amount
    events = []
    board = 0
    for event in view.events:
        if event.kind is EventKind.DEAL_BOARD:
            board += len(event.cards)
            if board > cards:
                break
        elif event.kind in _LATER_RUNS or event.kind in _SHOWDOWN:
            break
        events.append(event)
    return replace(
        view,
        street=step["street"],
        # (a seat that won nothing is the view's own: most of them)
        seats=tuple(
            replace(seat, stack=seat.stack - won[seat.seat]) if won[seat.seat] else seat
            for seat in view.seats
        ),
        board=view.board[:cards],
        second_board=view.second_board[:cards],
        third_board=view.third_board[:cards],
        events=tuple(events),
        result=None,
    )
