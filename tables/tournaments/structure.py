"""Blind levels and payouts: pure functions of the settings (no database).

A level is ``{"small_blind", "big_blind", "ante", "minutes" | "hands"}``; the last level stays
once reached. Prizes are whole chips and add up to the pool exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

#: Big blinds of the preset structures, level by level (small blind half, ante from level 5).
_BIG_BLINDS: tuple[int, ...] = (
    20,
    30,
    40,
    60,
    80,
    100,
    150,
    200,
    300,
    400,
    600,
    800,
    1000,
    1500,
    2000,
    3000,
)
_BIG_BLINDS += tuple(b * 10 for b in (400, 600, 800, 1000, 1500, 2000, 3000))
#: Minutes per level of each preset; hyper is for sit & goes (the same blinds, faster).
PRESET_MINUTES = {"hyper": 2, "turbo": 3, "regular": 10, "deep": 20}
#: The estimate's end: the first level whose big blind is this fraction of every chip in play
#: (two players left with 15 big blinds each: all in or fold, over within that level).
FINISH_BIG_BLINDS = 30


def preset_levels(name: str) -> list[dict[str, Any]]:
    """The levels of a preset: ``hyper``, ``turbo``, ``regular`` or ``deep`` (by minutes)."""
    minutes = PRESET_MINUTES[name]
    return [
        {
            "small_blind": big // 2,
            "big_blind": big,
            "ante": big // 10 if index >= 4 else 0,
            "minutes": minutes,
        }
        for index, big in enumerate(_BIG_BLINDS)
    ]


def doubling_levels(*, small_blind: int, big_blind: int, every_hands: int, count: int) -> list[Any]:
    """The fixed-hands game's structure: blinds doubling every ``every_hands`` hands."""
    return [
        {
            "small_blind": small_blind << n,
            "big_blind": big_blind << n,
            "ante": 0,
            "hands": every_hands,
        }
        for n in range(count)
    ]


def named_levels(name: str, *, fixed_hands: int | None = None) -> list[dict[str, Any]] | None:
    """The levels a structure's name stands for (None: no such preset). The fixed-hands game
    (``fixed_hands``: its hands) plays ``regular`` as blinds doubling every 5 hands."""
    if fixed_hands is not None and name in ("regular", "doubling"):
        count = fixed_hands // 5 + 1
        return doubling_levels(small_blind=10, big_blind=20, every_hands=5, count=count)
    return preset_levels(name) if name in PRESET_MINUTES else None


def levels_text(levels: list[dict[str, Any]]) -> str:
    """Levels one per line, ``small big ante length``, as the organise form's custom field
    reads them."""
    unit = "hands" if "hands" in levels[0] else "minutes"
    return "\n".join(
        f"{lv['small_blind']} {lv['big_blind']} {lv.get('ante', 0)} {lv[unit]}" for lv in levels
    )


@dataclass(frozen=True)
class DurationEstimate:
    """How long a tournament is expected to last: ``levels`` played (the one it ends in
    counted), their ``length`` in ``unit`` (minutes with the breaks, or hands at the leading
    table); ``open_ended``: the last level comes first and stays, so at least this long."""

    levels: int
    length: int
    unit: str
    open_ended: bool

    @property
    def text(self) -> str:
        if self.unit == "hands":
            amount = f"{self.length:,} hands"
        else:
            hours, minutes = divmod(self.length, 60)
            amount = f"{hours} h {minutes} min" if hours else f"{minutes} min"
        if self.open_ended:
            return f"more than {amount} (the last level stays)"
        return f"about {amount}"


def duration_estimate(
    levels: list[dict[str, Any]],
    *,
    entrants: int,
    starting_stack: int,
    break_every: int = 0,
    break_minutes: int = 0,
) -> DurationEstimate:
    """The expected length of a tournament of ``entrants`` (two at least) with these levels.

    Its chips (entrants x starting stack; rebuys and add-ons not counted) are all in play
    until the end; it is over by the end of the first level whose big blind is a
    ``FINISH_BIG_BLINDS``-th of them. The levels up to it are added up, with the breaks
    between them (levels by minutes).
    """
    chips = max(entrants, 2) * starting_stack
    unit = "hands" if "hands" in levels[0] else "minutes"
    length = 0
    for index, level in enumerate(levels):
        if index and unit == "minutes" and break_every and index % break_every == 0:
            length += break_minutes  # the break after the level before
        length += level[unit]
        if level["big_blind"] * FINISH_BIG_BLINDS >= chips:
            return DurationEstimate(index + 1, length, unit, False)
    return DurationEstimate(len(levels), length, unit, True)


def level_index(levels: list[dict[str, Any]], *, hands: int = 0, minutes: float = 0.0) -> int:
    """The level in play after ``hands`` hands (levels by hands) or ``minutes`` minutes."""
    unit, elapsed = ("hands", hands) if "hands" in levels[0] else ("minutes", minutes)
    for index, level in enumerate(levels):
        if elapsed < level[unit]:
            return index
        elapsed -= level[unit]
    return len(levels) - 1


@dataclass(frozen=True)
class LevelClock:
    """Where a tournament's clock is: the level in play (index), whether a break is on, and
    the minutes until the next level or the break's end (None: by hands, or the last level)."""

    level: int
    on_break: bool = False
    minutes_left: float | None = None


def clock_at(
    levels: list[dict[str, Any]], minutes: float, *, break_every: int = 0, break_minutes: int = 0
) -> LevelClock:
    """The clock ``minutes`` after the start of a tournament whose levels last minutes.

    Breaks: after every ``break_every`` levels (none after the last level) a break of
    ``break_minutes``. The levels' clock stands still during a break: the level after it
    starts with all its minutes. During the break the level shown is the next one (the stakes
    the next hand is dealt at).
    """
    elapsed = minutes
    for index, level in enumerate(levels):
        if elapsed < level["minutes"] or index == len(levels) - 1:
            left = level["minutes"] - elapsed if index < len(levels) - 1 else None
            return LevelClock(index, False, left)
        elapsed -= level["minutes"]
        if break_every and break_minutes and (index + 1) % break_every == 0:
            if elapsed < break_minutes:
                return LevelClock(index + 1, True, break_minutes - elapsed)
            elapsed -= break_minutes
    return LevelClock(len(levels) - 1)


def levels_from_text(text: str, unit: str) -> tuple[list[dict[str, Any]], str]:
    """Levels written one per line, ``small big ante length`` (commas or slashes between
    them too), each ``unit`` long (minutes or hands), and why they cannot be played ("" when
    they can)."""
    unit = unit if unit in ("minutes", "hands") else "minutes"
    levels: list[dict[str, Any]] = []
    for number, line in enumerate(text.strip().splitlines(), 1):
        parts = line.replace(",", " ").replace("/", " ").split()
        if len(parts) != 4 or not all(p.isascii() and p.isdigit() for p in parts):
            return [], f"Line {number}: four whole numbers: small blind, big blind, ante, length."
        small, big, ante, length = map(int, parts)
        levels.append({"small_blind": small, "big_blind": big, "ante": ante, unit: length})
    return levels, levels_problem(levels) or ""


def levels_problem(levels: Any) -> str | None:
    """Why ``levels`` cannot be played (for the ``levels`` field's error), or None."""
    if not isinstance(levels, list) or not levels:
        return "Give at least one level."
    if len(levels) > 100:
        return "At most 100 levels."
    unit = "hands" if isinstance(levels[0], dict) and "hands" in levels[0] else "minutes"
    for number, level in enumerate(levels, 1):
        if not isinstance(level, dict):
            return f"Level {number} is not an object."
        for key in ("small_blind", "big_blind", "ante", unit):
            value = level.get(key, 0 if key == "ante" else None)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                return f"Level {number}: {key} must be a whole number (0 or more)."
        if ("hands" in level) == ("minutes" in level) or unit not in level:
            return f"Level {number}: give either minutes or hands, the same for every level."
        if level[unit] < 1 or level["big_blind"] < 1:
            return f"Level {number}: the big blind and the {unit} are at least 1."
        if level["small_blind"] > level["big_blind"]:
            return f"Level {number}: the small blind cannot be more than the big blind."
        extra = set(level) - {"small_blind", "big_blind", "ante", "hands", "minutes"}
        if extra:
            return f"Level {number}: unknown field {sorted(extra)[0]}."
    return None


def addon_problem(rebuy_levels: int, addon_chips: object, addon_price: object) -> tuple[str, str]:
    """The add-on's setting that cannot be played and why (``("", "")``: none): whole chips
    and price, chips for any price, and rebuys to end (it is offered at their end)."""
    for field, value in (("addon_chips", addon_chips), ("addon_price", addon_price)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10**12:
            return field, f"{field} must be a whole number from 0 to 10^12."
    if addon_price and not addon_chips:
        return "addon_price", "An add-on's price needs its chips: set addon_chips."
    if addon_chips and not rebuy_levels:
        return "addon_chips", "The add-on comes at the end of the rebuys: set rebuy_levels."
    return "", ""


def paid_places(entrants: int, rule: str, percentages: list[Any] | None = None) -> int:
    """How many places are paid."""
    if rule == "winner-takes-all" or entrants < 4:
        return 1
    if rule == "custom":
        return len(percentages or [])
    return max(2, min(entrants - 1, round(entrants * 0.15)))


def prize_table(
    pool: int,
    entrants: int,
    rule: str,
    percentages: list[Any] | None = None,
    seat_value: int = 0,
) -> list[Any]:
    """Prizes for places 1, 2, 3... (whole chips, largest first, summing to ``pool``).

    A satellite (``seat_value``, the target's entry fee): a seat's value for each of the
    first ``pool // seat_value`` places, the remainder to the next place.
    Standard: place n weighs 1/n (two paid: 67/33; three: 55/27/18), about the top 15% paid.
    Custom: the organiser's percentages. Chips lost to rounding go one each to the top places.
    """
    if seat_value:
        seats, remainder = divmod(pool, seat_value)
        return [seat_value] * seats + ([remainder] if remainder else [])
    places = paid_places(entrants, rule, percentages)
    if rule == "custom":
        weights = [Fraction(p) for p in percentages or []]
    else:
        weights = [Fraction(1, n) for n in range(1, places + 1)]
    total = sum(weights)
    prizes = [int(pool * weight / total) for weight in weights]
    for index in range(pool - sum(prizes)):
        prizes[index % len(prizes)] += 1
    return prizes


def shared_prizes(prizes: list[int], first_place: int, count: int) -> list[int]:
    """Players tied for places ``first_place`` .. ``first_place + count - 1`` share those
    places' prizes equally (the odd chips to the first of them)."""
    together = sum(prizes[first_place - 1 : first_place - 1 + count])
    share, odd = divmod(together, count)
    return [share + (1 if index < odd else 0) for index in range(count)]
