"""Creating a tournament, registering and unregistering, starting it.

Locks: the tournament row (``tournament_lock``), then player rows for the ledger. A late
registration seats the player, so it locks the table first (tables before the tournament, the
order every tournament service keeps).
"""

from __future__ import annotations

import math
import random
from datetime import datetime
from typing import Any

from django.db import models, transaction
from django.utils import timezone

from engine.types import MAX_SEATS
from engine.variants import VARIANTS, variant
from tables.models import LedgerEntry, Player, Seat, Table
from tables.names import name_problem
from tables.services.events import table_touch
from tables.services.locks import table_lock
from tables.services.players import ledger_record
from tables.tournaments import structure
from tables.tournaments.errors import (
    AlreadyRegistered,
    NotOrganiser,
    NotRegistered,
    RegistrationClosed,
    TooFewEntrants,
    TournamentFull,
    TournamentInvalid,
    TournamentNotRegistering,
)
from tables.tournaments.models import Entry, Tournament, TournamentTable
from tables.tournaments.selectors import may_reenter
from tables.tournaments.services import lookup
from tables.tournaments.services.bots import tournament_bot
from tables.tournaments.services.bounties import bounty_check
from tables.tournaments.services.places import outs_rank
from tables.tournaments.services.satellites import satellite_target_check

Format, Start, Status = Tournament.Format, Tournament.Start, Tournament.Status
#: Most seats at a tournament table (the issue's 2–10, within the engine's limit per game).
MOST_SEATS = 10
#: Seconds of time bank each player has at a tournament's tables (refilled at each level by
#: ``Tournament.time_bank_refill_seconds``, up to this).
TOURNAMENT_TIME_BANK = 30


def tournament_lock(tournament: Tournament | int) -> Tournament:
    """Lock the tournament row and return a fresh copy (inside ``transaction.atomic()``)."""
    pk = tournament.pk if isinstance(tournament, Tournament) else tournament
    return Tournament.objects.select_for_update().get(pk=pk)


def _whole(value: object, field: str, *, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise TournamentInvalid(field, f"{field} must be a whole number, at least {low}.")
    if high is not None and value > high:
        raise TournamentInvalid(field, f"{field} must be at most {high}.")
    return value


def tournament_game_problem(game: str, betting: str) -> str:
    """Why ``game`` played ``betting`` cannot be a tournament's ("" when it can). Every game
    can: the levels' blinds become each game's stakes (``Table.level_stakes``); a mixed
    game's games bring their own bettings."""
    if game not in VARIANTS:
        return ""
    rules = variant(game)
    if betting not in rules.bettings:
        return f"{rules.label} is played {' or '.join(rules.bettings)}."
    return ""


def _choice(value: object, field: str, choices: type[models.TextChoices]) -> str:
    if not isinstance(value, str) or value not in choices.values:
        raise TournamentInvalid(field, f"{field} is one of: {', '.join(choices.values)}.")
    return value


def tournament_create(
    *,
    organiser: Player | None,
    name: str,
    format: str = Format.SIT_AND_GO,
    game: str = Table.DEFAULT_GAME,
    betting: str = Table.Betting.NO_LIMIT,
    seats_per_table: int = 6,
    max_entrants: int | None = None,
    entry_fee: int = 0,
    bounty_kind: str = Tournament.Bounty.NONE,
    bounty: int = 0,
    satellite_target: Tournament | int | None = None,
    starting_stack: int = 1500,
    starting_big_blinds: int | None = None,
    structure_name: str = "regular",
    levels: list[Any] | None = None,
    hands: int | None = None,
    late_registration_levels: int = 0,
    rebuy_levels: int = 0,
    max_rebuys: int = 1,
    max_reentries: int = 0,
    addon_chips: int = 0,
    addon_price: int = 0,
    break_every_levels: int = 0,
    break_minutes: int = 0,
    bot_entrants: int = 0,
    start: str = Start.MANUAL,
    start_at: datetime | None = None,
    payouts: str = Tournament.Payouts.STANDARD,
    payout_percentages: list[Any] | None = None,
    action_seconds: int = 20,
    time_bank_refill_seconds: int = 0,
) -> Tournament:
    """Create a tournament (and enter ``bot_entrants`` bots); ``TournamentInvalid`` names the
    first field that cannot be played, and nothing is created.

    Freezeout unless asked: ``rebuy_levels`` (rebuys during the first levels, at most
    ``max_rebuys`` each; an add-on of ``addon_chips`` for ``addon_price`` at their end) and
    ``max_reentries`` (during late registration). Breaks (levels by minutes only):
    ``break_minutes`` after every ``break_every_levels`` levels. ``starting_big_blinds``:
    the starting stack in the first level's big blinds (instead of ``starting_stack``).
    ``satellite_target``: its prizes are seats in that tournament (``services.satellites``).
    """
    name = (name or "").strip() if isinstance(name, str) else ""
    if not name or len(name) > 60:
        raise TournamentInvalid("name", "Give the tournament a name (1 to 60 characters).")
    name_refused = name_problem(name, "The tournament's name")
    if name_refused:
        raise TournamentInvalid("name", name_refused)
    _choice(format, "format", Format)
    if not isinstance(game, str) or game not in Table.GAMES:
        raise TournamentInvalid("game", f"game is one of: {', '.join(Table.GAMES)}.")
    _choice(betting, "betting", Table.Betting)
    game_problem = tournament_game_problem(game, betting)
    if game_problem:
        raise TournamentInvalid("game", game_problem)
    most = min(MOST_SEATS, MAX_SEATS.get(game, MOST_SEATS))
    _whole(seats_per_table, "seats_per_table", low=2, high=most)
    if format == Format.MULTI_TABLE:
        if max_entrants is not None:
            _whole(max_entrants, "max_entrants", low=2, high=100_000)
    else:  # one table
        max_entrants = seats_per_table if max_entrants is None else max_entrants
        _whole(max_entrants, "max_entrants", low=2, high=seats_per_table)
    _whole(entry_fee, "entry_fee", low=0, high=10**12)
    bounty_check(bounty_kind, bounty, entry_fee)
    target = satellite_target_check(
        satellite_target, organiser=organiser, entry_fee=entry_fee, format=format
    )
    if format == Format.FIXED_HANDS:
        hands = _whole(hands, "hands", low=1, high=10_000)
    elif hands is not None:
        raise TournamentInvalid("hands", "Only a fixed-hands tournament has a number of hands.")
    if levels is None:
        levels = structure.named_levels(structure_name, fixed_hands=hands)
        if levels is None:
            raise TournamentInvalid(
                "structure", f"structure is one of: {', '.join(structure.PRESET_MINUTES)}."
            )
        structure_name = "doubling" if "hands" in levels[0] else structure_name
    else:
        problem = structure.levels_problem(levels)
        if problem:
            raise TournamentInvalid("levels", problem)
        levels = [{"ante": 0, **level} for level in levels]
        structure_name = "custom" if structure_name != "doubling" else structure_name
    if starting_big_blinds is not None:  # the stack chosen in first-level big blinds
        big_blinds = _whole(starting_big_blinds, "starting_big_blinds", low=1, high=10**6)
        starting_stack = big_blinds * levels[0]["big_blind"]
    _whole(starting_stack, "starting_stack", low=1, high=10**12)
    _whole(late_registration_levels, "late_registration_levels", low=0, high=len(levels))
    if late_registration_levels and format == Format.FIXED_HANDS:
        raise TournamentInvalid("late_registration_levels", "Bots fill a fixed-hands game.")
    _comebacks_check(
        format, levels, late_registration_levels, rebuy_levels, max_rebuys, max_reentries
    )
    _breaks_check(levels, break_every_levels, break_minutes)
    field, addon_refused = structure.addon_problem(rebuy_levels, addon_chips, addon_price)
    if addon_refused:
        raise TournamentInvalid(field, addon_refused)
    _choice(start, "start", Start)
    if start == Start.AT_TIME:
        if start_at is None:
            raise TournamentInvalid("start", "Give the start time.")
    elif start == Start.WHEN_FULL and max_entrants is None:
        raise TournamentInvalid("start", "Only a tournament with max_entrants starts when full.")
    _choice(payouts, "payouts", Tournament.Payouts)
    percentages = list(payout_percentages or [])
    if payouts == Tournament.Payouts.CUSTOM and (
        not percentages
        or any(isinstance(p, bool) or not isinstance(p, int) or p <= 0 for p in percentages)
        or sum(percentages) != 100
        or percentages != sorted(percentages, reverse=True)
    ):
        raise TournamentInvalid(
            "payouts",
            "Give whole percentages for places 1, 2, 3..., largest first, adding up to 100.",
        )
    _whole(action_seconds, "action_seconds", low=3, high=600)
    _whole(time_bank_refill_seconds, "time_bank_refill_seconds", low=0, high=TOURNAMENT_TIME_BANK)
    _whole(bot_entrants, "bot_entrants", low=0, high=max_entrants or 10_000)
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name,
            organiser=organiser,
            format=format,
            game=game,
            betting=betting,
            seats_per_table=seats_per_table,
            max_entrants=max_entrants,
            entry_fee=entry_fee,
            bounty_kind=bounty_kind,
            bounty=bounty,
            satellite_target=target,
            seat_value=target.entry_fee if target is not None else 0,
            starting_stack=starting_stack,
            structure=structure_name,
            levels=levels,
            hands=hands,
            late_registration_levels=late_registration_levels,
            rebuy_levels=rebuy_levels,
            max_rebuys=max_rebuys,
            max_reentries=max_reentries,
            addon_chips=addon_chips,
            addon_price=addon_price,
            break_every_levels=break_every_levels,
            break_minutes=break_minutes if break_every_levels else 0,
            start=start,
            start_at=start_at if start == Start.AT_TIME else None,
            payouts=payouts,
            payout_percentages=percentages,
            action_seconds=action_seconds,
            time_bank_refill_seconds=time_bank_refill_seconds,
        )
        for _ in range(bot_entrants):
            entry_add(tournament=tournament, player=tournament_bot(tournament))
        return tournament


def _comebacks_check(
    format: str,
    levels: list[Any],
    late_registration_levels: int,
    rebuy_levels: int,
    max_rebuys: int,
    max_reentries: int,
) -> None:
    """Rebuys and re-entry: their settings can be played (``TournamentInvalid`` names one)."""
    _whole(rebuy_levels, "rebuy_levels", low=0, high=len(levels))
    _whole(max_rebuys, "max_rebuys", low=1, high=100)
    _whole(max_reentries, "max_reentries", low=0, high=100)
    if format == Format.FIXED_HANDS and (rebuy_levels or max_reentries):
        field = "rebuy_levels" if rebuy_levels else "max_reentries"
        raise TournamentInvalid(field, "A fixed-hands game has no rebuys or re-entries.")
    if max_reentries and not late_registration_levels:
        raise TournamentInvalid(
            "max_reentries", "Re-entry is during late registration: set late_registration_levels."
        )


def _breaks_check(levels: list[Any], break_every_levels: int, break_minutes: int) -> None:
    _whole(break_every_levels, "break_every_levels", low=0, high=len(levels))
    if not break_every_levels:
        return
    if "hands" in levels[0]:
        raise TournamentInvalid(
            "break_every_levels", "Breaks are for levels by minutes (these levels count hands)."
        )
    _whole(break_minutes, "break_minutes", low=1, high=120)


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
    due = Tournament.objects.filter(
        status=Status.REGISTERING, start=Start.AT_TIME, start_at__lte=now
    ).values_list("pk", flat=True)
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
