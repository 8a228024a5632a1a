import pytest

from tables.models import LedgerEntry
from tables.tournaments.models import Tournament
from tables.tournaments.selectors import prizes_paid
from tables.tournaments.services import tournament_create, tournament_register

from .helpers import assert_places_each_given_once, make_player, play

pytestmark = pytest.mark.django_db

FAST = [{"small_blind": 25 * 2**n, "big_blind": 50 * 2**n, "hands": 3} for n in range(12)]


def test_a_sit_and_go_starts_when_full_and_pays_the_pool_exactly():
    people = [make_player(f"p{n}") for n in range(3)]
    tournament = tournament_create(
        organiser=people[0],
        name="Six max",
        seats_per_table=6,
        entry_fee=100,
        starting_stack=1000,
        levels=FAST,
        bot_entrants=3,
        start="when-full",
    )
    for person in people:
        tournament_register(tournament=tournament, player=person)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert tournament.prize_pool == 600
    play(tournament)
    tournament.refresh_from_db()
    assert_places_each_given_once(list(tournament.entries.values_list("place", flat=True)))
    assert prizes_paid(tournament) == 600
    paid = LedgerEntry.objects.filter(kind=LedgerEntry.Kind.TOURNAMENT_PRIZE)
    assert sum(paid.values_list("amount", flat=True)) == 600
