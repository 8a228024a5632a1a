"""Registering and unregistering for a tournament, starting it (``create`` makes it).

Locks: the tournament row (``tournament_lock``), then player rows for the ledger. A late
registration seats the player, so it locks the table first (tables before the tournament, the
order every tournament service keeps).
"""

from __future__ import annotations

import math
import random
from datetime import datetime

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from tables.db import statements
from tables.models import LedgerEntry, Player, Seat, Table
from tables.services.events import table_lock, table_touch
from tables.services.players import ledger_record
from tables.tournaments.errors import (
    AlreadyRegistered,
    NotOrganiser,
    NotRegistered,
    RegistrationClosed,
    TooFewEntrants,
    TournamentFull,
    TournamentNotRegistering,
)
from tables.tournaments.models import Entry, Tournament, TournamentTable
from tables.tournaments.selectors import may_reenter
from tables.tournaments.services import lookup
from tables.tournaments.services.bots import tournament_bot
from tables.tournaments.services.places import outs_rank

Format, Start, Status = Tournament.Format, Tournament.Start, Tournament.Status
#: Seconds of time bank each player has at a tournament's tables (refilled at each level by
#: ``Tournament.time_bank_refill_seconds``, up to this).
TOURNAMENT_TIME_BANK = 30


def tournament_lock(tournament: Tournament | int) -> Tournament:
    """Lock the tournament row and return a fresh copy (inside ``transaction.atomic()``)."""
    pk = tournament.pk if isinstance(tournament, Tournament) else tournament
    return Tournament.objects.select_for_update().get(pk=pk)


def entry_add(*, tournament: Tournament, player: Player) -> Entry:
    """Internal: enter ``player`` (fee from the bankroll into the pool). Caller holds the
    tournament row lock (or created it), inside ``transaction.atomic()``."""
    if tournament.entry_fee:
        ledger_record(
            player=player,
            amount=-tournament.entry_fee,
            kind=LedgerEntry.Kind.TOURNAMENT_ENTRY,
            reason=f"Entry to {tournament.name}",
        )
    tournament.prize_pool += tournament.prize_part  # the bounty goes on the player's head
    Tournament.objects.filter(pk=tournament.pk).update(prize_pool=tournament.prize_pool)
    return Entry.objects.create(
        tournament=tournament,
        player=player,
        fee_paid=tournament.entry_fee,
        bounty=tournament.bounty,
    )


def tournament_register(*, tournament: Tournament, player: Player) -> Entry:
    """Enter ``player``: before the start, or during late registration (seated at once at the
    shortest table); a player out enters again there when re-entry is on (``max_reentries``:
    a new fee, a new starting stack, the same entry). A sit & go or fixed-hands game that
    starts when full starts with the last entry. Lock: the shortest table (late), the
    tournament row, the player row."""
    with transaction.atomic():
        late_table = None
        status = Tournament.objects.values_list("status", flat=True).get(pk=tournament.pk)
        if status == Status.RUNNING:
            late_table = shortest_table(tournament)
            if late_table is not None:
                late_table = table_lock(late_table)
        tournament = tournament_lock(tournament)
        if tournament.status == Status.FINISHED or not tournament.registration_open:
            raise RegistrationClosed(f"Registration for {tournament.name} is closed.")
        if tournament.status == Status.RUNNING and (
            late_table is None or tournament.format == Format.FIXED_HANDS
        ):
            raise RegistrationClosed(f"{tournament.name} has started.")
        entry = tournament.entries.filter(player=player).first()
        if entry is not None and not may_reenter(tournament, entry):
            raise AlreadyRegistered(f"You are already in {tournament.name}.")
        if (
            entry is None
            and tournament.max_entrants
            and tournament.entries.count() >= tournament.max_entrants
        ):
            raise TournamentFull(f"{tournament.name} is full.")
        if late_table is not None:
            free = set(range(late_table.max_seats)) - set(
                late_table.seats.values_list("number", flat=True)
            )
            if not free:
                raise TournamentFull(f"{tournament.name} has no free seat right now.")
        if entry is None:
            entry = entry_add(tournament=tournament, player=player)
        else:
            _reenter(tournament, entry)
        if late_table is not None:
            seat_down(late_table, player, min(free), tournament.starting_stack)
        elif (
            tournament.start == Start.WHEN_FULL
            and tournament.entries.count() == tournament.max_entrants
        ):
            _start(tournament, random.SystemRandom())
        return entry


def _reenter(tournament: Tournament, entry: Entry) -> None:
    """The entry comes back with a new fee (into the pool) and a starting stack (seated by the
    caller). Caller holds the tournament lock, registration open."""
    entry_fee_pay(tournament, entry, f"Re-entry to {tournament.name}")
    entry.reentries += 1
    entry.out_batch = entry.out_order = entry.out_chips = entry.out_at = None
    out = ["out_batch", "out_order", "out_chips", "out_at"]
    entry.save(update_fields=["reentries", "fee_paid", "bounty", *out])
    outs_rank(tournament)


def entry_fee_pay(tournament: Tournament, entry: Entry, reason: str) -> None:
    """Internal: ``entry``'s player pays the entry fee again (a rebuy or re-entry) into the
    prize pool (its bounty onto their head), through the ledger. Caller holds the tournament
    lock and saves ``entry``."""
    if tournament.entry_fee:
        ledger_record(
            player=entry.player,
            amount=-tournament.entry_fee,
            kind=LedgerEntry.Kind.TOURNAMENT_ENTRY,
            reason=reason,
        )
    tournament.prize_pool += tournament.prize_part
    Tournament.objects.filter(pk=tournament.pk).update(prize_pool=tournament.prize_pool)
    entry.fee_paid += tournament.entry_fee
    entry.bounty += tournament.bounty


def tournament_unregister(*, tournament: Tournament, player: Player) -> None:
    """Take ``player``'s entry back before the start: the fee is refunded through the ledger.
    Lock: the tournament row, the player row."""
    with transaction.atomic():
        tournament = tournament_lock(tournament)
        if tournament.status != Status.REGISTERING:
            raise TournamentNotRegistering(f"{tournament.name} has started: no refunds now.")
        entry = tournament.entries.filter(player=player).first()
        if entry is None:
            raise NotRegistered(f"You are not in {tournament.name}.")
        if entry.fee_paid:
            ledger_record(
                player=player,
                amount=entry.fee_paid,
                kind=LedgerEntry.Kind.TOURNAMENT_REFUND,
                reason=f"Unregistered from {tournament.name}",
            )
        Tournament.objects.filter(pk=tournament.pk).update(
            prize_pool=tournament.prize_pool - (entry.fee_paid - entry.bounty)
        )
        entry.delete()


def tournament_start(
    *, tournament: Tournament, by: Player | None = None, rng: random.Random | None = None
) -> Tournament:
    """Start now: random seating over as few tables as hold everyone, as even as can be.

    ``by``: the player asking (the organiser or staff; None for the croupier). ``rng``: the
    seating's randomness (tests pass a seeded one). Lock: the tournament row.
    """
    with transaction.atomic():
        tournament = tournament_lock(tournament)
        if by is not None and tournament.organiser_id != by.pk and not by.user.is_staff:
            raise NotOrganiser("Only the organiser starts this tournament.")
        if tournament.status != Status.REGISTERING:
            raise TournamentNotRegistering(f"{tournament.name} has already started.")
        fewest = 1 if tournament.format == Format.FIXED_HANDS else 2  # bots fill fixed hands
        if tournament.entries.count() < fewest:
            raise TooFewEntrants("A tournament needs at least two entrants to start.")
        _start(tournament, rng or random.SystemRandom())
        return tournament


def tournaments_start_due(now: datetime) -> list[int]:
    """Start the tournaments whose set time has come (the croupier's pass); with fewer than two
    entrants, the tournament is finished and every fee refunded. Ids of those started."""
    started = []
    # every croupier pass reads this (most often to find nothing due): one compiled statement,
    # the time compared here
    waiting = statements.select_values(
        Tournament, "tournaments-at-time", _at_time, Status.REGISTERING, Start.AT_TIME
    )
    due = [pk for pk, start_at in waiting if start_at is not None and start_at <= now]
    for pk in due:
        with transaction.atomic():
            tournament = tournament_lock(pk)
            if tournament.status != Status.REGISTERING:
                continue
            if tournament.entries.count() < 2:
                _cancel(tournament)
                continue
            _start(tournament, random.SystemRandom())
            started.append(pk)
    return started


def _at_time(status: str, start: str) -> QuerySet[Tournament, tuple[int, datetime | None]]:
    """(pk, start time) of the tournaments of ``status`` that start at their set time."""
    return (
        Tournament.objects.filter(status=status).filter(start=start).values_list("pk", "start_at")
    )


def _cancel(tournament: Tournament) -> None:
    for entry in tournament.entries.select_related("player"):
        if entry.fee_paid:
            ledger_record(
                player=entry.player,
                amount=entry.fee_paid,
                kind=LedgerEntry.Kind.TOURNAMENT_REFUND,
                reason=f"{tournament.name} did not start",
            )
    tournament.entries.all().delete()
    Tournament.objects.filter(pk=tournament.pk).update(
        status=Status.FINISHED, prize_pool=0, finished_at=timezone.now(), registration_open=False
    )


def _start(tournament: Tournament, rng: random.Random) -> None:
    """Caller holds the tournament lock: make the tables and seat everyone at random."""
    entries = list(tournament.entries.select_related("player").order_by("pk"))
    rng.shuffle(entries)
    seats = tournament.seats_per_table
    count = math.ceil(len(entries) / seats)
    if tournament.format == Format.FIXED_HANDS:
        while len(entries) < seats:  # bots fill the table from the start
            entries.append(entry_add(tournament=tournament, player=tournament_bot(tournament)))
    level = tournament.levels[0]
    for number in range(1, count + 1):
        table = Table.objects.create(
            name=f"{tournament.name[:50]} #{tournament.pk}.{number}",
            game=tournament.game,
            betting=tournament.betting,
            **Table(game=tournament.game, betting=tournament.betting).level_stakes(
                level["small_blind"], level["big_blind"], level["ante"]
            ),
            max_seats=seats,
            action_seconds=tournament.action_seconds,
            time_bank_seconds=TOURNAMENT_TIME_BANK,
            private=tournament.private,  # a private tournament's tables are hidden as it is
        )
        TournamentTable.objects.create(tournament=tournament, table=table, number=number)
        lookup.table_made(table.pk)
        # Dealt round-robin: the tables differ by one player at most.
        for seat_number, entry in enumerate(entries[number - 1 :: count]):
            seat_down(table, entry.player, seat_number, tournament.starting_stack)
    now = timezone.now()
    tournament.status = Status.RUNNING
    tournament.started_at = now
    tournament.registration_open = tournament.late_registration_levels > 0
    tournament.rebuys_open = tournament.rebuy_levels > 0
    tournament.save(update_fields=["status", "started_at", "registration_open", "rebuys_open"])


def seat_down(table: Table, player: Player, number: int, stack: int) -> Seat:
    """Internal: seat ``player`` with tournament chips (none from a bankroll). Caller holds the
    table row lock (or made the table)."""
    seat = Seat.objects.create(
        table=table, number=number, player=player, stack=stack, time_bank=table.time_bank_seconds
    )
    table_touch(table)
    return seat


def shortest_table(tournament: Tournament) -> Table | None:
    """The open table of a running tournament with the fewest players and a free seat."""
    best = None
    for tt in tournament.tables.filter(broken_at__isnull=True).select_related("table"):
        taken = tt.table.seats.count()
        if taken < tt.table.max_seats and (best is None or taken < best[0]):
            best = (taken, tt.table)
    return best[1] if best else None
