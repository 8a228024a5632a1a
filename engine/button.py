"""Between hands: where the button goes next (the house rule: to the next seated player).

>>> next_button([1, 4, 7], 4)
7
>>> next_button([1, 4, 7], 7)
1
>>> next_button([1, 4, 7], 5)
7
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.errors import PokerError


def next_button(seats_in_play: Iterable[int], previous_button: int | None) -> int:
    """The next seat in play clockwise after ``previous_button`` (the first seat when None).

    Seats are table seat numbers; ``previous_button`` need not be in play any more (the
    player left or sits out): the button still moves on from where it was.
    """
    ordered = sorted(seats_in_play)
    if not ordered:
        raise PokerError("no seat in play: cannot place the button")
    if previous_button is None:
        return ordered[0]
    for seat in ordered:
        if seat > previous_button:
            return seat
    return ordered[0]
