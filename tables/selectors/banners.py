"""What a table's screens show about the game it belongs to (a tournament's name and level),
from the app that owns that game: it registers ``f(table) -> dict | None`` here from its
``AppConfig.ready`` (the tables app does not import it). Read once per snapshot; a cash table's
answer is None.

``seating_notices``: ``f(table) -> str | None``, why the screens offer no sitting down,
leaving, top-up or ledger at this table (the game seats its players: the services refuse
those through ``tables.services.hooks.table_rules``), or None; read once per snapshot.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tables.models import Table

#: A table's banner: a JSON object, or None.
Banner = dict[str, Any] | None

table_banners: list[Callable[[Table], Banner]] = []


def register(listener: Callable[[Table], Banner]) -> None:
    """Add ``listener`` once (``AppConfig.ready`` may run more than once in tests)."""
    if listener not in table_banners:
        table_banners.append(listener)


seating_notices: list[Callable[[Table], str | None]] = []


def register_seating_notice(listener: Callable[[Table], str | None]) -> None:
    """Add ``listener`` once (``AppConfig.ready`` may run more than once in tests)."""
    if listener not in seating_notices:
        seating_notices.append(listener)


def seating_notice_for(table: Table) -> str | None:
    """The first listener's answer that is not None, else None (a cash table)."""
    for listener in seating_notices:
        notice = listener(table)
        if notice is not None:
            return notice
    return None


def banner_for(table: Table) -> Banner:
    """The first listener's answer that is not None (a JSON object), else None."""
    for listener in table_banners:
        banner = listener(table)
        if banner is not None:
            return banner
    return None
