"""Settling up after a home game: the fewest transfers that square everyone's net.

Each player's ``net`` is what they won (positive) or lost (negative) over the night; the nets
sum to zero. ``settle`` returns transfers ``(payer, payee, amount)`` such that

- every player's transfers add up to their net (a loser pays exactly what they lost, a winner
  receives exactly what they won),
- nobody both pays and receives,
- there are at most ``players - 1`` of them, and as few as can be.

The fewest transfers for ``n`` non-zero nets is ``n - g``, where ``g`` is the largest number of
disjoint groups of players whose nets each sum to zero: each group settles among itself in
``size - 1`` transfers, and no fewer are possible. Finding ``g`` is hard in general (it is a
partition problem), so it is found exactly by a dynamic programme over subsets for up to
``EXACT_LIMIT`` non-zero nets, and beyond that the greedy rule (the largest loser pays the
largest winner) is used, which keeps every guarantee above except the minimum.

>>> [str(t) for t in settle({"alice": -350, "bob": 350})]
['alice pays bob 350']
>>> [str(t) for t in settle({"ann": -10, "ben": -20, "cat": 10, "dan": 20})]
['ben pays dan 20', 'ann pays cat 10']
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)

#: Up to this many non-zero nets the minimum is found exactly (2**n subsets are visited).
EXACT_LIMIT = 14


@dataclass(frozen=True)
class Transfer(Generic[K]):
    """``payer`` gives ``amount`` chips (a positive whole number) to ``payee``."""

    payer: K
    payee: K
    amount: int

    def __str__(self) -> str:
        return f"{self.payer} pays {self.payee} {self.amount}"


def _checked(nets: Mapping[K, int]) -> dict[K, int]:
    for player, net in nets.items():
        if isinstance(net, bool) or not isinstance(net, int):
            raise ValueError(f"the net of {player!r} is not a whole number: {net!r}")
    total = sum(nets.values())
    if total != 0:
        raise ValueError(f"the nets must sum to zero to be settled, they sum to {total}")
    return {player: net for player, net in nets.items() if net != 0}


def settle_greedy(nets: Mapping[K, int]) -> list[Transfer[K]]:
    """The largest loser pays the largest winner, again and again: at most ``players - 1``
    transfers (each one squares at least one player), but not always the fewest."""
    return _greedy(_checked(nets))


def _greedy(nets: dict[K, int]) -> list[Transfer[K]]:
    order = {player: index for index, player in enumerate(nets)}  # ties: first listed first
    owing = {player: -net for player, net in nets.items() if net < 0}
    owed = {player: net for player, net in nets.items() if net > 0}
    transfers: list[Transfer[K]] = []
    while owing and owed:
        payer = max(owing, key=lambda p: (owing[p], -order[p]))
        payee = max(owed, key=lambda p: (owed[p], -order[p]))
        amount = min(owing[payer], owed[payee])
        transfers.append(Transfer(payer, payee, amount))
        for side, player in ((owing, payer), (owed, payee)):
            side[player] -= amount
            if not side[player]:
                del side[player]
    return transfers


def settle(nets: Mapping[K, int]) -> list[Transfer[K]]:
    """The fewest transfers that square ``nets`` (player -> net chips, summing to zero).

    Exact for up to ``EXACT_LIMIT`` players with a non-zero net after those with exactly
    opposite nets are paired (pairing them is always part of some best answer); greedy beyond.
    Raises ``ValueError`` if a net is not a whole number or the nets do not sum to zero.
    """
    remaining = _checked(nets)
    transfers: list[Transfer[K]] = []
    # A loser and a winner with opposite nets settle in one transfer: a group of two.
    by_net: dict[int, list[K]] = {}
    for player, net in remaining.items():
        by_net.setdefault(net, []).append(player)
    for net, losers in sorted(by_net.items()):
        if net >= 0:
            break
        winners = by_net.get(-net, [])
        for loser, winner in zip(losers, winners, strict=False):
            transfers.append(Transfer(loser, winner, -net))
            del remaining[loser], remaining[winner]
        del winners[: len(losers)]
    if len(remaining) > EXACT_LIMIT:
        return transfers + _greedy(remaining)
    for group in _zero_sum_groups(remaining):
        transfers.extend(_greedy(group))
    return transfers


def _zero_sum_groups(nets: dict[K, int]) -> list[dict[K, int]]:
    """The most disjoint zero-sum groups ``nets`` can be split into (every player in one).

    ``best[mask]``: the most zero-sum groups the players in ``mask`` can be ordered into, as
    consecutive runs of one ordering; a mask that sums to zero ends a run. Visiting masks in
    increasing order, ``best[mask] = max over members i of best[mask - i]``, plus one when
    ``mask`` itself sums to zero.
    """
    players = list(nets)
    values = [nets[p] for p in players]
    size = 1 << len(players)
    sums = [0] * size
    best = [0] * size
    for mask in range(1, size):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + values[low.bit_length() - 1]
        most, rest = 0, mask
        while rest:
            bit = rest & -rest
            rest ^= bit
            if best[mask ^ bit] > most:
                most = best[mask ^ bit]
        best[mask] = most + (sums[mask] == 0)
    groups: list[dict[K, int]] = []
    mask, run = size - 1, 0
    while mask:
        target = best[mask] - (sums[mask] == 0)
        rest = mask
        while rest:  # a member whose removal keeps the best count
            bit = rest & -rest
            rest ^= bit
            if best[mask ^ bit] == target:
                break
        run |= bit
        mask ^= bit
        if sums[mask] == 0:  # the run since the previous zero-sum mask is a group
            groups.append({players[i]: values[i] for i in range(len(players)) if run >> i & 1})
            run = 0
    return groups
