import random
from datetime import timedelta

import pytest
from django.utils import timezone

from tables.models import LedgerEntry, Player, Seat, Table
from tables.selectors.lobby import lobby_tables
from tables.services import seat_leave, seat_take
from tables.services.clock import clock_tick
from tables.services.errors import SeatingClosed
from tables.services.table import table_close, table_remove_player
from tables.tournaments import structure
from tables.tournaments.errors import NotOrganiser, RegistrationClosed, TournamentInvalid
from tables.tournaments.models import Entry, TournamentTable
from tables.tournaments.services import (
    tournament_create,
    tournament_register,
    tournament_start,
    tournament_unregister,
)
from tables.tournaments.services.places import entries_out, places_decide

from .helpers import make_player

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def test_payouts_are_rounded_so_the_pool_is_paid_exactly():
    for pool in (0, 1, 7, 999, 1000, 123_457):
        for entrants in (2, 5, 9, 27, 200, 1000):
            prizes = structure.prize_table(pool, entrants, "standard")
            assert sum(prizes) == pool
            assert prizes == sorted(prizes, reverse=True)
    assert structure.paid_places(200, "standard") == 30
    assert structure.prize_table(100, 9, "winner-takes-all") == [100]
    assert structure.prize_table(101, 9, "custom", [50, 30, 20]) == [51, 30, 20]


def test_tied_players_share_their_places_prizes():
    assert structure.shared_prizes([50, 30, 20], 2, 2) == [25, 25]
    assert structure.shared_prizes([50, 31, 20], 2, 2) == [26, 25]


def test_levels_by_hands_and_minutes_follow_the_schedule():
    by_hands = structure.doubling_levels(small_blind=10, big_blind=20, every_hands=5, count=3)
    assert [structure.level_index(by_hands, hands=h) for h in (0, 4, 5, 9, 10, 99)] == [
        0, 0, 1, 1, 2, 2,
    ]  # fmt: skip
    turbo = structure.preset_levels("turbo")
    assert structure.level_index(turbo, minutes=2.9) == 0
    assert structure.level_index(turbo, minutes=3) == 1


def _sit_and_go(entrants: int, **options):
    people = [make_player(f"p{n}") for n in range(entrants)]
    tournament = tournament_create(organiser=people[0], name="Test", **options)
    for person in people:
        tournament_register(tournament=tournament, player=person)
    return tournament, people


def test_simultaneous_eliminations_more_chips_at_the_start_finishes_higher_equal_share():
    tournament, people = _sit_and_go(5, seats_per_table=6, entry_fee=100)
    tournament_start(tournament=tournament, by=people[0], rng=random.Random(1))
    tournament.refresh_from_db()
    # Two out in one hand with 300 and 500, then two out together with 800 each.
    entries_out(tournament, {people[0].pk: 300, people[1].pk: 500})
    entries_out(tournament, {people[2].pk: 800, people[3].pk: 800})
    entries_out(tournament, {people[4].pk: 5000})
    tournament.registration_open = False
    places_decide(tournament)
    place = dict(Entry.objects.values_list("player_id", "place"))
    prize = dict(Entry.objects.values_list("player_id", "prize"))
    assert place[people[0].pk] == 5 and place[people[1].pk] == 4
    assert place[people[2].pk] == place[people[3].pk] == 2
    assert place[people[4].pk] == 1
    first, second = structure.prize_table(500, 5, "standard")
    assert prize[people[2].pk] + prize[people[3].pk] == second  # 2nd shared, 3rd unpaid
    assert abs(prize[people[2].pk] - prize[people[3].pk]) <= 1
    assert prize[people[4].pk] == first
    # Deciding again pays nobody twice.
    places_decide(tournament)
    assert LedgerEntry.objects.filter(kind=LedgerEntry.Kind.TOURNAMENT_PRIZE).count() == 3


def test_tournament_tables_are_not_in_the_lobby_and_refuse_walk_ups():
    tournament, people = _sit_and_go(3, seats_per_table=6)
    tournament_start(tournament=tournament, by=people[0])
    table = TournamentTable.objects.get(tournament=tournament).table
    assert table not in list(lobby_tables())
    stranger = make_player("stranger")
    with pytest.raises(SeatingClosed):
        seat_take(table=table, player=stranger, buy_in=100)
    with pytest.raises(SeatingClosed):
        seat_leave(table=table, player=people[0])
    assert not Seat.objects.filter(player=stranger).exists()


def test_an_admin_cannot_remove_a_player_or_close_a_tournament_table_paying_out_its_chips():
    tournament, people = _sit_and_go(3, seats_per_table=6)
    tournament_start(tournament=tournament, by=people[0])
    table = TournamentTable.objects.get(tournament=tournament).table
    bankroll = Player.objects.get(pk=people[1].pk).bankroll
    with pytest.raises(SeatingClosed):
        table_remove_player(table=table, player=people[1])
    with pytest.raises(SeatingClosed):
        table_close(table=table)
    assert Player.objects.get(pk=people[1].pk).bankroll == bankroll
    assert Seat.objects.filter(table=table).count() == 3
    assert Table.objects.get(pk=table.pk).status == Table.Status.OPEN


def test_unregistering_refunds_the_fee_and_only_the_organiser_starts():
    tournament, people = _sit_and_go(3, seats_per_table=6, entry_fee=250)
    stranger_bankroll = people[1].bankroll
    tournament_unregister(tournament=tournament, player=people[1])
    people[1].refresh_from_db()
    assert people[1].bankroll == stranger_bankroll + 250
    tournament.refresh_from_db()
    assert tournament.prize_pool == 500
    with pytest.raises(NotOrganiser):
        tournament_start(tournament=tournament, by=people[2])


def test_late_registration_seats_a_player_while_open_and_refuses_after():
    people = [make_player(f"p{n}") for n in range(5)]
    levels = [{"small_blind": 5, "big_blind": 10, "hands": 2}] * 3
    tournament = tournament_create(
        organiser=people[0],
        name="Late",
        format="multi-table",
        seats_per_table=3,
        levels=levels,
        late_registration_levels=1,
    )
    for person in people[:4]:
        tournament_register(tournament=tournament, player=person)
    tournament_start(tournament=tournament, by=people[0])
    tournament_register(tournament=tournament, player=people[4])
    assert Seat.objects.filter(player=people[4]).exists()
    table_id = tournament.tables.first().table_id
    now = timezone.now() + timedelta(hours=1)
    while Table.objects.get(pk=table_id).hands.count() < 3:  # the third hand is at level 2
        clock_tick(table=table_id, now=now)
        now += timedelta(seconds=15)
    tournament.refresh_from_db()
    assert not tournament.registration_open
    late = make_player("too_late")
    with pytest.raises(RegistrationClosed):
        tournament_register(tournament=tournament, player=late)


@pytest.mark.parametrize(
    ("field", "options"),
    [
        ("name", {"name": ""}),
        ("format", {"format": "bingo"}),
        ("seats_per_table", {"seats_per_table": 11}),
        ("levels", {"levels": [{"small_blind": 10, "big_blind": 5, "hands": 3}]}),
        ("structure", {"structure_name": "glacial"}),
        ("payouts", {"payouts": "custom", "payout_percentages": [60, 30]}),
        ("hands", {"format": "fixed-hands"}),
        ("entry_fee", {"entry_fee": -1}),
    ],
)
def test_bad_settings_are_refused_naming_the_field(field, options):
    organiser = make_player("org")
    settings = {"name": "Bad", **options}
    with pytest.raises(TournamentInvalid) as error:
        tournament_create(organiser=organiser, **settings)
    assert error.value.field == field
    assert not Table.objects.exists()
