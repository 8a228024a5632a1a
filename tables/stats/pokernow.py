"""Statistics of a player's hands imported from PokerNow (``tables.imports``): the same figures
as this site's hands (``tables.stats.figures`` over each hand's engine replay), kept apart.

Never added into the play-chip figures or the leaderboard: the amounts are PokerNow's, in
each import's own unit, so net and biggest pot are summed only within one import (a player's
figures over all imports count hands and percentages, and net per unit).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine import phh
from tables.imports.models import ImportedHand, PokerNowImport
from tables.imports.selectors import import_hands, player_imported_hands
from tables.models import Player
from tables.stats.figures import SeatFigures, Totals, seat_figures


def imported_hand_figures(hand: ImportedHand, pokernow_name: str) -> SeatFigures:
    """What ``pokernow_name`` did in ``hand``, counted as a hand of this site is."""
    history = phh.loads(hand.phh, source=f"PokerNow hand #{hand.number}")
    seat = (history.players or []).index(pokernow_name)
    return seat_figures(history.replay())[seat]


def _totals(hands: Iterable[ImportedHand]) -> Totals:
    totals = Totals()
    for hand in hands:
        totals.add(imported_hand_figures(hand, hand.pokernow_import.pokernow_name))
    return totals


def import_stats(upload: PokerNowImport) -> dict[str, Any]:
    """One import's figures (``Totals.stats()``: VPIP, PFR, … and net in its unit)."""
    hands = import_hands(upload).select_related("pokernow_import")
    return {**_totals(hands).stats(), "unit": upload.unit, "imported_from": "pokernow"}


def player_pokernow_stats(player: Player) -> dict[str, Any] | None:
    """The player's figures over every imported hand; None without any. The chip figures
    in amounts are left out where the imports' units differ (a cent and a chip do not add up)."""
    hands = list(player_imported_hands(player).select_related("pokernow_import"))
    if not hands:
        return None
    stats = {**_totals(hands).stats(), "imported_from": "pokernow"}
    units = {hand.pokernow_import.unit for hand in hands}
    if len(units) == 1:
        stats["unit"] = units.pop()
    else:
        for chip_figure in ("net_won", "biggest_pot_won"):  # bb/100 is in big blinds
            stats[chip_figure] = None
        stats["unit"] = None
    return stats
