"""The games a table offers (issue 20): Omaha hi-lo, stud, stud hi-lo and razz with the
bettings each is played with, several straddles and the button straddle, stud's ante,
bring-in and bets as the table's stakes. ``Table.clean`` names each bad field and
``hand_config`` is what the engine deals."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from engine.hand import HandConfig
from engine.variants import variant
from tables.models import Table
from tables.selectors.hands import hand_state
from tables.services import hand_start, seat_take
from tables.services.hands import straddles_for
from tests.tables.helpers import screen_of

pytestmark = pytest.mark.django_db

STUD = {"game": "stud", "betting": "fixed-limit", "ante": 1, "bring_in": 2, "small_bet": 5}


def errors_of(**fields) -> dict[str, list[str]]:
    try:
        Table(name="T", **fields).full_clean()
    except ValidationError as error:
        return error.message_dict
    return {}


@pytest.mark.parametrize(
    ("game", "betting", "allowed"),
    [
        ("omaha-hilo", "pot-limit", True),
        ("omaha-hilo", "fixed-limit", True),
        ("omaha-hilo", "no-limit", True),
        ("stud", "fixed-limit", True),
        ("stud", "no-limit", False),
        ("stud-hilo", "pot-limit", False),
        ("razz", "no-limit", False),
        ("holdem", "no-limit", True),
    ],
)
def test_each_game_is_offered_with_the_bettings_it_is_played_with(game, betting, allowed):
    fields = {**STUD, "game": game, "betting": betting} if variant(game).is_stud else {}
    fields.update(game=game, betting=betting)
    errors = errors_of(**fields)
    assert ("betting" not in errors) == allowed, errors
    if not allowed:
        assert set(errors) == {"betting"}, "only the betting is wrong"


@pytest.mark.parametrize("game", ["stud", "stud-hilo", "razz"])
def test_a_stud_table_deals_antes_a_bring_in_and_bets_and_no_blinds(game):
    table = Table(name="T", **{**STUD, "game": game}, max_seats=8)
    table.full_clean()
    config = HandConfig(**table.hand_config())
    assert (config.small_blind, config.big_blind) == (0, 0), "stud has no blinds"
    assert (config.ante, config.bring_in, config.small_bet, config.fixed_big_bet) == (1, 2, 5, 10)
    assert table.stakes == "5/10 ante 1 bring-in 2"
    assert table.unit == 5, "buy-ins count in small bets"
    assert (table.effective_min_buy_in, table.effective_max_buy_in) == (100, 500)


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"bring_in": 0}, "bring_in"),
        ({"bring_in": 5}, "bring_in"),  # not below the small bet
        ({"small_bet": None}, "small_bet"),
        ({"big_bet": 4}, "big_bet"),
        ({"straddle": 4}, "straddle"),
        ({"button_straddle": True, "straddle": 4, "straddles": 1}, "button_straddle"),
        ({"ante_mode": "big-blind"}, "ante_mode"),
        ({"max_seats": 9}, "max_seats"),
    ],
)
def test_a_bad_stud_setting_is_named_by_its_field(fields, field):
    assert field in errors_of(**{**STUD, **fields})


def test_a_flop_game_has_no_bring_in_and_no_bets_unless_fixed_limit():
    assert "bring_in" in errors_of(bring_in=1)
    assert "small_bet" in errors_of(small_bet=4)
    assert errors_of(betting="fixed-limit", small_bet=2, big_bet=4) == {}
    assert "big_bet" in errors_of(betting="fixed-limit", small_bet=4, big_bet=2)


def test_going_back_from_stud_to_holdem_needs_blinds_again():
    table = Table(name="T", **STUD)
    table.full_clean()
    assert table.big_blind == 0
    table.game, table.bring_in, table.small_bet = "holdem", 0, None
    table.betting = "no-limit"
    with pytest.raises(ValidationError) as error:
        table.full_clean()
    assert "big_blind" in error.value.message_dict


def test_several_straddles_and_their_limit_by_seats():
    table = Table(name="T", straddle=4, straddles=3, max_seats=6)
    table.full_clean()
    config = HandConfig(**table.hand_config())
    assert config.straddle_amounts == (4, 8, 16)
    assert table.stakes == "1/2/4/8/16"
    assert "straddles" in errors_of(straddle=4, straddles=5, max_seats=6)
    assert "straddle" in errors_of(straddles=2), "re-straddles need the first amount"
    assert "straddle" in errors_of(straddle=3), "a straddle is at least twice the big blind"


def test_the_one_straddle_of_older_tables_is_one_straddle():
    table = Table(name="T", straddle=4)
    table.full_clean()
    assert table.straddles == 1
    assert HandConfig(**table.hand_config()).straddle_amounts == (4,)


def test_the_button_straddle_is_the_only_straddle():
    table = Table(name="T", straddle=4, straddles=1, button_straddle=True)
    table.full_clean()
    assert HandConfig(**table.hand_config()).button_straddle
    assert table.stakes == "1/2/4 button straddle"
    assert "button_straddle" in errors_of(straddle=4, straddles=2, button_straddle=True)


def test_twelve_seats_for_holdem_ten_for_omaha_hilo_eight_for_stud():
    assert errors_of(max_seats=12) == {}
    assert "max_seats" in errors_of(game="omaha-hilo", betting="pot-limit", max_seats=11)
    assert "max_seats" in errors_of(**STUD, max_seats=9)


@pytest.mark.parametrize(("players", "straddles"), [(2, 0), (3, 1), (4, 2), (5, 3), (9, 3)])
def test_a_short_table_posts_the_straddles_that_fit(players, straddles):
    settings = straddles_for(
        Table(name="T", straddle=4, straddles=3, max_seats=9).hand_config(), players
    )
    assert settings["straddles"] == straddles
    assert (settings["straddle"] > 0) == (straddles > 0)
    HandConfig(**settings)  # the engine deals it


def test_a_table_with_two_straddles_deals_and_plays_a_hand(make_table, make_player, play):
    """Four players, straddles of 4 and 8 after the 1/2 blinds: under the gun and the next
    seat post them, the seat after the last straddle acts first, the log names them, and
    the hand plays to its end with every chip accounted for."""
    table = make_table(straddle=4, straddles=2, max_seats=6)
    people = [make_player(name) for name in ("ann", "ben", "cat", "dan")]
    for number, person in enumerate(people):
        seat_take(table=table, player=person, buy_in=200, seat_number=number)
    hand = hand_start(table=table)
    state = hand_state(hand)
    posts = [(e.seat, e.amount) for e in state.events if e.kind == "straddle"]
    button = hand.button
    assert posts == [((button + 3) % 4, 4), ((button + 4) % 4, 8)]
    assert state.actor == (button + 5) % 4, "the seat after the last straddle acts first"
    # with four seats the re-straddler is the button; the small blind acts first, 7 to call
    assert state.legal.call == 8 - state.bets[state.actor] == 7
    lines = [line.text for line in screen_of(table, people[0]).log.lines]
    assert any(text.endswith("posts straddle 4") for text in lines), lines
    assert any(text.endswith("posts straddle 8") for text in lines), lines
    finished = play.play_out(table)
    assert not finished.is_running
    assert sum(finished.result["net"]) == 0
