"""A table's stakes and seats obey the engine's rules: one rule each, in the engine."""

import pytest
from django.core.exceptions import ValidationError

from engine.errors import PokerError
from engine.hand import HandConfig
from tables.models import Table

pytestmark = pytest.mark.django_db


def engine_accepts(**config) -> bool:
    try:
        HandConfig(**config)
    except PokerError:
        return False
    return True


def admin_accepts(**fields) -> bool:
    try:
        Table(name="T", **fields).full_clean()
    except ValidationError as error:
        return not set(error.message_dict) & set(fields)
    return True


@pytest.mark.parametrize("straddle", [0, 1, 2, 3, 4, 5, 40])
def test_a_straddle_is_at_least_twice_the_big_blind_for_the_engine_and_the_admin(straddle):
    assert engine_accepts(big_blind=2, straddle=straddle) == (straddle in (0, 4, 5, 40))
    assert admin_accepts(big_blind=2, straddle=straddle) == engine_accepts(
        big_blind=2, straddle=straddle
    )


# Every game a table offers, stud, razz and the hi-lo games included.
@pytest.mark.parametrize("game", sorted(Table.GAMES))
def test_a_table_seats_as_many_as_the_engine_deals_to(game):
    most = Table.MAX_SEATS[game]
    assert admin_accepts(game=game, max_seats=most)
    assert not admin_accepts(game=game, max_seats=most + 1)
