"""Season points by finishing place: the rules a season may pick (pure functions)."""

from __future__ import annotations

import math

from tables.clubs.errors import ClubInvalid, PointsTableInvalid

FIXED, SQRT = "fixed", "sqrt"


def check(rule: str, table: object) -> list[int]:
    """The points table to keep for ``rule`` (empty for the formula); ``PointsTableInvalid``
    for a fixed table that is not whole, positive points never rising with the place."""
    if rule == SQRT:
        return []
    if rule != FIXED:
        raise ClubInvalid("rule", "The points rule is one of: fixed, sqrt.")
    if (
        not isinstance(table, list)
        or not table
        or len(table) > 100
        or any(isinstance(p, bool) or not isinstance(p, int) or p <= 0 for p in table)
        or table != sorted(table, reverse=True)
    ):
        raise PointsTableInvalid(
            "A points table lists whole points above 0 by place, first place first, "
            "never more for a lower place (e.g. [10, 6, 4, 2, 1])."
        )
    return list(table)


def for_place(rule: str, table: list[int], place: int, entrants: int) -> float:
    """The points for finishing ``place`` of ``entrants`` (rounded to 2 decimals, so that a
    season's sum is the same whatever the order it is added in)."""
    if place < 1 or entrants < 1:
        return 0.0
    if rule == FIXED:
        return float(table[place - 1]) if place <= len(table) else 0.0
    return round(10 * math.sqrt(entrants) / math.sqrt(place), 2)
