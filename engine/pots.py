"""Pots from contributions, uncalled bets and split pots.

Everything here works on plain lists indexed by seat (0..n-1, clockwise), so the hand state
machine, the tests and the site can all use it without a ``Hand``.

>>> build_pots([100, 40, 100, 10], live=[True, True, True, False])
[Pot(amount=130, eligible=(0, 1, 2)), Pot(amount=120, eligible=(0, 2))]
>>> uncalled([0, 300, 120])
(1, 180)
>>> split_pot(5, winners=[0, 2], button=2, seats=3)
[3, 2]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple


class Pot(NamedTuple):
    """A pot: its chips and the seats (not folded) that can win it, in seat order."""

    amount: int
    eligible: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"amount": self.amount, "eligible": list(self.eligible)}


def build_pots(contributions: Sequence[int], live: Sequence[bool], dead: int = 0) -> list[Pot]:
    """Main pot then side pots, built from what each seat put in this hand.

    A level is the total of a live (not folded) seat; each pot takes from every seat (folded
    ones too) the part of its contribution between the previous level and this one, and is
    eligible to the live seats that reached the level. Chips above the highest live level
    go into the last pot. ``dead`` chips (a big-blind ante, not part of anyone's
    contribution) go into the main pot, which every live seat can win.
    """
    levels = sorted({c for c, alive in zip(contributions, live, strict=True) if alive and c > 0})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = 0
        for c in contributions:
            if c > previous:
                amount += (c if c < level else level) - previous
        eligible = tuple(i for i, c in enumerate(contributions) if live[i] and c >= level)
        pots.append(Pot(amount, eligible))
        previous = level
    extra = sum(c - previous for c in contributions if c > previous)
    if dead:
        if pots:
            pots[0] = Pot(pots[0].amount + dead, pots[0].eligible)
        else:
            extra += dead
    if extra:
        if pots:
            pots[-1] = Pot(pots[-1].amount + extra, pots[-1].eligible)
        else:
            pots.append(Pot(extra, tuple(i for i, alive in enumerate(live) if alive)))
    return pots


def uncalled(bets: Sequence[int]) -> tuple[int, int] | None:
    """``(seat, amount)`` of the part of the largest bet nobody matched, or ``None``.

    The largest bet is compared with the second largest (folded seats' bets count: their
    chips stay in the pot).
    """
    top = -1
    top_seat = -1
    second = 0
    for seat, bet in enumerate(bets):
        if bet > top:
            second = top if top > second else second
            top, top_seat = bet, seat
        elif bet > second:
            second = bet
    if top_seat < 0 or top <= second:
        return None
    return top_seat, top - second


def seats_from_button(button: int, seats: int) -> list[int]:
    """Seat order starting with the first seat left of the button (the button comes last)."""
    return [(button + k) % seats for k in range(1, seats + 1)]


def split_pot(amount: int, winners: Sequence[int], button: int, seats: int) -> list[int]:
    """Shares of ``amount`` for ``winners`` (returned in the order given).

    Every winner gets the same whole share; the odd chips go one at a time to the winners in
    seat order starting left of the button.
    """
    count = len(winners)
    share, odd = divmod(amount, count)
    shares = dict.fromkeys(winners, share)
    if odd:
        for w in sorted(winners, key=lambda w: (w - button - 1) % seats)[:odd]:
            shares[w] += 1
    return [shares[w] for w in winners]
