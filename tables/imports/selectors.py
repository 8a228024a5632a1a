"""Reads of imported games, always of one player's own imports."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, QuerySet, Sum

from tables.imports.models import ImportedHand, PokerNowImport
from tables.models import Player


@dataclass(frozen=True)
class ImportTotals:
    """One import's figures, in its own unit (never added to play chips)."""

    hands: int
    net: int
    won: int


def player_imports(player: Player) -> QuerySet[PokerNowImport]:
    return PokerNowImport.objects.filter(player=player)


def player_import(player: Player, import_id: int) -> PokerNowImport | None:
    """The player's import ``import_id``; None for another's (they are private)."""
    return PokerNowImport.objects.filter(player=player, pk=import_id).first()


def import_hands(upload: PokerNowImport) -> QuerySet[ImportedHand]:
    return upload.hands.all()


def player_imported_hand(player: Player, hand_id: int) -> ImportedHand | None:
    return ImportedHand.objects.filter(player=player, pk=hand_id).first()


def import_totals(upload: PokerNowImport) -> ImportTotals:
    figures = upload.hands.aggregate(hands=Count("pk"), net=Sum("net"))
    won = upload.hands.filter(net__gt=0).count()
    return ImportTotals(hands=figures["hands"], net=figures["net"] or 0, won=won)
