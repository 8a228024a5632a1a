"""Eliminations, places and prizes, and the end of a tournament.

Callers hold the tournament row lock (after the table's). A player out is given an
``out_order`` at once; places follow once registration is closed (until then the number of
entrants can still grow), and each decided place in the money is paid through the ledger at
once, exactly once (``Entry.place`` is set in the same transaction as the payment).
"""

from __future__ import annotations

from itertools import groupby

from django.utils import timezone

from tables.models import LedgerEntry, Table
from tables.services.events import table_touch
from tables.services.players import ledger_record
from tables.tournaments import structure
from tables.tournaments.models import Entry, Tournament


def entries_out(tournament: Tournament, outs: dict[int, int]) -> None:
    """Players (id -> chips at the start of the hand) went out in the same hand: fewer chips
    at the start goes out first; equal chips share one ``out_order`` (and their places)."""
    if not outs:
        return
    done = tournament.entries.filter(out_order__isnull=False).count()
    now = timezone.now()
    for chips, group in groupby(sorted(outs.items(), key=lambda item: item[1]), lambda i: i[1]):
        players = [player_id for player_id, _ in group]
        Entry.objects.filter(tournament=tournament, player_id__in=players).update(
            out_order=done + 1, out_chips=chips, out_at=now
        )
        done += len(players)


def places_decide(tournament: Tournament) -> None:
    """Give places (and pay the prizes) to every player out whose place is not yet given,
    once registration is closed. Last out (highest ``out_order``) finishes first."""
    if tournament.registration_open:
        return
    entries = list(tournament.entries.select_related("player").order_by("out_order", "pk"))
    total = len(entries)
    prizes = structure.prize_table(
        tournament.prize_pool, total, tournament.payouts, tournament.payout_percentages
    )
    prizes += [0] * (total - len(prizes))
    for order, group in groupby(
        (e for e in entries if e.out_order is not None), key=lambda e: e.out_order
    ):
        tied = list(group)
        best = total - order - len(tied) + 2  # the group holds places best .. best+len-1
        if tied[0].place is not None:
            continue
        for entry, prize in zip(
            tied, structure.shared_prizes(prizes, best, len(tied)), strict=True
        ):
            entry.place, entry.prize = best, prize
            entry.save(update_fields=["place", "prize"])
            if prize:
                ledger_record(
                    player=entry.player,
                    amount=prize,
                    kind=LedgerEntry.Kind.TOURNAMENT_PRIZE,
                    reason=f"Place {best} in {tournament.name}",
                )


def tournament_finish(tournament: Tournament, standing: dict[int, int]) -> None:
    """The end: the players still in (id -> chips) are ranked by chips (equal chips share),
    places and prizes given, the tables closed (their chips were the tournament's)."""
    entries_out(tournament, standing)
    tournament.registration_open = False
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = timezone.now()
    tournament.hand_for_hand = False
    tournament.save(update_fields=["registration_open", "status", "finished_at", "hand_for_hand"])
    places_decide(tournament)
    for tt in tournament.tables.filter(broken_at__isnull=True).select_related("table"):
        table_close_for_tournament(tt.table)
    tournament.tables.filter(broken_at__isnull=True).update(broken_at=timezone.now())


def table_close_for_tournament(table: Table) -> None:
    """Close a tournament table: its seats go (their chips were moved or ranked already).
    Caller holds the table row lock."""
    table.seats.all().delete()
    table.status = Table.Status.CLOSED
    table.closed_at = timezone.now()
    table.action_deadline = None
    table.next_hand_at = None
    table_touch(table, "status", "closed_at", "action_deadline", "next_hand_at")
