"""Hand evaluation: the best hand of 5 to 7 cards as one comparable integer.

* ``tables``: the precomputed lookup tables and the additive per-card keys;
* ``single``: one hand at a time, pure Python (``evaluate``, ``evaluate_omaha``,
  ``evaluate_low``, ``best_hands``; ``HandRank``/``HandClass``/``LowRank``);
* ``hilo``: eight-or-better lows for the hi-lo games (``evaluate_low8``,
  ``evaluate_omaha_low8``);
* ``batch``: millions of hands as NumPy arrays (``evaluate_batch``), the same values.

``single`` and ``batch`` both read ``tables`` and not each other. ``evaluate_batch`` is
named here too but loads NumPy only when first asked for (the site never needs it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.evaluate.hilo import evaluate_low8, evaluate_omaha_low8
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
    "HandClass",
    "HandRank",
    "LowRank",
    "best_hands",
    "evaluate",
    "evaluate_batch",
    "evaluate_low",
    "evaluate_low8",
    "evaluate_omaha",
    "evaluate_omaha_low8",
    "hand_class_counts",
]


def __getattr__(name: str) -> object:
    # PEP 562: ``from engine.evaluate import evaluate_batch`` imports NumPy then, not before.
    if name == "evaluate_batch":
        from engine.evaluate.batch import evaluate_batch

        return evaluate_batch
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
