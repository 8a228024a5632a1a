"""Exact Hold'em tallies over every five-card board, counted by rank class.

``tally_every_board(holes, stub)`` deals all five board cards from ``stub`` and counts, per
hand, the boards on which it is among the best ``k`` hands, for each ``k``. It gives the
same counts as evaluating every board (``hand_values``), with far fewer evaluations:

* A hand can make a flush only in a suit ``s`` where the board holds at least five minus
  its own cards of ``s``, so at least three (a hand holds two cards). Those boards, the
  *flush boards*, are dealt suit by suit as (cards of ``s``) x (other cards): at least three
  of ``s`` on a five-card board leaves no room for another suit, so the blocks are disjoint,
  and inside a block the board's count of ``s`` is fixed, hence which hands flush. The
  other cards give nobody a flush there, so only their ranks matter: they are grouped by
  rank multiset and each group evaluated once.
* On every other board each hand's value depends only on the board's ranks. Those boards
  are counted per rank multiset (the ways the stub deals it, less its flush boards), each
  hand is evaluated once per multiset and the tally weighted by the counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations_with_replacement
from math import comb

import numpy as np
import numpy.typing as npt

from engine.evaluate import tables
from engine.evaluate.batch import FLUSH, combinations_array, rank_table

__all__ = ["tally_every_board"]

RANK_KEYS = np.array(tables.RANK_KEYS, dtype=np.int64)
# comb(n, k) for n = 0..4 cards of a rank in the stub, k = -1..4 drawn (column k + 1).
_COMB = np.array([[0] + [comb(n, k) for k in range(5)] for n in range(5)], dtype=np.int32)


@cache
def _board_rank_multisets() -> tuple[
    npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.int64], npt.NDArray[np.intp]
]:
    """Every multiset of five ranks (no rank five times): per multiset its distinct ranks
    and how many of each (rows of five, padded with rank 0 drawn 0 times), its rank-key sum
    and its value as a five-card hand without a flush, which tells the multisets apart.
    Index-only, so shared read-only by every call."""
    rows = [r for r in combinations_with_replacement(range(13), 5) if r[0] != r[4]]
    ranks = np.zeros((len(rows), 5), dtype=np.intp)
    drawn = np.zeros((len(rows), 5), dtype=np.intp)
    for i, row in enumerate(rows):
        distinct = sorted(set(row))
        ranks[i, : len(distinct)] = distinct
        drawn[i, : len(distinct)] = [row.count(r) for r in distinct]
    keys = (RANK_KEYS[ranks] * drawn).sum(axis=1)
    five_card_values = rank_table(5)[keys].astype(np.intp)
    for array in (ranks, drawn, keys, five_card_values):
        array.setflags(write=False)
    return ranks, drawn, keys, five_card_values


@cache
def _picks(m: int, r: int) -> npt.NDArray[np.intp]:
    """``combinations_array(m, r)`` as indices, kept: the same few shapes come back."""
    picks = combinations_array(m, r).astype(np.intp)
    picks.setflags(write=False)
    return picks


def tally_every_board(
    holes: Sequence[Sequence[int]], stub: npt.NDArray[np.integer]
) -> npt.NDArray[np.int64]:
    """``(hands, hands + 1)`` counts: ``[i, k]`` boards on which hand ``i`` ties for best
    with ``k - 1`` others (``k`` = 1: it wins alone), over every five cards of ``stub``.

    ``holes`` are two-card hands and ``stub`` the cards none of them holds (nor any dead
    card), as card ints.
    """
    stub_cards = [int(c) for c in stub]
    hole_rank_keys = np.array([RANK_KEYS[[c >> 2 for c in hole]].sum() for hole in holes])
    # Per hand and suit: how many of its cards are of that suit, and their rank bits.
    hole_suit_counts = np.zeros((len(holes), 4), dtype=np.int64)
    hole_suit_bits = np.zeros((len(holes), 4), dtype=np.int64)
    for h, hole in enumerate(holes):
        for card in hole:
            hole_suit_counts[h, card & 3] += 1
            hole_suit_bits[h, card & 3] |= 1 << (card >> 2)
    # Fewest cards of each suit on a board that give some hand a flush.
    flush_need = 5 - hole_suit_counts.max(axis=0)
    multiset_ranks, multiset_drawn, keys, five_card_values = _board_rank_multisets()
    rank_only = _deals(multiset_ranks, multiset_drawn, stub_cards)
    values: list[npt.NDArray[np.uint16]] = []
    weights: list[npt.NDArray[np.int64]] = []
    flush_keys: list[npt.NDArray[np.int64]] = []
    for suit in range(4):
        suited = [c for c in stub_cards if c & 3 == suit]
        others = [c for c in stub_cards if c & 3 != suit]
        for on_board in range(int(flush_need[suit]), min(5, len(suited)) + 1):
            block_keys, block_values, block_weights = _flush_block(
                suited,
                others,
                on_board,
                hole_rank_keys,
                hole_suit_bits[:, suit],
                hole_suit_counts[:, suit] + on_board >= 5,
            )
            values.append(block_values)
            weights.append(block_weights)
            flush_keys.append(block_keys)
    if flush_keys:  # these boards are not rank-only: off their multisets' counts
        # counted by five-card value: a dense table lookup names the multiset
        flush_boards = np.bincount(
            rank_table(5)[np.concatenate(flush_keys)],
            np.concatenate(weights),
            minlength=tables.MAX_RANK + 1,
        )
        rank_only -= flush_boards[five_card_values].astype(np.int64)
    kept = np.flatnonzero(rank_only)
    table = rank_table(7)
    values.append(np.vstack([table[keys[kept] + key] for key in hole_rank_keys]))
    weights.append(rank_only[kept])
    return _tally(np.hstack(values), np.concatenate(weights))


def _flush_block(
    suited: list[int],
    others: list[int],
    on_board: int,
    hole_rank_keys: npt.NDArray[np.int64],
    hole_bits: npt.NDArray[np.int64],
    flushes: npt.NDArray[np.bool_],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint16], npt.NDArray[np.int64]]:
    """The boards of ``on_board`` cards of ``suited`` and the rest from ``others``, grouped
    by (suited cards, ranks of the rest): each group's rank-key sum, each hand's value there
    (a row per hand) and how many boards it holds. ``flushes[h]``: hand ``h`` makes the
    suit's flush on these boards; ``hole_bits[h]``: its rank bits in the suit."""
    suited_ranks = np.array([c >> 2 for c in suited], dtype=np.int64)
    other_ranks = np.array([c >> 2 for c in others], dtype=np.int64)
    suited_picks = suited_ranks[_picks(len(suited), on_board)]
    suited_keys = RANK_KEYS[suited_picks].sum(axis=1)
    suited_bits = (np.int64(1) << suited_picks).sum(axis=1)  # distinct ranks: sum is OR
    # The rest holds no flush for anyone, so only its ranks matter: one group per multiset.
    other_keys, other_deals = np.unique(
        RANK_KEYS[other_ranks[_picks(len(others), 5 - on_board)]].sum(axis=1),
        return_counts=True,
    )
    table = rank_table(7)
    rows = []
    for key, bits, flush in zip(hole_rank_keys, hole_bits, flushes, strict=True):
        if flush:  # a flush outranks anything else seven cards can hold with it
            rows.append(np.repeat(FLUSH[suited_bits | bits], len(other_keys)))
        else:
            rows.append(table[((suited_keys + key)[:, None] + other_keys).ravel()])
    board_keys = (suited_keys[:, None] + other_keys).ravel()
    return board_keys, np.vstack(rows), np.tile(other_deals.astype(np.int64), len(suited_keys))


def _deals(
    ranks: npt.NDArray[np.intp], drawn: npt.NDArray[np.intp], stub_cards: list[int]
) -> npt.NDArray[np.int64]:
    """How many five-card boards from ``stub_cards`` hold each rank multiset (rows of
    ``ranks`` drawn ``drawn`` times): the product over its ranks of the ways to draw them."""
    per_rank = np.zeros(13, dtype=np.intp)
    for card in stub_cards:
        per_rank[card >> 2] += 1
    ways = _COMB[per_rank[ranks], drawn + 1]  # _COMB's column for drawing k is k + 1
    deals = ways[:, 0].astype(np.int64)
    for column in range(1, 5):
        deals *= ways[:, column]
    return deals


def _tally(
    values: npt.NDArray[np.integer], weights: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """``tally_every_board``'s counts for one value per hand (rows) and board (columns),
    each board counted ``weights`` times."""
    hands = len(values)
    best = values[0].copy()
    for row in values[1:]:  # row by row: faster than a reduction across rows
        np.maximum(best, row, out=best)
    is_best = values == best
    winners = is_best.sum(axis=0, dtype=np.intp)
    counts = np.zeros((hands, hands + 1), dtype=np.int64)
    for h in range(hands):
        # boards where hand h is not best land in column 0, then dropped
        counted = np.bincount(winners * is_best[h], weights, minlength=hands + 1)
        counts[h, 1:] = counted[1:]  # weights are whole and far below 2**53: exact
    return counts
