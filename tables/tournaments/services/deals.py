"""A deal at the final table: the players left split the prize money still to be paid.

Any player still in proposes one (by ICM or chip chop, optionally keeping an amount back for
the eventual winner) once every player left sits at one table and nobody out can come back
(``deals.deal_refusal``). From then the level clock stands still and no hand is dealt. The
offer shows each player's share, from the stacks as they are (proposed during a hand: as they
are when it ends, ``deal_hand_over``); the proposer agrees by proposing (when the shares are
shown at once) and the croupier's bots agree as soon as they see theirs. Each other player
accepts or refuses from their own screen; one refusal ends it, and an offer left unanswered
``ANSWER_SECONDS`` lapses (``deals_lapse``): the clock runs again.

Once everyone agrees the deal is made: each share is paid at once through the ledger (it is
part of the player's ``Entry.prize``; ``Entry.deal_share`` records it). Nothing kept: the
tournament ends there, places by chips. An amount kept: play goes on for it, the winner is
paid it on top of their share, and the places below pay nothing more (``places_decide``).
Prizes paid still add up to the prize pool, to the chip (``engine.icm.deal`` splits in whole
chips that add up).

Locks: the final table, then the tournament row, then player rows (the ledger).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from engine import icm
from tables.db import statements
from tables.models import Hand, LedgerEntry, Player, Seat, Table
from tables.services.events import table_lock, table_touch
from tables.services.players import ledger_record
from tables.tournaments.deals import deal_refusal, unpaid_prizes
from tables.tournaments.errors import DealRefused
from tables.tournaments.models import Deal, Entry, Tournament
from tables.tournaments.services import places
from tables.tournaments.services.setup import tournament_lock

#: Seconds the players have to decide on an offer before it lapses.
ANSWER_SECONDS = 120


def _final_table_id(tournament: Tournament) -> int | None:
    return (
        Seat.objects.filter(table__tournament_table__tournament=tournament)
        .values_list("table_id", flat=True)
        .first()
    )


def _hand_running(table: Table) -> bool:
    return Hand.objects.filter(table=table, status=Hand.Status.RUNNING).exists()


def deal_propose(
    *,
    tournament: Tournament,
    player: Player,
    method: str = Deal.Method.ICM,
    keep: Any = 0,
    now: datetime | None = None,
) -> Deal:
    """``player`` proposes a deal (see the module docstring); ``DealRefused`` says why not,
    and nothing changes."""
    now = now or timezone.now()
    if method not in Deal.Method.values:
        raise DealRefused(f"A deal is made by {' or '.join(Deal.Method.values)}, not {method!r}.")
    if isinstance(keep, bool) or not isinstance(keep, int) or keep < 0:
        raise DealRefused("The amount kept to play for is a whole number of chips, 0 or more.")
    with transaction.atomic():
        table_id = _final_table_id(tournament)
        table = table_lock(table_id) if table_id is not None else None
        tournament = tournament_lock(tournament)
        problem = deal_refusal(tournament, player.pk)
        if problem is None and (table is None or _final_table_id(tournament) != table.pk):
            problem = "The players are moving between tables: try again in a moment."
        if problem is not None:
            raise DealRefused(problem)
        assert table is not None
        seated = list(table.seats.values_list("player_id", flat=True))
        prizes = unpaid_prizes(tournament, len(seated))
        try:  # the method and the amount kept, against the prizes (the stacks come later)
            icm.deal([1] * len(seated), prizes, method, keep)  # type: ignore[arg-type]
        except icm.DealError as error:
            raise DealRefused(f"No such deal: {error}.") from None
        deal = Deal.objects.create(
            tournament=tournament, proposed_by=player, method=method, keep=keep, prizes=prizes
        )
        tournament.paused_at = now
        tournament.save(update_fields=["paused_at"])
        if not _hand_running(table):
            _offer(deal, tournament, table, now, proposer_agrees=True)
        table_touch(table)
    return deal


def _offer(
    deal: Deal, tournament: Tournament, table: Table, now: datetime, *, proposer_agrees: bool
) -> None:
    """Work out the shares from the stacks now; the bots (and the proposer, when they see the
    shares as they propose) agree. A deal that no longer fits (players left or prizes
    changed under the amount kept) lapses."""
    seats = sorted(
        table.seats.select_related("player").values_list("player_id", "stack", "player__is_bot"),
        key=lambda row: (-row[1], row[0]),
    )
    prizes = unpaid_prizes(tournament, len(seats))
    try:
        shares = icm.deal([s[1] for s in seats], prizes, deal.method, deal.keep)  # type: ignore[arg-type]
    except icm.DealError:
        _close(deal, tournament, Deal.Status.LAPSED, now)
        return
    deal.prizes = prizes
    deal.offer = [
        {"player_id": pid, "chips": chips, "share": share}
        for (pid, chips, _), share in zip(seats, shares, strict=True)
    ]
    deal.agreed = [pid for pid, _, is_bot in seats if is_bot]
    if proposer_agrees and deal.proposed_by_id not in deal.agreed:
        deal.agreed.append(deal.proposed_by_id)
    deal.offered_at = now
    deal.save(update_fields=["prizes", "offer", "agreed", "offered_at"])
    if _everyone_agreed(deal):
        _make(deal, tournament, table, now)


def _everyone_agreed(deal: Deal) -> bool:
    return bool(deal.offer) and {row["player_id"] for row in deal.offer} <= set(deal.agreed)


def deal_answer(
    *, tournament: Tournament, player: Player, accept: bool, now: datetime | None = None
) -> Deal:
    """``player`` accepts or refuses the deal being decided; a refusal ends it. ``DealRefused``
    says why the answer is not taken, and nothing changes."""
    now = now or timezone.now()
    if not isinstance(accept, bool):
        raise DealRefused("Answer a deal with accept true or false.")
    with transaction.atomic():
        table_id = _final_table_id(tournament)
        table = table_lock(table_id) if table_id is not None else None
        tournament = tournament_lock(tournament)
        deal = tournament.deals.select_for_update().filter(status=Deal.Status.PENDING).first()
        if deal is None or table is None:
            raise DealRefused(f"No deal is being decided in {tournament.name}.")
        in_it = {row["player_id"] for row in deal.offer} or set(
            table.seats.values_list("player_id", flat=True)
        )
        if player.pk not in in_it:
            raise DealRefused("Only the players in the deal answer it.")
        if player.pk in deal.agreed:
            raise DealRefused("You have agreed to this deal already.")
        if not accept:
            deal.refused_by = player
            deal.save(update_fields=["refused_by"])
            _close(deal, tournament, Deal.Status.REFUSED, now)
        elif not deal.offer:
            raise DealRefused("The shares are shown when the hand being played ends: agree then.")
        else:
            deal.agreed.append(player.pk)
            deal.save(update_fields=["agreed"])
            if _everyone_agreed(deal):
                _make(deal, tournament, table, now)
        table_touch(table)
    return deal


def _close(deal: Deal, tournament: Tournament, status: str, now: datetime) -> None:
    """The deal ends (made, refused or lapsed): the level clock runs again."""
    deal.status, deal.decided_at = status, now
    deal.save(update_fields=["status", "decided_at"])
    if tournament.paused_at is not None:
        tournament.paused_for += max(now - tournament.paused_at, timedelta(0))
        tournament.paused_at = None
        tournament.save(update_fields=["paused_at", "paused_for"])


def _make(deal: Deal, tournament: Tournament, table: Table, now: datetime) -> None:
    """Everyone agreed: pay the shares; nothing kept ends the tournament, places by chips."""
    _close(deal, tournament, Deal.Status.MADE, now)
    how = deal.get_method_display()
    entries = {
        e.player_id: e for e in Entry.objects.filter(tournament=tournament).select_related("player")
    }
    for row in deal.offer:
        entry = entries[row["player_id"]]
        entry.deal_share = row["share"]
        entry.prize += row["share"]
        entry.save(update_fields=["deal_share", "prize"])
        if row["share"]:
            ledger_record(
                player=entry.player,
                amount=row["share"],
                kind=LedgerEntry.Kind.TOURNAMENT_PRIZE,
                reason=f"Deal ({how}) in {tournament.name}",
            )
    if not deal.keep:
        places.tournament_finish(tournament, {row["player_id"]: row["chips"] for row in deal.offer})


def deal_hand_over(tournament: Tournament, table: Table, now: datetime) -> None:
    """After a hand at ``table`` (its lock and the tournament's held): a deal proposed during
    the hand gets its shares from the stacks now; a finished tournament's lapses."""
    deal = tournament.deals.filter(status=Deal.Status.PENDING).first()
    if deal is None:
        return
    if tournament.status != Tournament.Status.RUNNING:
        _close(deal, tournament, Deal.Status.LAPSED, now)
    elif not deal.offer:
        _offer(deal, tournament, table, now, proposer_agrees=False)


def deals_lapse(now: datetime) -> None:
    """Offers left unanswered ``ANSWER_SECONDS`` lapse (the croupier's pass)."""
    due = now - timedelta(seconds=ANSWER_SECONDS)
    # every croupier pass reads this (most often to find none): one compiled statement, the
    # time compared here
    offered = statements.select_values(Deal, "deals-pending", _offered, Deal.Status.PENDING)
    stale = [tournament for tournament, at in offered if at is not None and at < due]
    for tournament_id in stale:
        with transaction.atomic():
            table_id = _final_table_id(Tournament(pk=tournament_id))
            table = table_lock(table_id, skip_locked=True) if table_id is not None else None
            if table_id is not None and table is None:
                continue  # busy: the next pass looks again
            tournament = tournament_lock(tournament_id)
            deal = tournament.deals.filter(status=Deal.Status.PENDING, offered_at__lt=due).first()
            if deal is not None:
                _close(deal, tournament, Deal.Status.LAPSED, now)
                if table is not None:
                    table_touch(table)


def _offered(status: str) -> QuerySet[Deal, tuple[int, datetime | None]]:
    """(tournament id, when offered) of the deals of ``status``."""
    return Deal.objects.filter(status=status).values_list("tournament_id", "offered_at")
