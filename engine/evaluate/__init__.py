"""Hand evaluation: the best hand of 5 to 7 cards as one comparable integer.

* ``tables``: the precomputed lookup tables and the additive per-card keys;
* ``single``: one hand at a time, pure Python (``evaluate``, ``evaluate_omaha``,
  ``evaluate_low``, ``best_hands``; ``HandRank``/``HandClass``/``LowRank``);
* ``hilo``: eight-or-better lows for the hi-lo games (``evaluate_low8``,
  ``evaluate_omaha_low8``);
* ``lowball``: the draw games' deuce-to-seven and badugi (``evaluate_deuce_seven``,
  ``evaluate_badugi``); ``shortdeck``: short-deck hold'em (``evaluate_short_deck``), each
  with its own ``NamedRank`` (``named``);
* ``batch``: millions of hands as NumPy arrays (``evaluate_batch``), the same values;
  ``boards``: exact Hold'em tallies over every five-card board, counted by rank class
  (``engine.equity`` preflop).

``single`` and ``batch`` both read ``tables`` and not each other. ``evaluate_batch`` is
named here too but loads NumPy only when first asked for (the site never needs it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.evaluate.hilo import evaluate_low8, evaluate_omaha_low8
from engine.evaluate.lowball import (
    BadugiRank,
    DeuceSevenRank,
    evaluate_badugi,
    evaluate_deuce_seven,
)
from engine.evaluate.named import NamedRank
from engine.evaluate.shortdeck import ShortDeckRank, evaluate_short_deck
from engine.evaluate.single import (
    MAX_RANK,
    HandClass,
    HandRank,
    LowRank,
    best_hands,
    evaluate,
    evaluate_low,
    evaluate_omaha,
    hand_class_counts,
)

if TYPE_CHECKING:
    from engine.evaluate.batch import evaluate_batch

__all__ = [
    "MAX_RANK",
    "BadugiRank",
    "DeuceSevenRank",
    "HandClass",
    "HandRank",
    "LowRank",
    "NamedRank",
    "ShortDeckRank",
    "best_hands",
    "evaluate",
    "evaluate_badugi",
    "evaluate_batch",
    "evaluate_deuce_seven",
    "evaluate_low",
    "evaluate_low8",
    "evaluate_omaha",
    "evaluate_omaha_low8",
    "evaluate_short_deck",
    "hand_class_counts",
]


def __getattr__(name: str) -> object:
    # PEP 562: ``from engine.evaluate import evaluate_batch`` imports NumPy then, not before.
    if name == "evaluate_batch":
        from engine.evaluate.batch import evaluate_batch

        return evaluate_batch
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
