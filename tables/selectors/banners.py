"""What a table's screens show about the game it belongs to (a tournament's name and level),
from the app that owns that game: it registers ``f(table) -> dict | None`` here from its
``AppConfig.ready`` (the tables app does not import it). Read once per snapshot; a cash table's
answer is None.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

table_banners: list[Callable[[Any], dict | None]] = []


def register(listener: Callable[[Any], dict | None]) -> None:
    """Add ``listener`` once (``AppConfig.ready`` may run more than once in tests)."""
    if listener not in table_banners:
        table_banners.append(listener)


def banner_for(table) -> dict | None:
    """The first listener's answer that is not None (a JSON object), else None."""
    for listener in table_banners:
        banner = listener(table)
        if banner is not None:
            return banner
    return None
