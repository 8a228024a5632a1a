"""A player sitting out or disconnected keeps posting blinds and antes; the clock checks or
folds for them when their action clock runs out (not at once), until they are blinded away."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tables.models import HandAction, Seat, Table
from tables.services.clock import clock_tick
from tables.tournaments.models import Tournament, TournamentTable
from tables.tournaments.services import tournament_create, tournament_register, tournament_start

from .helpers import make_player

pytestmark = pytest.mark.django_db

LEVELS = [{"small_blind": 25 * 2**n, "big_blind": 50 * 2**n, "hands": 2} for n in range(10)]


def test_players_sitting_out_post_blinds_are_folded_when_the_clock_runs_out_until_blinded_away():
    people = [make_player(f"p{n}") for n in range(3)]
    tournament = tournament_create(
        organiser=people[0],
        name="Away",
        seats_per_table=6,
        starting_stack=400,
        levels=LEVELS,
        action_seconds=20,
    )
    for person in people:
        tournament_register(tournament=tournament, player=person)
    tournament_start(tournament=tournament, by=people[0])
    table_id = TournamentTable.objects.get(tournament=tournament).table_id
    Seat.objects.filter(table_id=table_id).update(sitting_out=True)
    banks = dict(Seat.objects.filter(table_id=table_id).values_list("player_id", "time_bank"))
    now = timezone.now() + timedelta(hours=1)
    hands_dealt = 0
    for _ in range(500):
        tournament.refresh_from_db()
        if tournament.status == Tournament.Status.FINISHED:
            break
        in_play = set(Seat.objects.filter(table_id=table_id).values_list("player_id", flat=True))
        if clock_tick(table=table_id, now=now) == "started":
            hands_dealt += 1
            hand = Table.objects.get(pk=table_id).hands.order_by("-number").first()
            # Every player still in is dealt in, sitting out or not: they post blinds.
            assert {s["player_id"] for s in hand.seats} == in_play
        deadline = Table.objects.get(pk=table_id).action_deadline
        if deadline is not None:
            # Not at once: just before the deadline the clock does nothing.
            acted = HandAction.objects.count()
            assert clock_tick(table=table_id, now=deadline - timedelta(seconds=1)) is None
            assert HandAction.objects.count() == acted
            now = deadline
            assert clock_tick(table=table_id, now=now) == "sat-out"
            assert HandAction.objects.count() == acted + 1
        now += timedelta(seconds=10)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED  # blinded away down to a winner
    assert hands_dealt >= 3
    assert set(HandAction.objects.values_list("source", flat=True)) == {HandAction.Source.TIMEOUT}
    assert sorted(tournament.entries.values_list("place", flat=True)) == [1, 2, 3]
    # Away players never spend their time bank (the remaining seat, the winner's, is gone).
    assert not Seat.objects.filter(table_id=table_id).exists()
    assert banks and all(bank == 30 for bank in banks.values())
