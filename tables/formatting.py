"""How numbers read on every page and partial: one place for both template engines."""

from __future__ import annotations


def chips(amount: object) -> str:
    """A chip count with thousands separators (``10000`` -> ``10,000``); other values as given."""
    if isinstance(amount, int) and not isinstance(amount, bool):
        return f"{amount:,}"
    return "" if amount is None else str(amount)
