"""Where other apps plug into the imports without the imports importing them (as
``tables.services.hooks`` is for the cash game's services).

- ``hands_imported``: ``f(upload, hands) -> None`` once an import's new hands are stored,
  inside its transaction (``hands``: the new ``ImportedHand`` rows). The statistics
  (``tables.stats.pokernow``) keep the import's figures with it here: its hands never change.
- ``import_figures``: ``f(upload) -> dict`` the statistics page's figures of one import, its
  amounts as PokerNow printed them, for the import's own page (``tables.stats.pokernow``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tables.imports.models import ImportedHand, PokerNowImport

HandsImported = Callable[["PokerNowImport", "list[ImportedHand]"], None]

hands_imported: list[HandsImported] = []

ImportFigures = Callable[["PokerNowImport"], dict[str, Any]]

import_figures: list[ImportFigures] = []
