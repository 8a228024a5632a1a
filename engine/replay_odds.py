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

``pot_odds(to_call, pot)``: what a call risks against what it can win.

    >>> from engine.cards import parse_cards
    >>> odds = random_hands_odds(parse_cards("AhAs"), (), 1)
    >>> odds.exact, odds.deals, round(odds.share, 2)
    (False, 20000, 0.85)
    >>> pot_odds(50, 150)
    PotOdds(to_call=50, pot=150, percent=25.0, ratio=3.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import sqrt

import numpy as np

from engine.cards import ALL_CARDS, Card
from engine.errors import CardError
from engine.evaluate.batch import evaluate_batch

__all__ = ["RANDOM_SAMPLES", "PotOdds", "RandomHandsOdds", "pot_odds", "random_hands_odds"]

#: Deals sampled per figure: a standard error under 0.4 percentage points.
RANDOM_SAMPLES = 20_000
#: The sample's seed: fixed, so the same cards always give the same figure.
RANDOM_SEED = 0
_HOLE = 2


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
