"""Equity: how often each hand wins, ties, and its share of the pot, over all boards.

``equity(hands, board=(), dead=())`` deals the missing board cards from the cards nobody
holds. When the boards can be enumerated (up to ``max_boards``; heads-up Hold'em preflop is
1,712,304 boards) the answer is exact; otherwise, or when ``samples`` is given, it is a
Monte Carlo estimate whose standard error is reported per hand. Boards are evaluated in
NumPy batches (``engine.evaluate.batch``) with the same tables as ``evaluate``; an exact
Hold'em run from no board (the all-in preflop) is counted by rank class instead
(``engine.evaluate.boards``), its pot shares summed exactly before one rounding.

Hands of two cards are Hold'em; hands of four (to six) cards are Omaha: exactly two hole
cards and three board cards. All hands in one call are the same game.

    >>> from engine.equity import equity
    >>> result = equity(["AhAs", "KcKd"])
    >>> result.exact, result.boards, round(result.equity[0], 4)
    (True, 1712304, 0.8126)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from math import comb, lcm, sqrt

import numpy as np
import numpy.typing as npt

from engine.cards import ALL_CARDS, Card, format_cards, parse_cards
from engine.errors import CardError
from engine.evaluate.batch import (
    FLUSH,
    FLUSH_BITS,
    KEYS,
    RANK_BITS,
    combinations_array,
    hand_values,
    rank_table,
)
from engine.evaluate.boards import tally_every_board

__all__ = ["EquityResult", "equity"]

DEFAULT_MAX_BOARDS = 2_000_000
DEFAULT_SAMPLES = 200_000
# An Omaha board costs about 60 five-card evaluations per hand instead of one.
OMAHA_COST = 30


@dataclass(frozen=True)
class EquityResult:
    """Per-hand results, in the order the hands were given.

    ``wins[i]``/``ties[i]``: boards on which hand ``i`` won alone / tied for best;
    ``shares[i]``: pots won, a tie between ``k`` hands counting ``1/k``. For a Monte Carlo
    result ``stderr[i]`` is the standard error of ``equity[i]``; exact results have 0.0.
    """

    hands: tuple[tuple[Card, ...], ...]
    board: tuple[Card, ...]
    boards: int
    exact: bool
    wins: tuple[int, ...]
    ties: tuple[int, ...]
    shares: tuple[float, ...]
    stderr: tuple[float, ...]

    @property
    def win(self) -> tuple[float, ...]:
        return tuple(w / self.boards for w in self.wins)

    @property
    def tie(self) -> tuple[float, ...]:
        return tuple(t / self.boards for t in self.ties)

    @property
    def equity(self) -> tuple[float, ...]:
        return tuple(s / self.boards for s in self.shares)

    def __str__(self) -> str:
        how = (
            f"exact, {self.boards:,} boards"
            if self.exact
            else f"Monte Carlo, {self.boards:,} boards, ± is one standard error"
        )
        lines = [f"{'hand':<14} {'equity':>8} {'win':>8} {'tie':>8}"]
        for i, hand in enumerate(self.hands):
            error = f" ± {100 * self.stderr[i]:.2f}%" if not self.exact else ""
            lines.append(
                f"{format_cards(hand):<14} {100 * self.equity[i]:7.2f}% "
                f"{100 * self.win[i]:7.2f}% {100 * self.tie[i]:7.2f}%{error}"
            )
        board = format_cards(self.board) or "(none)"
        lines.append(f"board {board}; {how}")
        return "\n".join(lines)


def _cards(value: str | Iterable[int], what: str) -> tuple[Card, ...]:
    if isinstance(value, str):
        return tuple(parse_cards(value))
    try:
        return tuple(Card(c) for c in value)
    except TypeError:
        raise CardError(f"{what}: not cards: {value!r}") from None


def equity(
    hands: Sequence[str | Iterable[int]],
    board: str | Iterable[int] = (),
    dead: str | Iterable[int] = (),
    *,
    samples: int | None = None,
    rng: np.random.Generator | int | None = None,
    max_boards: int = DEFAULT_MAX_BOARDS,
) -> EquityResult:
    """Win, tie and pot share of each hand; see the module docstring.

    ``hands``: two or more hands, each text (``"AhKh"``) or card ints; ``board``: 0 to 5
    cards already dealt; ``dead``: cards known to be out of play. ``samples`` forces a Monte
    Carlo run of that many boards; ``rng`` is a ``numpy.random.Generator`` or a seed for it.
    """
    hands_ = tuple(_cards(hand, "hand") for hand in hands)
    board_ = _cards(board, "board")
    dead_ = _cards(dead, "dead")
    if len(hands_) < 2:
        raise CardError("equity needs at least two hands")
    size = len(hands_[0])
    if size not in (2, 4, 5, 6) or any(len(hand) != size for hand in hands_):
        raise CardError(
            "all hands must have 2 cards (Hold'em) or all 4 to 6 (Omaha), got "
            + ", ".join(format_cards(hand) for hand in hands_)
        )
    if len(board_) > 5:
        raise CardError(f"a board has at most 5 cards, got {format_cards(board_)}")
    used = [card for hand in hands_ for card in hand] + list(board_) + list(dead_)
    seen: set[int] = set()
    for card in used:
        if card in seen:
            raise CardError(f"card used twice: {card}")
        seen.add(card)
    stub = np.array([c for c in ALL_CARDS if c not in seen], dtype=np.int8)
    missing = 5 - len(board_)
    if len(stub) < missing:
        raise CardError("not enough cards left to complete the board")
    omaha = size > 2
    count = comb(len(stub), missing)
    limit = max_boards // OMAHA_COST if omaha else max_boards
    picks: npt.NDArray[np.integer]
    if samples is None and count <= limit and not omaha and missing == 5:
        # the all-in preflop: counted by rank class instead of board by board
        return _tallied(hands_, board_, count, tally_every_board(hands_, stub))
    if samples is None and count <= limit:
        picks = _board_picks(len(stub), missing)
        exact = True
    else:
        samples = DEFAULT_SAMPLES if samples is None else int(samples)
        if samples < 1:
            raise ValueError("samples must be at least 1")
        generator = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
        if missing:
            # The ``missing`` smallest of uniform keys: a uniform subset per sample.
            keys = generator.random((samples, len(stub)))
            picks = keys.argpartition(missing - 1, axis=1)[:, :missing]
        else:
            picks = np.zeros((samples, 0), dtype=np.int64)
        exact = False
    boards = np.hstack([np.tile(np.array(board_, dtype=np.int8), (len(picks), 1)), stub[picks]])
    if omaha:
        values = np.vstack([_omaha_values(hand, boards) for hand in hands_])
    else:
        # The dealt cards' keys once, then each drawn column's keys from the stub's.
        board_keys = np.full(len(picks), int(KEYS[list(board_)].sum()), dtype=np.int64)
        stub_keys = KEYS[stub]
        for column in range(missing):
            board_keys += stub_keys[picks[:, column]]
        values = np.vstack([hand_values(hand, board_keys, boards) for hand in hands_])
    if len(hands_) == 2:  # the usual all-in: two counts instead of the general tally
        return _heads_up(hands_, board_, values, exact)
    best = values.max(axis=0)
    is_best = values == best
    winners = is_best.sum(axis=0)
    share = is_best / winners
    wins = tuple(int(n) for n in (is_best & (winners == 1)).sum(axis=1))
    ties = tuple(int(n) for n in (is_best & (winners > 1)).sum(axis=1))
    shares = tuple(float(s) for s in share.sum(axis=1))
    if exact:
        stderr = (0.0,) * len(hands_)
    else:
        stderr = tuple(float(s) / sqrt(len(picks)) for s in share.std(axis=1))
    return EquityResult(hands_, board_, len(picks), exact, wins, ties, shares, stderr)


def _heads_up(
    hands: tuple[tuple[Card, ...], ...],
    board: tuple[Card, ...],
    values: npt.NDArray[np.integer],
    exact: bool,
) -> EquityResult:
    """``equity``'s result for two hands from their values on each board (a tie shares the
    pot half and half), as the general tally gives it."""
    boards = values.shape[1]
    first, second = values
    wins = (int(np.count_nonzero(first > second)), int(np.count_nonzero(second > first)))
    tied = boards - sum(wins)
    shares = (wins[0] + tied / 2, wins[1] + tied / 2)
    stderr: tuple[float, ...] = (0.0, 0.0)
    if not exact:
        # a hand's share per board is 1, 1/2 or 0: its spread from the counts
        stderr = tuple(
            sqrt(max(0.0, (won + tied / 4) / boards - (share / boards) ** 2) / boards)
            for won, share in zip(wins, shares, strict=True)
        )
    return EquityResult(hands, board, boards, exact, wins, (tied, tied), shares, stderr)


def _tallied(
    hands: tuple[tuple[Card, ...], ...],
    board: tuple[Card, ...],
    boards: int,
    counts: npt.NDArray[np.int64],
) -> EquityResult:
    """``equity``'s exact result from ``tally_every_board``'s counts (hand ``i`` tied for
    best with ``k - 1`` others on ``counts[i, k]`` boards)."""
    wins = tuple(int(row[1]) for row in counts)
    ties = tuple(int(row[2:].sum()) for row in counts)
    if len(hands) == 2:  # as ``_heads_up`` gives it
        shares = tuple(won + ties[0] / 2 for won in wins)
    else:
        # a k-way tie is 1/k of a pot: summed as whole 1/lcm parts, then divided once
        parts = lcm(*range(1, len(hands) + 1))
        shares = tuple(
            sum(int(n) * (parts // k) for k, n in enumerate(row) if k) / parts for row in counts
        )
    return EquityResult(hands, board, boards, True, wins, ties, shares, (0.0,) * len(hands))


@cache
def _board_picks(stub: int, missing: int) -> npt.NDArray[np.int8]:
    """Every way to draw ``missing`` of ``stub`` cards (``combinations_array``), kept: the
    same few shapes come back at every all-in (48 cards and 5 to draw: any heads-up Hold'em
    hand preflop). Read-only, as it is shared."""
    picks = np.asfortranarray(combinations_array(stub, missing))  # columns read one by one
    picks.setflags(write=False)
    return picks


def _omaha_values(hole: Sequence[int], boards: np.ndarray) -> np.ndarray:
    """Best Omaha value of ``hole`` on each five-card board row."""
    table = rank_table(5)
    best = np.zeros(len(boards), dtype=np.uint16)
    threes = []
    for a, b, c in combinations(range(5), 3):
        cols = boards[:, a], boards[:, b], boards[:, c]
        threes.append(
            (
                KEYS[cols[0]] + KEYS[cols[1]] + KEYS[cols[2]],
                RANK_BITS[cols[0]] | RANK_BITS[cols[1]] | RANK_BITS[cols[2]],
            )
        )
    for a, b in combinations([int(c) for c in hole], 2):
        pair_key = int(KEYS[a] + KEYS[b])
        pair_bits = int(RANK_BITS[a] | RANK_BITS[b])
        for three_key, three_bits in threes:
            key = three_key + pair_key
            value = np.where(key & FLUSH_BITS, FLUSH[three_bits | pair_bits], table[key >> 24])
            np.maximum(best, value, out=best)
    return best
