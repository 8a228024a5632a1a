"""A running tournament, through the cash game's hooks (``tables.services.hooks``).

- ``table_rules``: tournament tables seat their own players, deal players sitting out (they
  post blinds and antes; the clock folds them), play with bots only, and wait in
  hand-for-hand until every table has finished the round.
- ``before_hand``: the table's stakes become the level's (by the table's hands dealt, or the
  minutes since the start); a hand-for-hand round begins.
- ``after_hand``: players out get their order (and places and prizes once decided); the
  fixed-hands game ends after its hands and bots fill its seats; otherwise the tables are
  balanced and broken (``balance``), hand-for-hand is switched on at the bubble, and the last
  player standing wins.
- ``croupier_pass``: tournaments due to start start; a table left short (its neighbours were
  busy when it balanced) is balanced again.

Locks: the table row (held by the service calling the hook), then the tournament row, then
other tables only with ``skip_locked`` (never waiting while holding a lock: no deadlock).
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from tables.models import Hand, Seat, Table
from tables.services.hooks import TableRules
from tables.services.locks import table_lock
from tables.tournaments import structure
from tables.tournaments.models import Tournament, TournamentTable
from tables.tournaments.services import balance, lookup, places, setup

SEATED_BY_TOURNAMENT = "The tournament seats its players: no sitting down, leaving or top-ups."


def _tournament_table(table: Table) -> TournamentTable | None:
    return lookup.tournament_table(table.pk)


def table_rules(table: Table) -> TableRules | None:
    tt = _tournament_table(table)
    if tt is None:
        return None
    tournament = tt.tournament
    may_deal = tournament.status == Tournament.Status.RUNNING and tt.broken_at is None
    if may_deal and tournament.hand_for_hand:
        may_deal = tt.hand_for_hand_round < tournament.hand_for_hand_round or _round_over(
            tournament
        )
    return TableRules(
        seating_closed=SEATED_BY_TOURNAMENT,
        deal_sitting_out=True,
        bots_alone=True,
        may_deal=may_deal,
    )


def _round_over(tournament: Tournament) -> bool:
    """Every open table has dealt the hand-for-hand round and none is still playing it."""
    tables = tournament.tables.filter(broken_at__isnull=True)
    behind = tables.filter(hand_for_hand_round__lt=tournament.hand_for_hand_round).exists()
    playing = Hand.objects.filter(
        table__tournament_table__in=tables, status=Hand.Status.RUNNING
    ).exists()
    return not behind and not playing


def level_of(tournament: Tournament, table: Table, now: datetime | None = None) -> int:
    """The level in play at ``table``: by its hands dealt, or by minutes since the start."""
    if tournament.by_hands:
        return structure.level_index(tournament.levels, hands=table.hands.count())
    started = tournament.started_at or timezone.now()
    minutes = ((now or timezone.now()) - started).total_seconds() / 60
    return structure.level_index(tournament.levels, minutes=minutes)


def before_hand(table: Table) -> None:
    tt = _tournament_table(table)
    if tt is None:
        return
    tournament = setup.tournament_lock(tt.tournament_id)
    index = level_of(tournament, table)
    level = tournament.levels[index]
    stakes = (level["small_blind"], level["big_blind"], level["ante"])
    if stakes != (table.small_blind, table.big_blind, table.ante):
        table.small_blind, table.big_blind, table.ante = stakes
        Table.objects.filter(pk=table.pk).update(
            small_blind=table.small_blind, big_blind=table.big_blind, ante=table.ante
        )
    if tournament.registration_open and index >= tournament.late_registration_levels:
        _close_registration(tournament)
    if tournament.hand_for_hand:
        if tt.hand_for_hand_round >= tournament.hand_for_hand_round:  # a new round begins
            tournament.hand_for_hand_round += 1
            tournament.save(update_fields=["hand_for_hand_round"])
        TournamentTable.objects.filter(pk=tt.pk).update(
            hand_for_hand_round=tournament.hand_for_hand_round
        )


def _close_registration(tournament: Tournament) -> None:
    tournament.registration_open = False
    tournament.save(update_fields=["registration_open"])
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
    places.entries_out(tournament, outs)
    if tournament.format == Tournament.Format.FIXED_HANDS:
        _fixed_hands_after(tournament, table, seated)
        return
    alive = Seat.objects.filter(table__tournament_table__tournament=tournament)
    if alive.count() <= 1:
        places.tournament_finish(tournament, dict(alive.values_list("player_id", "stack")))
        return
    paid = structure.paid_places(
        tournament.entries.count(), tournament.payouts, tournament.payout_percentages
    )
    if tournament.registration_open and alive.count() <= paid + 1:
        _close_registration(tournament)
    places.places_decide(tournament)
    balance.balance(tournament, table)
    _hand_for_hand_update(tournament, alive.count(), paid)


def _fixed_hands_after(tournament: Tournament, table: Table, seated: dict[int, int]) -> None:
    played = table.hands.filter(status=Hand.Status.FINISHED).count()
    if played >= (tournament.hands or 0) or len(seated) < 1:
        places.tournament_finish(tournament, seated)
        return
    free = sorted(set(range(table.max_seats)) - set(table.seats.values_list("number", flat=True)))
    for number in free:  # bots join between hands to keep the table at its size
        bot = setup.tournament_bot(tournament)
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
