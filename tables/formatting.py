"""How numbers read on every page and partial: one place for both template engines."""

from __future__ import annotations

import re


def chips(amount: object) -> str:
    """A chip count with thousands separators (``10000`` -> ``10,000``); other values as given."""
    if isinstance(amount, int) and not isinstance(amount, bool):
        return f"{amount:,}"
    return "" if amount is None else str(amount)


_RUN_BOARD = re.compile(r"\b(first|second) run \([^)]*\):")


def without_board_codes(description: str) -> str:
    """A run-twice award's description without its board as card codes (the page draws the
    boards as cards): "first run (2h 7h 9h 3c 4d): flush" -> "first run: flush"."""
    return _RUN_BOARD.sub(r"\1 run:", description)
