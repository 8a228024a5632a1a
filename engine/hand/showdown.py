"""Who wins each pot at showdown: high only, low only (razz), or split high-low.

Pure functions of the pots and each live seat's strengths (``engine.hand.payout`` evaluates
the hands and applies the shares).

Hi-lo (eight or better): each pot is cut in two, the high half taking the odd chip; the best
high hand wins the high half, the best qualifying low the low half, and when no eligible hand
has a low the high hand takes the whole pot. Ties split their half, so one hand can win a
quarter ("quartering"); the odd chips of a half go one at a time to its winners in seat
order from the left of the button (``engine.pots.split_pot``).

>>> from engine.pots import Pot
>>> [a.amounts for a in award_pots([Pot(101, (0, 1, 2))], {0: 9, 1: 9, 2: 5},
...                                {0: 3, 1: None, 2: 7}, button=2, seats=3)]
[(26, 25), (50,)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.pots import Pot, split_pot
from engine.types import Award

__all__ = ["award_pots", "split_between_runs"]


def _best(strengths: Mapping[int, int], eligible: Sequence[int]) -> tuple[int, ...]:
    top = max(strengths[s] for s in eligible)
    return tuple(s for s in eligible if strengths[s] == top)


def award_pots(
    pots: Sequence[Pot],
    high: Mapping[int, int],
    low: Mapping[int, int | None] | None,
    button: int,
    seats: int,
    describe: Mapping[int, str] | None = None,
    describe_low: Mapping[int, str] | None = None,
) -> list[Award]:
    """The awards of each pot in order (a hi-lo pot with a low gives two: high then low,
    their ``half`` saying which; without a low, one marked ``"whole"``).

    ``high``: seat -> strength (higher wins; razz passes its low ranks here); ``low``: seat
    -> eight-or-better low or ``None``, or ``low=None`` for a game without a low half.
    ``describe``/``describe_low`` name the winning hands.
    """
    awards = []
    for index, pot in enumerate(pots):
        lows = [s for s in pot.eligible if low is not None and low[s] is not None]
        if low is None or not lows:
            whole = "" if low is None else "whole"
            halves = [(pot.amount, _best(high, pot.eligible), describe, whole)]
        else:
            low_half = pot.amount // 2
            low_strengths = {s: v for s in lows if (v := low[s]) is not None}
            halves = [
                (pot.amount - low_half, _best(high, pot.eligible), describe, "high"),
                (low_half, _best(low_strengths, lows), describe_low, "low"),
            ]
        for amount, winners, names, half in halves:
            shares = tuple(split_pot(amount, winners, button, seats))
            text = names[winners[0]] if names else ""
            awards.append(Award(index, amount, winners, shares, text, half))
    return awards


def split_between_runs(pots: Sequence[Pot], runs: int) -> list[list[Pot]]:
    """Run it twice or three times (or a double board): each pot cut in ``runs`` equal
    parts, its odd chips one at a time to the runs from the first (``runs`` 1: the pots as
    they are). A pot of fewer chips than runs leaves the last runs a pot of none.

    >>> [[p.amount for p in run] for run in split_between_runs([Pot(101, (0, 1))], 2)]
    [[51], [50]]
    >>> [[p.amount for p in run] for run in split_between_runs([Pot(101, (0, 1))], 3)]
    [[34], [34], [33]]
    """
    if runs == 1:
        return [list(pots)]
    return [
        [Pot(pot.amount // runs + (run < pot.amount % runs), pot.eligible) for pot in pots]
        for run in range(runs)
    ]
