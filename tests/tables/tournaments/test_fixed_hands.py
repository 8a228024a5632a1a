import pytest

from tables.models import Hand, Seat
from tables.tournaments.models import Tournament
from tables.tournaments.selectors import prizes_paid
from tables.tournaments.services import tournament_create, tournament_register, tournament_start

from .helpers import make_player, play

pytestmark = pytest.mark.django_db


def test_fixed_hands_game_plays_exactly_fifty_hands_doubling_blinds_every_five_with_bots():
    person = make_player("host")
    tournament = tournament_create(
        organiser=person, name="Fifty hands", format="fixed-hands", hands=50, seats_per_table=4
    )
    tournament_register(tournament=tournament, player=person)
    tournament_start(tournament=tournament, by=person)
    tables = []

    def check(table_id):
        tables.append(table_id)
        tournament.refresh_from_db()
        if tournament.status == Tournament.Status.RUNNING:  # bots refilled the table
            assert Seat.objects.filter(table_id=table_id).count() == 4

    play(tournament, on_hand_end=check)
    tournament.refresh_from_db()
    (table_id,) = set(tables)
    hands = Hand.objects.filter(table_id=table_id).order_by("number")
    assert hands.count() == 50
    assert all(hand.status == Hand.Status.FINISHED for hand in hands)
    for hand in hands:
        assert hand.config["big_blind"] == 20 * 2 ** ((hand.number - 1) // 5)
    # the most chips at the end wins; players level on the most share first place
    winners = list(tournament.entries.filter(place=1))
    last = hands.last()
    final_stacks = {
        entry.player_id: 0 for entry in tournament.entries.all()
    }  # those out before the end have none
    for seat, net in zip(last.seats, last.result["net"], strict=True):
        final_stacks[seat["player_id"]] = seat["stack"] + net
    most = max(final_stacks.values())
    assert winners
    assert {final_stacks[w.player_id] for w in winners} == {most}
    assert sum(1 for chips in final_stacks.values() if chips == most) == len(winners)
    assert prizes_paid(tournament) == tournament.prize_pool
