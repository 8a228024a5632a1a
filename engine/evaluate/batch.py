"""NumPy batch evaluation: the same values as ``evaluate``, for millions of hands.

``evaluate_batch(cards)`` takes an integer array of shape ``(n, k)``, ``k`` = 5, 6 or 7
(card ints, as in ``engine.cards``) and returns ``n`` hand values (``uint16``, equal to
``int(evaluate(row))``). It sums the same additive card keys column by column, looks the
rank part up in a dense table (built on first use, 13 to 16 MB per hand size) and fixes the
few flush rows with the 13-bit flush table. Work is done in chunks that stay in cache.

Also here: ``combinations_array`` (every ``r``-subset of ``0..m-1`` as rows, for exact
enumeration of boards) and ``hand_values`` (one hand's values against many boards).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from math import comb

import numpy as np
import numpy.typing as npt

from engine.errors import CardError
from engine.evaluate import tables

__all__ = ["combinations_array", "evaluate_batch", "hand_values"]

KEYS = np.array(tables.KEYS, dtype=np.int64)
FLUSH_BITS = tables.FLUSH_BITS
FLUSH = np.array(tables.FLUSH, dtype=np.uint16)
RANK_BITS = np.array([1 << (c >> 2) for c in range(52)], dtype=np.int64)
SUITS = np.array([c & 3 for c in range(52)], dtype=np.int64)
CHUNK = 1 << 15


@cache
def rank_table(size: int) -> np.ndarray:
    """Dense ``uint16`` array: rank-key sum of ``size`` non-flush cards -> hand value."""
    table = tables.NONFLUSH[size]
    keys = np.fromiter(table.keys(), np.int64, len(table))
    dense = np.zeros(int(keys.max()) + 1, dtype=np.uint16)
    dense[keys] = np.fromiter(table.values(), np.uint16, len(table))
    return dense


def _flush_suit(key: np.ndarray) -> np.ndarray:
    """For keys known to hold a flush: its suit (0..3)."""
    suit = np.zeros(len(key), dtype=np.int64)
    for s in (1, 2, 3):
        suit[(key & (32 << (6 * s))) != 0] = s
    return suit


def _flush_values(cards: np.ndarray, key: np.ndarray) -> np.ndarray:
    """Values of rows that hold a flush: the flush table on that suit's rank mask."""
    suit = _flush_suit(key)
    mask = np.zeros(len(key), dtype=np.int64)
    for j in range(cards.shape[1]):
        column = cards[:, j]
        mask += np.where(SUITS[column] == suit, RANK_BITS[column], 0)
    return FLUSH[mask]


def evaluate_batch(cards: npt.ArrayLike) -> npt.NDArray[np.uint16]:
    """Values of ``n`` hands of 5, 6 or 7 cards given as an ``(n, k)`` integer array."""
    cards = np.asarray(cards)
    if cards.ndim != 2 or cards.shape[1] not in (5, 6, 7) or cards.dtype.kind not in "iu":
        raise CardError(
            f"evaluate_batch needs an (n, 5..7) integer array, got shape "
            f"{cards.shape} of {cards.dtype}"
        )
    if cards.size and (cards.min() < 0 or cards.max() > 51):
        raise CardError("evaluate_batch: card numbers must be 0..51")
    table = rank_table(cards.shape[1])
    out = np.empty(len(cards), dtype=np.uint16)
    for start in range(0, len(cards), CHUNK):
        chunk = cards[start : start + CHUNK]
        key = KEYS[chunk[:, 0]]
        for j in range(1, chunk.shape[1]):
            key += KEYS[chunk[:, j]]
        rank_part = key >> 24
        if rank_part.max(initial=0) >= len(table):
            raise CardError("evaluate_batch: a row is not distinct cards")
        values = table[rank_part]
        flush = np.flatnonzero(key & FLUSH_BITS)
        if len(flush):
            values[flush] = _flush_values(chunk[flush], key[flush])
        out[start : start + len(chunk)] = values
    if len(out) and not out.all():
        raise CardError("evaluate_batch: a row is not distinct cards")
    return out


def combinations_array(m: int, r: int) -> np.ndarray:
    """Every ``r``-subset of ``range(m)`` as a row, in lexicographic order (``int8``)."""
    if not 0 <= r <= m:
        return np.zeros((0, r), dtype=np.int8)
    rows = (
        np.arange(m - r + 1, dtype=np.int8).reshape(-1, 1) if r else np.zeros((1, 0), dtype=np.int8)
    )
    for level in range(1, r):
        last = rows[:, -1].astype(np.int64)
        # Children of a row ending in i: i+1 .. m-r+level (room left for later columns).
        counts = (m - r + level) - last
        parent = np.repeat(np.arange(len(rows)), counts)
        starts = np.cumsum(counts) - counts
        offset = np.arange(len(parent)) - starts[parent]
        nxt = (last[parent] + 1 + offset).astype(np.int8)
        rows = np.hstack([rows[parent], nxt.reshape(-1, 1)])
    assert len(rows) == comb(m, r)
    return rows


def hand_values(
    hole: Iterable[int], board_keys: npt.NDArray[np.int64], board_cards: npt.NDArray[np.integer]
) -> npt.NDArray[np.uint16]:
    """Values of ``hole`` (2 cards) + each board (5 cards), for exact or sampled equity.

    ``board_keys`` is the per-board sum of ``KEYS`` and ``board_cards`` the boards as rows
    (used only for the rows that hold a flush).
    """
    table = rank_table(7)
    cards = [int(c) for c in hole]
    key = board_keys + int(KEYS[cards].sum())
    values: npt.NDArray[np.uint16] = table[key >> 24]
    flush = np.flatnonzero(key & FLUSH_BITS)
    if len(flush):
        rows = np.hstack(
            [board_cards[flush], np.tile(np.array(cards, dtype=board_cards.dtype), (len(flush), 1))]
        )
        values[flush] = _flush_values(rows, key[flush])
    return values
