"""A mixed table's heading names the stakes of the game being dealt, and only those (issue
49, item 11: "bring-in 1" was shown while badugi was dealt)."""

import pytest

from tables.models import Table

pytestmark = pytest.mark.django_db


def choice_table(dealt: str) -> Table:
    return Table(
        name="Choice",
        game="dealers-choice",
        small_blind=1,
        big_blind=2,
        small_bet=2,
        big_bet=4,
        bring_in=1,
        ante=1,
        choice_games=["badugi/fixed-limit", "razz/fixed-limit", "holdem/no-limit"],
        dealt_game=dealt,
    )


@pytest.mark.parametrize(
    "dealt, stakes",
    [
        ("badugi/fixed-limit", "2/4"),
        ("razz/fixed-limit", "2/4 ante 1 bring-in 1"),
        ("holdem/no-limit", "1/2"),
    ],
)
def test_a_dealers_choice_heading_names_the_dealt_game_s_own_stakes(dealt, stakes):
    table = choice_table(dealt)
    assert table.heading == f"Dealer's Choice: {table.words_of(table.pick)} · {stakes} · Open"


def test_a_single_game_s_heading_keeps_its_stakes():
    table = Table(
        name="Stud", game="stud", betting="fixed-limit", small_bet=4, big_bet=8, bring_in=1, ante=1
    )
    assert table.heading == "Fixed-limit 7 Card Stud · 4/8 ante 1 bring-in 1 · Open"
