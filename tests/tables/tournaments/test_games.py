"""Tournaments in every game: the levels' blinds become each game's stakes (a stud game's
small bet and bring-in, a fixed-limit game's bets), and a mixed game rotates at the
tournament's table as at a cash table."""

import pytest

from tables.models import Hand, Table
from tables.tournaments.services import tournament_create, tournament_register, tournament_start

from .helpers import make_player, play

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("game", "betting", "dealt"),
    [
        ("horse", "no-limit", ["holdem"] * 4 + ["omaha-hilo"] * 4 + ["razz"] * 2),
        ("27-triple-draw", "fixed-limit", ["27-triple-draw"] * 10),
        ("stud", "fixed-limit", ["stud"] * 10),
        ("short-deck", "no-limit", ["short-deck"] * 10),
    ],
)
def test_a_fixed_hands_tournament_plays_its_game(game, betting, dealt):
    person = make_player("host")
    tournament = tournament_create(
        organiser=person,
        name=f"{game} cup",
        format="fixed-hands",
        hands=10,
        seats_per_table=4,
        game=game,
        betting=betting,
    )
    tournament_register(tournament=tournament, player=person)
    tournament_start(tournament=tournament, by=person)
    play(tournament)
    hands = list(
        Hand.objects.filter(table__tournament_table__tournament=tournament).order_by("number")
    )
    assert [hand.config["game"] for hand in hands] == dealt
    assert all(hand.status == Hand.Status.FINISHED for hand in hands)
    first = hands[0].config
    if game == "stud":
        assert (first["small_bet"], first["bring_in"], first["big_blind"]) == (20, 5, 0)


def test_the_levels_become_each_games_stakes():
    stud = Table(game="razz", betting="fixed-limit").level_stakes(10, 20, 2)
    assert (stud["small_bet"], stud["big_bet"], stud["bring_in"], stud["big_blind"]) == (
        20,
        40,
        5,
        0,
    )
    mixed = Table(game="8-game").level_stakes(10, 20, 0)
    assert (mixed["small_blind"], mixed["big_blind"], mixed["small_bet"]) == (10, 20, 20)
    assert Table(game="holdem", betting="no-limit").level_stakes(10, 20, 0)["small_bet"] is None
