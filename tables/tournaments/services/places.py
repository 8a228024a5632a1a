"""Eliminations, places and prizes, and the end of a tournament.

Callers hold the tournament row lock (after the table's). A player out is given an
``out_order`` at once; places follow once nobody out can come back (late registration and
rebuys over: until then the number of entrants can still grow and players out can return),
and each decided place in the money is paid through the ledger at once, exactly once
(``Entry.place`` is set in the same transaction as the payment). After a final-table deal its
players' places pay only the amount kept back, to the winner (``services.deals``).
"""

from __future__ import annotations

from itertools import groupby

from django.utils import timezone

from tables.models import Hand, LedgerEntry, Table
from tables.services.events import table_touch
from tables.services.players import ledger_record
from tables.tournaments import structure
from tables.tournaments.models import Deal, Entry, Tournament
from tables.tournaments.services import bounties, satellites


def new_batch(tournament: Tournament) -> int:
    """A new elimination batch (a hand's players out), later than every one before."""
    tournament.out_batches += 1
    Tournament.objects.filter(pk=tournament.pk).update(out_batches=tournament.out_batches)
    return tournament.out_batches


def entries_out(tournament: Tournament, outs: dict[int, int], batch: int | None = None) -> None:
    """Players (id -> chips at the start of the hand) went out in elimination ``batch`` (a
    new one when None): in a batch, fewer chips at the start goes out first and equal chips
    share one ``out_order`` (and their places). A hand-for-hand round is one batch across
    its tables, so players out at different tables in it are ranked together."""
    if not outs:
        return
    batch = new_batch(tournament) if batch is None else batch
    now = timezone.now()
    for player_id, chips in outs.items():
        Entry.objects.filter(tournament=tournament, player_id=player_id).update(
            out_batch=batch, out_chips=chips, out_at=now
        )
    outs_rank(tournament)


def outs_rank(tournament: Tournament) -> None:
    """Number the players out (``out_order``) from their batches and chips: an earlier batch
    is out first; in one batch fewer chips first, equal chips share. Run again after a player
    comes back (rebuy, re-entry) or a batch grows: only changed numbers are written."""
    out = list(
        tournament.entries.filter(out_batch__isnull=False)
        .order_by("out_batch", "out_chips", "pk")
        .values_list("pk", "out_batch", "out_chips", "out_order")
    )
    done = 0
    for _key, group in groupby(out, key=lambda row: (row[1], row[2])):
        tied = list(group)
        changed = [pk for pk, _, _, order in tied if order != done + 1]
        if changed:
            Entry.objects.filter(pk__in=changed).update(out_order=done + 1)
        done += len(tied)


def _round_pending(tournament: Tournament) -> bool:
    """The current hand-for-hand round may still put players out: a table is playing its
    hand of the round, or has not dealt it yet."""
    if not tournament.hand_for_hand_round:
        return False
    tables = tournament.tables.filter(broken_at__isnull=True)
    playing = Hand.objects.filter(
        table__tournament_table__in=tables.filter(round_hand=True), status=Hand.Status.RUNNING
    ).exists()
    return playing or tables.filter(hand_for_hand_round__lt=tournament.hand_for_hand_round).exists()


def places_decide(tournament: Tournament) -> None:
    """Give places (and pay the prizes) to every player out whose place is not yet given,
    once nobody out can come back (``Tournament.places_open``). Last out finishes first.
    Players out in a hand-for-hand round still being played (and after it) wait for it."""
    if tournament.places_open:
        return
    undecided = list(
        tournament.entries.filter(out_order__isnull=False, place__isnull=True)
        .select_related("player")
        .order_by("out_order", "pk")
    )
    if not undecided:
        return
    waiting_from = None
    if tournament.status != Tournament.Status.FINISHED and _round_pending(tournament):
        waiting_from = tournament.hand_for_hand_batch
    total = tournament.entries.count()
    prizes = structure.prize_table(
        tournament.prize_pool,
        total,
        tournament.payouts,
        tournament.payout_percentages,
        seat_value=tournament.seat_value,
    )
    prizes += [0] * (total - len(prizes))
    _deal_prizes(tournament, prizes)
    # A group of players out together is given its places together (never half of it).
    for order, group in groupby(undecided, key=lambda e: e.out_order):
        tied = list(group)
        best = total - order - len(tied) + 2  # the group holds places best .. best+len-1
        batch = tied[0].out_batch
        if waiting_from is not None and batch is not None and batch >= waiting_from:
            break  # this batch or a later one may still grow: its places would move
        # A satellite's seats go to groups wholly within them (else their value in chips).
        seats = tournament.seats if best + len(tied) - 1 <= tournament.seats else 0
        for entry, prize in zip(
            tied, structure.shared_prizes(prizes, best, len(tied)), strict=True
        ):
            entry.place = best
            entry.prize += prize  # on top of a deal's share, paid at the deal
            if seats:
                satellites.seat_award(tournament, entry, prize)
            entry.save(update_fields=["place", "prize", "seat"])
            if prize and not seats:
                ledger_record(
                    player=entry.player,
                    amount=prize,
                    kind=LedgerEntry.Kind.TOURNAMENT_PRIZE,
                    reason=f"Place {best} in {tournament.name}",
                )


def _deal_prizes(tournament: Tournament, prizes: list[int]) -> None:
    """After a deal its players (places 1 .. n) have their shares: what is left of the
    places' prizes is the amount kept back, for the winner."""
    deal = tournament.deals.filter(status=Deal.Status.MADE).only("keep", "offer").first()
    if deal is not None:
        prizes[: len(deal.offer)] = [deal.keep] + [0] * (len(deal.offer) - 1)


def tournament_finish(tournament: Tournament, standing: dict[int, int]) -> None:
    """The end: the players still in (id -> chips) are ranked by chips (equal chips share),
    places and prizes given, the tables closed (their chips were the tournament's). Each
    one's final count stays on record (``Entry.final_chips``) beside the place."""
    entries_out(tournament, standing)
    for player_id, chips in standing.items():
        Entry.objects.filter(tournament=tournament, player_id=player_id).update(final_chips=chips)
    tournament.registration_open = False
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = timezone.now()
    tournament.hand_for_hand = False
    tournament.save(update_fields=["registration_open", "status", "finished_at", "hand_for_hand"])
    places_decide(tournament)
    bounties.heads_collect(tournament)  # the heads still on the table go to their players
    for tt in tournament.tables.filter(broken_at__isnull=True).select_related("table"):
        table_close_for_tournament(tt.table)
    tournament.tables.filter(broken_at__isnull=True).update(broken_at=timezone.now())


def table_close_for_tournament(table: Table) -> None:
    """Close a tournament table: its seats go (their chips were moved or ranked already).
    Caller holds the table row lock."""
    table.seats.all().delete()
    table.status = Table.Status.CLOSED
    table.closed_at = timezone.now()
    table.action_deadline, table.action_banked = None, False
    table.next_hand_at = None
    table_touch(table, "status", "closed_at", "action_deadline", "action_banked", "next_hand_at")
