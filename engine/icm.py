"""A deal at the final table: the prize money still to be paid, split between the players left.

Two ways, as home games and card rooms make them:

- **ICM** (the independent chip model, Malmuth–Harville): a player's chance of finishing first
  is their share of the chips; given who finished first, the chance of finishing second is the
  share of the chips the others hold, and so on down the places. A player's share of the deal
  is their expected prize over every finishing order. Computed exactly with fractions by a
  dynamic programme over the sets of players already placed (2**n sets): ``EXACT_LIMIT``
  players at most, as a final table has.
- **Chip chop**: every player is sure of the smallest prize still to be paid among the places
  left, so each gets that; what is left over is split in proportion to the chips.

Either may keep an amount back to play for: it comes off the first prize before the split and
goes to whoever wins the tournament. The shares are whole chips that add up exactly to the
money split (the remainders rounded by the largest fractions, ties to the bigger stack, then
to the first listed), so no chip is made or lost.

>>> icm_equities([5000, 3000, 2000], [50, 30, 20])
[Fraction(1075, 28), Fraction(131, 4), Fraction(202, 7)]
>>> deal([5000, 3000, 2000], [50, 30, 20], method="icm")
[38, 33, 29]
>>> deal([5000, 3000, 2000], [50, 30, 20], method="chip_chop")
[40, 32, 28]
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Literal

from engine.errors import PokerError

#: The most players an exact ICM split is computed for (2**n sets of players are visited).
EXACT_LIMIT = 9

DealMethod = Literal["icm", "chip_chop"]


class DealError(PokerError):
    """A deal that cannot be made from these stacks and prizes; the message says why."""


def _check(stacks: Sequence[int], prizes: Sequence[int], keep: int = 0) -> None:
    if not stacks:
        raise DealError("a deal needs at least one player")
    if len(stacks) > EXACT_LIMIT:
        raise DealError(f"a deal is made for at most {EXACT_LIMIT} players, not {len(stacks)}")
    if any(not isinstance(s, int) or s <= 0 for s in stacks):
        raise DealError("every player left in a deal has chips (a whole number above 0)")
    if any(not isinstance(p, int) or p < 0 for p in prizes):
        raise DealError("prizes are whole numbers of chips, none below 0")
    if len(prizes) > len(stacks):
        raise DealError(
            f"{len(prizes)} prizes left to pay but only {len(stacks)} players: "
            "the places below them are paid already"
        )
    if list(prizes) != sorted(prizes, reverse=True):
        raise DealError("prizes are listed from first place down, none above the one before")
    if keep < 0 or (keep and not prizes) or (prizes and keep > prizes[0] - _second(prizes)):
        raise DealError(
            "the amount kept to play for comes off the first prize and leaves it at least "
            "the second prize"
        )


def _second(prizes: Sequence[int]) -> int:
    return prizes[1] if len(prizes) > 1 else 0


def icm_equities(stacks: Sequence[int], prizes: Sequence[int]) -> list[Fraction]:
    """Each player's expected prize (exact) when ``prizes`` (first place first; the places not
    listed pay nothing) are still to be paid and the players hold ``stacks``."""
    _check(stacks, prizes)
    n = len(stacks)
    paid = list(prizes) + [0] * (n - len(prizes))
    total = sum(stacks)
    everyone = (1 << n) - 1
    # reach[placed]: the chance that exactly the players in ``placed`` took the top places.
    reach: dict[int, Fraction] = {0: Fraction(1)}
    equities = [Fraction(0)] * n
    for placed in sorted(range(everyone), key=int.bit_count):
        chance = reach.get(placed)
        if not chance:
            continue
        place = placed.bit_count()
        left = total - sum(stacks[i] for i in range(n) if placed >> i & 1)
        for i in range(n):
            if placed >> i & 1:
                continue
            step = chance * Fraction(stacks[i], left)
            equities[i] += step * paid[place]
            after = placed | 1 << i
            reach[after] = reach.get(after, Fraction(0)) + step
    return equities


def chip_chop_equities(stacks: Sequence[int], prizes: Sequence[int]) -> list[Fraction]:
    """Each player's share by chip chop: the smallest prize left to everyone (none when
    fewer prizes than players are left), the rest in proportion to the chips."""
    _check(stacks, prizes)
    sure = prizes[-1] if len(prizes) == len(stacks) else 0
    rest = sum(prizes) - sure * len(stacks)
    total = sum(stacks)
    return [sure + Fraction(rest * s, total) for s in stacks]


def deal(
    stacks: Sequence[int], prizes: Sequence[int], method: DealMethod = "icm", keep: int = 0
) -> list[int]:
    """Each player's share of ``prizes`` less ``keep`` (kept back for the winner), in whole
    chips that add up exactly to it, by ``method``."""
    _check(stacks, prizes, keep)
    split = list(prizes)
    if keep:
        split[0] -= keep
    if method == "icm":
        exact = icm_equities(stacks, split)
    elif method == "chip_chop":
        exact = chip_chop_equities(stacks, split)
    else:
        raise DealError(f"a deal is made by 'icm' or 'chip_chop', not {method!r}")
    return _whole_chips(exact, sum(split), stacks)


def _whole_chips(exact: Sequence[Fraction], total: int, stacks: Sequence[int]) -> list[int]:
    """Round down, then give the chips left one each by the largest remainder (ties: the
    bigger stack, then the player listed first)."""
    shares = [int(e) for e in exact]  # every share is >= 0, so int() rounds down
    order = sorted(range(len(exact)), key=lambda i: (-(exact[i] - shares[i]), -stacks[i], i))
    for i in order[: total - sum(shares)]:
        shares[i] += 1
    return shares
