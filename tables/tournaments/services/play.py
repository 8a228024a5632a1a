"""A running tournament, through the cash game's hooks (``tables.services.hooks``).

- ``table_rules``: tournament tables seat their own players, deal players sitting out (they
  post blinds and antes; when the action clock runs out the clock checks or folds for them,
  until they are blinded away), play with bots only, deal nothing during a break or while a
  deal is decided, and wait in hand-for-hand until every table has finished the round.
- ``before_hand``: the table's stakes become the level's (``selectors.tournament_clock``:
  levels by hands follow the table that has dealt the most hands, so every table of a
  multi-table tournament is at the same level; levels by minutes follow the clock since the
  start, which stands still during breaks); late registration and rebuys close at their
  level; a hand-for-hand round begins.
- ``after_hand``: players out get their order, their bounties go to their knockers
  (``bounties``), and places and prizes once decided: players
  out anywhere in one hand-for-hand round are ranked together); the fixed-hands game ends
  after its hands and bots fill its seats; otherwise the tables are balanced and broken
  (``balance``), hand-for-hand is switched on at the bubble, and the last player standing
  wins; a deal proposed during the hand gets its shares (``deals``).
- ``croupier_pass``: tournaments due to start start; deals left unanswered lapse; a table
  left short (its neighbours were busy when it balanced) is balanced again.

Locks: the table row (held by the service calling the hook), then the tournament row, then
other tables only with ``skip_locked`` (never waiting while holding a lock: no deadlock).
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from tables.models import Hand, Seat, Table
from tables.services.events import table_lock
from tables.services.hooks import TableRules
from tables.services.time_bank import time_bank_refill
from tables.tournaments import selectors, structure
from tables.tournaments.models import Tournament, TournamentTable
from tables.tournaments.services import (
    balance,
    bots,
    bounties,
    deals,
    lookup,
    places,
    satellites,
    setup,
)

SEATED_BY_TOURNAMENT = "The tournament seats its players: no sitting down, leaving or top-ups."


def _tournament_table(table: Table) -> TournamentTable | None:
    return lookup.tournament_table(table.pk)


def table_rules(table: Table, now: datetime) -> TableRules | None:
    tt = _tournament_table(table)
    if tt is None:
        return None
    tournament = tt.tournament
    may_deal = tournament.status == Tournament.Status.RUNNING and tt.broken_at is None
    may_deal = may_deal and tournament.paused_at is None  # a deal is being decided
    if may_deal and tournament.break_every_levels:
        may_deal = not selectors.tournament_clock(tournament, now).on_break
    if may_deal and tournament.hand_for_hand:
        may_deal = tt.hand_for_hand_round < tournament.hand_for_hand_round or _round_over(
            tournament
        )
    return TableRules(
        seating_closed=SEATED_BY_TOURNAMENT,
        deal_sitting_out=True,
        bots_alone=True,
        may_deal=may_deal,
        away_keeps_clock=True,
    )


def _round_over(tournament: Tournament) -> bool:
    """Every open table has dealt the hand-for-hand round and none is still playing it."""
    tables = tournament.tables.filter(broken_at__isnull=True)
    behind = tables.filter(hand_for_hand_round__lt=tournament.hand_for_hand_round).exists()
    playing = Hand.objects.filter(
        table__tournament_table__in=tables, status=Hand.Status.RUNNING
    ).exists()
    return not behind and not playing


def before_hand(table: Table, now: datetime) -> None:
    tt = _tournament_table(table)
    if tt is None:
        return
    tournament = setup.tournament_lock(tt.tournament_id)
    if tournament.by_hands:
        # Levels by hands follow the table that has dealt the most (this one, if it leads).
        dealt_here = table.hands.count()
        tournament.hands_dealt = max(tournament.hands_dealt, dealt_here)
        index = selectors.tournament_clock(tournament, now).level
        if dealt_here + 1 > tournament.hands_dealt:  # this hand makes this table the leader
            tournament.hands_dealt = dealt_here + 1
            Tournament.objects.filter(pk=tournament.pk).update(hands_dealt=dealt_here + 1)
    else:
        index = selectors.tournament_clock(tournament, now).level
    level = tournament.levels[index]
    stakes = table.level_stakes(level["small_blind"], level["big_blind"], level["ante"])
    if any(getattr(table, name) != value for name, value in stakes.items()):
        for name, value in stakes.items():
            setattr(table, name, value)
        Table.objects.filter(pk=table.pk).update(**stakes)
        # the blinds went up: a new level gives the time banks some seconds back
        time_bank_refill(table, tournament.time_bank_refill_seconds)
    closing = False
    if tournament.registration_open and index >= tournament.late_registration_levels:
        tournament.registration_open, closing = False, True
    if tournament.rebuys_open and index >= tournament.rebuy_levels:
        tournament.rebuys_open, closing = False, True
    if closing:
        _comebacks_closed(tournament)
    # A table behind the tournament's hand-for-hand round deals its hand of it (even if
    # hand-for-hand ended meanwhile: the round began for every table); otherwise, during
    # hand-for-hand, this hand begins the next round.
    owes = tt.hand_for_hand_round < tournament.hand_for_hand_round
    if tournament.hand_for_hand and not owes:
        tournament.hand_for_hand_round += 1
        tournament.hand_for_hand_batch = places.new_batch(tournament)
        tournament.save(update_fields=["hand_for_hand_round", "hand_for_hand_batch"])
        owes = True
    if owes or tt.round_hand:
        TournamentTable.objects.filter(pk=tt.pk).update(
            hand_for_hand_round=tournament.hand_for_hand_round, round_hand=owes
        )


def _comebacks_closed(tournament: Tournament) -> None:
    """Save the end of late registration or rebuys; once nobody out can come back, the places
    of the players out are given."""
    tournament.save(update_fields=["registration_open", "rebuys_open"])
    places.places_decide(tournament)


def after_hand(table: Table, hand: Hand) -> None:
    tt = _tournament_table(table)
    if tt is None:
        return
    tournament = setup.tournament_lock(tt.tournament_id)
    if tournament.status != Tournament.Status.RUNNING:
        return
    seated = dict(table.seats.values_list("player_id", "stack"))
    outs = {s["player_id"]: s["stack"] for s in hand.seats if s["player_id"] not in seated}
    # A hand of the hand-for-hand round: its players out join the round's batch.
    batch = tournament.hand_for_hand_batch if tt.round_hand else None
    places.entries_out(tournament, outs, batch)
    bounties.knockouts_pay(tournament, hand, outs)
    if tournament.format == Tournament.Format.FIXED_HANDS:
        _fixed_hands_after(tournament, table, seated)
        return
    alive = Seat.objects.filter(table__tournament_table__tournament=tournament)
    if alive.count() <= 1:
        places.tournament_finish(tournament, dict(alive.values_list("player_id", "stack")))
        deals.deal_hand_over(tournament, table, timezone.now())
        _satellite_target_start(tournament)
        return
    paid = structure.paid_places(
        tournament.entries.count(), tournament.payouts, tournament.payout_percentages
    )
    if tournament.is_satellite:  # the seats, and the remainder's place
        paid = len(selectors.prize_list(tournament))
    if tournament.places_open and alive.count() <= paid + 1:
        # Near the money nobody comes back: late registration and rebuys end here.
        tournament.registration_open = tournament.rebuys_open = False
        _comebacks_closed(tournament)
    if satellites.satellite_over(tournament, alive.count()):
        places.tournament_finish(tournament, dict(alive.values_list("player_id", "stack")))
        _satellite_target_start(tournament)
        return
    places.places_decide(tournament)
    balance.balance(tournament, table)
    _hand_for_hand_update(tournament, alive.count(), paid)
    deals.deal_hand_over(tournament, table, timezone.now())


def _satellite_target_start(tournament: Tournament) -> None:
    """A satellite's seats filled its target, which starts when full: it starts now (its
    row locked after the satellite's, the order ``services.satellites`` keeps)."""
    target = satellites.target_to_start(tournament)
    if target is not None:
        setup.tournament_start(tournament=target)


def _fixed_hands_after(tournament: Tournament, table: Table, seated: dict[int, int]) -> None:
    played = table.hands.filter(status=Hand.Status.FINISHED).count()
    if played >= (tournament.hands or 0) or len(seated) < 1:
        places.tournament_finish(tournament, seated)
        return
    free = sorted(set(range(table.max_seats)) - set(table.seats.values_list("number", flat=True)))
    for number in free:  # bots join between hands to keep the table at its size
        bot = bots.tournament_bot(tournament)
        setup.entry_add(tournament=tournament, player=bot)
        setup.seat_down(table, bot, number, tournament.starting_stack)


def _hand_for_hand_update(tournament: Tournament, alive: int, paid: int) -> None:
    """Hand-for-hand while the next player out misses the money by one place, on more than
    one table."""
    tables = tournament.tables.filter(broken_at__isnull=True).count()
    wanted = alive == paid + 1 and tables > 1
    if wanted != tournament.hand_for_hand:
        tournament.hand_for_hand = wanted
        tournament.save(update_fields=["hand_for_hand"])


def croupier_pass(now: datetime) -> None:
    setup.tournaments_start_due(now)
    deals.deals_lapse(now)
    # A table short of players whose neighbours were busy when it balanced: try again.
    short = (
        TournamentTable.objects.filter(
            broken_at__isnull=True,
            tournament__status=Tournament.Status.RUNNING,
            tournament__format=Tournament.Format.MULTI_TABLE,
        )
        .annotate(players=Count("table__seats"))
        .filter(players__lt=2)
        .exclude(Q(table__hands__status=Hand.Status.RUNNING))
        .values_list("table_id", "tournament_id")
    )
    for table_id, tournament_id in short:
        with transaction.atomic():
            table = table_lock(table_id, skip_locked=True)
            if table is None:
                continue
            tournament = setup.tournament_lock(tournament_id)
            if tournament.status == Tournament.Status.RUNNING:
                balance.balance(tournament, table)
