"""Statistics of a player's hands imported from PokerNow (``tables.imports``): the same figures
as this site's hands (``tables.stats.figures`` over each hand's engine replay), kept apart.

Never added into the play-chip figures or the leaderboard: the amounts are PokerNow's, in
each import's own unit, so net and biggest pot are summed over imports of one unit only.
Each import keeps its sums (``PokerNowImport.figures``), counted once as it comes in
(``record_import_figures``, a listener of ``tables.imports.hooks.hands_imported``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, fields
from typing import Any

from tables.imports.models import ImportedHand, PokerNowImport
from tables.imports.selectors import amount, import_hands, player_imports
from tables.models import Player
from tables.stats.figures import SeatFigures, Totals, seat_figures


def imported_hand_figures(hand: ImportedHand, pokernow_name: str) -> SeatFigures:
    """What ``pokernow_name`` did in ``hand``, counted as a hand of this site is."""
    history = hand.history()
    seat = (history.players or []).index(pokernow_name)
    return seat_figures(history.replay())[seat]


def _totals(hands: Iterable[ImportedHand]) -> Totals:
    totals = Totals()
    for hand in hands:
        totals.add(imported_hand_figures(hand, hand.pokernow_import.pokernow_name))
    return totals


def record_import_figures(upload: PokerNowImport, hands: list[ImportedHand]) -> None:
    """Keep the figures of an import's new hands with it (``tables.imports.hooks``, inside
    the import's transaction): a stats page then replays no hand."""
    upload.figures = asdict(_totals(hands))
    upload.save(update_fields=["figures"])


def _import_totals(upload: PokerNowImport) -> Totals:
    """The import's sums as kept at import time (replayed again only when none were kept)."""
    if upload.figures:
        return Totals.from_dict(upload.figures)
    return _totals(import_hands(upload).select_related("pokernow_import"))


def _combined(parts: Iterable[Totals]) -> Totals:
    """Sums of several imports' sums (the biggest pot is the biggest of theirs)."""
    combined = Totals()
    for part in parts:
        for field in fields(Totals):
            mine, theirs = getattr(combined, field.name), getattr(part, field.name)
            merged = max(mine, theirs) if field.name == "biggest_pot_won" else mine + theirs
            setattr(combined, field.name, merged)
    return combined


def import_stats(upload: PokerNowImport) -> dict[str, Any]:
    """One import's figures (``Totals.stats()``: VPIP, PFR, … and net in its unit)."""
    return {**_import_totals(upload).stats(), "unit": upload.unit, "imported_from": "pokernow"}


def with_amount_texts(figures: dict[str, Any], unit: str | None) -> dict[str, Any]:
    """``figures`` with their amounts as PokerNow printed them (``net_won_text``,
    ``biggest_pot_won_text``), "–" where there is no one unit."""
    for name in ("net_won", "biggest_pot_won"):
        figures[name + "_text"] = "–" if unit is None else amount(figures[name], unit)
    return figures


def import_page_figures(upload: PokerNowImport) -> dict[str, Any]:
    """One import's figures for its own page (``tables.imports.hooks.import_figures``)."""
    return with_amount_texts(import_stats(upload), upload.unit)


def player_pokernow_stats(player: Player) -> dict[str, Any] | None:
    """The player's figures over every imported hand; None without any. The chip figures
    in amounts are left out where the imports' units differ (a cent and a chip do not add up)."""
    uploads = [upload for upload in player_imports(player) if upload.imported]
    if not uploads:
        return None
    stats = {**_combined(map(_import_totals, uploads)).stats(), "imported_from": "pokernow"}
    units = {upload.unit for upload in uploads}
    if len(units) == 1:
        stats["unit"] = units.pop()
    else:
        for chip_figure in ("net_won", "biggest_pot_won"):  # bb/100 is in big blinds
            stats[chip_figure] = None
        stats["unit"] = None
    return stats
