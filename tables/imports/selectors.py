"""Reads of imported games, always of one player's own imports."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Count, F, FloatField, Q, QuerySet, Sum
from django.db.models.functions import Cast, Coalesce

from engine.hand import Hand as EngineHand
from tables.imports.models import ImportedHand, PokerNowImport
from tables.models import Player
from tables.selectors.replay import ReplayStep, engine_replay_steps


@dataclass(frozen=True)
class ImportTotals:
    """One import's figures, in its own unit (never added to play chips). ``ev``: the all-in
    EV over the hands (``ImportedHand.ev_net``), a hand whose all-in was never shown counted
    at its net (``ev_unknown`` of them)."""

    hands: int
    net: int
    won: int
    ev: float = 0.0
    ev_unknown: int = 0

    @property
    def luck(self) -> int:
        """How far the net ran above (+) or below (−) the all-in EV, in whole units."""
        return round(self.net - self.ev)


def amount(chips: int, unit: str) -> str:
    """``chips`` of an import's unit as PokerNow printed amounts (``1.25`` for 125 cents)."""
    return (
        str(Decimal(chips) * Decimal(unit)).rstrip("0").rstrip(".") if "." in unit else str(chips)
    )


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
    figures = upload.hands.aggregate(
        hands=Count("pk"),
        total_net=Sum("net"),
        total_ev=Sum(Coalesce(F("ev_net"), Cast("net", FloatField()))),
        ev_unknown=Count("pk", filter=Q(ev_net=None)),
    )
    won = upload.hands.filter(net__gt=0).count()
    return ImportTotals(
        hands=figures["hands"],
        net=figures["total_net"] or 0,
        won=won,
        ev=figures["total_ev"] or 0.0,
        ev_unknown=figures["ev_unknown"],
    )


def nickname(pokernow_name: str) -> str:
    """The name PokerNow shows at its table: ``name @ id`` without its id."""
    return pokernow_name.rsplit(" @ ", 1)[0]


def imported_hand_replay(hand: ImportedHand) -> list[ReplayStep]:
    """The replayer's steps of an imported hand, as its uploader saw it at PokerNow.

    The engine replays the hand's PHH (dealt from a deck that holds the recorded cards, the
    unknown ones filled with stand-ins); every card the log did not show stays hidden, the
    uploader's own too when the log did not show them. Seats carry PokerNow's names.
    """
    history = hand.history()
    played = history.replay()
    config = history.config()
    deck = history.deck(config)
    names = list(history.players or played.players)
    seat = names.index(hand.pokernow_import.pokernow_name)  # only hands they sat in came in
    final = EngineHand.replay(
        config,
        played.starting_stacks,
        played.button,
        deck,
        played.actions,
        [nickname(name) for name in names],
    )
    return engine_replay_steps(final, deck, seat, known=history.known_cards())


def player_imported_hands(player: Player) -> QuerySet[ImportedHand]:
    """Every hand the player imported, across imports, newest import first."""
    return (
        ImportedHand.objects.filter(player=player)
        .select_related("pokernow_import")
        .order_by("-pokernow_import__created_at", "-pokernow_import_id", "number")
    )


@dataclass(frozen=True)
class LedgerNight:
    """An imported night for the player's ledger: their net and who owes whom, as PokerNow's
    ledger printed them (never a movement of play chips)."""

    upload: PokerNowImport
    net: str | None  # the player's own net; None when the ledger does not name them
    settlement: list[dict[str, str]]


def player_ledger_nights(player: Player) -> list[LedgerNight]:
    """The player's imported nights that came with a ledger, newest first."""
    nights = []
    for upload in player_imports(player).exclude(ledger=[]):
        net = next(
            (row["net"] for row in upload.ledger if row["player"] == upload.pokernow_name), None
        )
        nights.append(LedgerNight(upload, net, list(upload.settlement)))
    return nights
