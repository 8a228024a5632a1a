"""Odds for looking back at a hand: one hand's equity against random hands, and pot odds.

The replayer (``tables.selectors.replay_odds``) shows, at every step of a finished hand,
the equity of the hands shown at its end (``engine.runout.cards_odds``, from those cards
alone) and, where only the viewer's own hand is known, this module's
``random_hands_odds``: the viewer's chance against as many random hands as opponents are
still in, each dealt from the cards the viewer cannot see, with the board completed at
random too. That is a seeded Monte Carlo sample (``RANDOM_SAMPLES`` deals, the same seed
each time: a page shows the same figure on every load); the cards it deals from are only the
ones not given, so nothing the viewer did not see can move it. Hold'em only: an Omaha
opponent's best hand is 60 evaluations per deal, too slow for a page.

``stud_odds(config, hands, dead)``: the stud games' (stud, stud hi-lo, razz) chances of
known hands, each dealt the rest of its seven cards from the cards not seen: every deal
counted where they are few (``STUD_MAX_DEALS``: from sixth street heads-up), else a seeded
sample of that many; by the game's own ranks (razz: the best low; hi-lo: each pot halved
with the best eight-or-better low, the high half whole when nobody has one).

``pot_odds(to_call, pot)``: what a call risks against what it can win.

    >>> from engine.cards import parse_cards
    >>> odds = random_hands_odds(parse_cards("AhAs"), (), 1)
    >>> odds.exact, odds.deals, round(odds.share, 2)
    (False, 20000, 0.85)
    >>> pot_odds(50, 150)
    PotOdds(to_call=50, pot=150, percent=25.0, ratio=3.0)
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb, prod, sqrt

import numpy as np

from engine.cards import ALL_CARDS, Card
from engine.errors import CardError
from engine.evaluate.batch import evaluate_batch
from engine.types import HandConfig
from engine.variants.base import Evaluator, LowEvaluator

__all__ = [
    "RANDOM_SAMPLES",
    "STUD_MAX_DEALS",
    "PotOdds",
    "RandomHandsOdds",
    "pot_odds",
    "random_hands_odds",
    "stud_odds",
]

#: Deals sampled per figure: a standard error under 0.4 percentage points.
RANDOM_SAMPLES = 20_000
#: The sample's seed: fixed, so the same cards always give the same figure.
RANDOM_SEED = 0
_HOLE = 2
#: Stud deals counted at most (one hand at a time in Python); more are a seeded sample.
STUD_MAX_DEALS = 5_000
_STUD_CARDS = 7


@dataclass(frozen=True, slots=True)
class RandomHandsOdds:
    """One hand against ``opponents`` random hands over ``deals`` sampled deals: ``win``
    alone, ``tie`` for best, ``share`` the pot expected (a ``k``-way tie counts ``1/k``),
    ``stderr`` the standard error of ``share``."""

    opponents: int
    deals: int
    win: float
    tie: float
    share: float
    stderr: float
    exact: bool = False


@dataclass(frozen=True, slots=True)
class PotOdds:
    """A call of ``to_call`` into ``pot`` (every chip in the middle before the call, the
    bet faced included): ``percent`` the equity it needs to break even, ``to_call / (pot +
    to_call)``; ``ratio`` the pot laid against it, "``ratio`` to 1"."""

    to_call: int
    pot: int
    percent: float
    ratio: float


def pot_odds(to_call: int, pot: int) -> PotOdds:
    """The pot odds of calling ``to_call`` chips into a pot of ``pot`` (both positive)."""
    if to_call <= 0 or pot <= 0:
        raise ValueError(f"pot odds need chips to call and a pot, got {to_call} into {pot}")
    return PotOdds(to_call, pot, 100 * to_call / (pot + to_call), pot / to_call)


def random_hands_odds(
    hole: Sequence[Card],
    board: Sequence[Card],
    opponents: int,
    *,
    samples: int = RANDOM_SAMPLES,
    seed: int = RANDOM_SEED,
) -> RandomHandsOdds:
    """Hold'em hand ``hole`` with ``board`` dealt against ``opponents`` hands dealt at
    random from the other cards, the board completed from what is left; a seeded sample of
    ``samples`` deals (see the module docstring)."""
    hero = [int(c) for c in hole]
    known = [int(c) for c in board]
    if len(hero) != _HOLE:
        raise CardError(f"random-hand odds are Hold'em's: two hole cards, got {len(hero)}")
    if len(known) > 5 or len(set(hero + known)) != len(hero) + len(known):
        raise CardError("the board is up to five cards, none of them the hand's")
    if opponents < 1:
        raise ValueError("random-hand odds need at least one opponent")
    missing = 5 - len(known)
    stub = np.array([c for c in ALL_CARDS if c not in set(hero + known)], dtype=np.int64)
    drawn = _HOLE * opponents + missing
    if drawn > len(stub):
        raise CardError(f"not enough cards for {opponents} opponents")
    rng = np.random.default_rng(seed)
    # the ``drawn`` smallest of uniform keys: a uniform deal of distinct cards per sample
    picks = rng.random((samples, len(stub))).argpartition(drawn - 1, axis=1)[:, :drawn]
    dealt = stub[picks]
    boards = np.hstack([np.tile(np.array(known, dtype=np.int64), (samples, 1)), dealt[:, :missing]])
    values = [evaluate_batch(np.hstack([np.tile(np.array(hero), (samples, 1)), boards]))]
    for k in range(opponents):
        holes = dealt[:, missing + _HOLE * k : missing + _HOLE * (k + 1)]
        values.append(evaluate_batch(np.hstack([holes, boards])))
    table = np.vstack(values)
    best = table.max(axis=0)
    is_best = table == best
    winners = is_best.sum(axis=0)
    mine = is_best[0] / winners
    return RandomHandsOdds(
        opponents,
        samples,
        float(np.count_nonzero(is_best[0] & (winners == 1))) / samples,
        float(np.count_nonzero(is_best[0] & (winners > 1))) / samples,
        float(mine.mean()),
        float(mine.std()) / sqrt(samples),
    )


@dataclass(frozen=True, slots=True)
class StudOdds:
    """Per hand, in the order given: ``win`` the whole pot (hi-lo: scoop), ``tie`` part of
    it, ``share`` the pot expected; ``exact``: every deal counted."""

    win: tuple[float, ...]
    tie: tuple[float, ...]
    share: tuple[float, ...]
    deals: int
    exact: bool


def stud_odds(
    config: HandConfig,
    hands: Sequence[Sequence[Card]],
    dead: Sequence[Card] = (),
    board: Sequence[Card] = (),
    *,
    max_deals: int = STUD_MAX_DEALS,
    seed: int = RANDOM_SEED,
) -> StudOdds:
    """Stud ``hands`` (their cards dealt so far) each completed to seven cards from the
    cards nobody has seen (not in ``hands``, ``dead`` or the common ``board`` card); see the
    module docstring."""
    variant = config.variant
    if not variant.is_stud:
        raise CardError(f"stud odds are the stud games', not {config.game}'s")
    known = [[int(c) for c in hand] for hand in hands]
    common = [int(c) for c in board]
    used = [c for hand in known for c in hand] + [int(c) for c in dead] + common
    if len(set(used)) != len(used):
        raise CardError("a card is given twice")
    if len(known) < 2 or any(len(hand) > _STUD_CARDS - len(common) for hand in known):
        raise CardError("stud odds need two or more hands of at most seven cards")
    stub = [int(c) for c in ALL_CARDS if c not in set(used)]
    missing = [_STUD_CARDS - len(common) - len(hand) for hand in known]
    if sum(missing) > len(stub):
        raise CardError("not enough cards left to deal")
    sizes = [len(stub) - sum(missing[:k]) for k in range(len(missing))]
    count = prod(comb(size, m) for size, m in zip(sizes, missing, strict=True))
    exact = count <= max_deals
    deals = _every_deal(stub, missing) if exact else _sampled_deals(stub, missing, max_deals, seed)
    players = len(known)
    wins, parts, shares = [0] * players, [0] * players, [0.0] * players
    total = 0
    for dealt in deals:
        total += 1
        holes = [hand + extra for hand, extra in zip(known, dealt, strict=True)]
        got = _stud_pot(variant.strength, variant.low8, holes, common)
        for i in range(players):
            shares[i] += got[i]
            if got[i] == 1.0:
                wins[i] += 1
            elif got[i]:
                parts[i] += 1
    return StudOdds(
        tuple(w / total for w in wins),
        tuple(p / total for p in parts),
        tuple(s / total for s in shares),
        total,
        exact,
    )


def _every_deal(stub: list[int], missing: list[int]) -> Iterator[list[list[int]]]:
    """Every way to give each hand its ``missing`` cards from ``stub``."""
    if not missing:
        yield []
        return
    for first in combinations(stub, missing[0]):
        rest = [c for c in stub if c not in first]
        for others in _every_deal(rest, missing[1:]):
            yield [list(first), *others]


def _sampled_deals(
    stub: list[int], missing: list[int], samples: int, seed: int
) -> Iterator[list[list[int]]]:
    rng = random.Random(seed)  # the same sample each time: the figures do not flicker
    for _ in range(samples):
        cards = rng.sample(stub, sum(missing))
        dealt, start = [], 0
        for m in missing:
            dealt.append(cards[start : start + m])
            start += m
        yield dealt


def _stud_pot(
    strength: Evaluator, low8: LowEvaluator | None, holes: list[list[int]], common: list[int]
) -> list[float]:
    """Each hand's part of the pot on one deal: the best high (razz: low) takes it, or half
    of it with the best eight-or-better low where the game splits and someone has one."""
    players = len(holes)
    highs = [strength(hole, common) for hole in holes]
    top = max(highs)
    halves = [(1.0, [i for i in range(players) if highs[i] == top])]
    if low8 is not None:
        lows = [low8(hole, common) for hole in holes]
        qualified = [low for low in lows if low is not None]
        if qualified:
            best = max(qualified)
            halves = [(0.5, halves[0][1]), (0.5, [i for i in range(players) if lows[i] == best])]
    got = [0.0] * players
    for part, winners in halves:
        for i in winners:
            got[i] += part / len(winners)
    return got
