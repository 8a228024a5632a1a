"""Mixed games at a table: HORSE and 8-game rotate their games on schedule, dealer's choice
deals the button's pick (or the host's first when the time is up), and every new game of the
registry (short deck, the draw games) can be set up and dealt at a table."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from engine.variants import VARIANTS, variant
from tables.models import Table
from tables.presenters.render import render_regions
from tables.services import hand_start, seat_take
from tables.services.clock import clock_tick
from tables.services.errors import BadChoice, NoChoiceNow, NotYourTurn
from tables.services.mixed import choose_game
from tests.tables.helpers import fresh, play_out, screen_of

pytestmark = pytest.mark.django_db

HORSE = {"game": "horse", "small_bet": 4, "ante": 1, "bring_in": 1}


def errors_of(**fields) -> dict[str, list[str]]:
    try:
        Table(name="T", **fields).full_clean()
    except ValidationError as error:
        return error.message_dict
    return {}


def seat_all(table, players, buy_in=200):
    for number, person in enumerate(players):
        seat_take(table=table, player=person, buy_in=buy_in, seat_number=number)


def fold_or_check(hand):
    from tables.selectors.hands import hand_state

    legal = hand_state(hand).legal
    if legal.discard:
        return "discard"
    if legal.check:
        return "check"
    return "fold" if legal.fold else "call"


def test_games_are_grouped_by_family_with_the_mixed_games_last():
    groups = dict(Table.GAME_CHOICES)
    assert list(groups) == ["Hold'em", "Omaha", "Stud", "Draw", "Mixed"]
    assert ("27-triple-draw", "2-7 Triple Draw") in groups["Draw"]
    assert [name for name, _ in groups["Mixed"]] == ["horse", "8-game", "dealers-choice"]
    assert set(Table.GAMES) == set(VARIANTS) | {"horse", "8-game", "dealers-choice"}


@pytest.mark.parametrize("game", sorted(VARIANTS))
def test_every_game_of_the_registry_sets_up_and_deals_at_a_table(make_table, players, game):
    rules = variant(game)
    fields = {"game": game, "betting": rules.bettings[0], "max_seats": rules.max_seats}
    if rules.forced == "bring-in":
        fields.update(ante=1, bring_in=1, small_bet=4)
    assert errors_of(**fields) == {}
    table = make_table(**fields)
    seat_all(table, players)
    hand = hand_start(table=table)
    assert hand.config["game"] == game
    hand = play_out(table, choose=fold_or_check)
    assert not hand.is_running


def test_settings_that_do_not_apply_are_asked_of_the_registry():
    assert {"small_blind", "straddle", "bomb_pot_ante", "run_it_twice"} <= Table.settings_not_for(
        "short-deck", "no-limit"
    )
    assert "big_blind" not in Table.settings_not_for("short-deck", "no-limit")
    draw = Table.settings_not_for("27-triple-draw", "fixed-limit")
    assert {"straddle", "bomb_pot_ante", "run_it_twice", "bring_in"} <= draw
    assert "small_bet" not in draw and "small_blind" not in draw
    horse = Table.settings_not_for("horse", "no-limit")
    assert {"betting", "straddle", "choice_games"} <= horse and "rotation_hands" not in horse
    assert "choice_games" not in Table.settings_not_for("dealers-choice", "no-limit")


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"game": "27-triple-draw", "betting": "fixed-limit", "straddle": 4}, "straddle"),
        ({"game": "badugi", "betting": "fixed-limit", "bomb_pot_ante": 2}, "bomb_pot_ante"),
        ({"game": "five-card-draw", "run_it_twice": True}, "run_it_twice"),
        ({"game": "five-card-draw", "max_seats": 7}, "max_seats"),
        ({"game": "horse", "ante": 1, "bring_in": 1}, "small_bet"),
        ({"game": "horse", "small_bet": 4}, "bring_in"),
        ({"game": "dealers-choice", "choice_games": ["whist/no-limit"]}, "choice_games"),
        ({"game": "dealers-choice", "choice_games": ["razz/no-limit"]}, "choice_games"),
    ],
)
def test_a_bad_game_setting_is_named_by_its_field(fields, field):
    assert field in errors_of(**fields)


def test_a_mixed_table_states_its_stakes_and_the_game_being_dealt():
    table = Table(name="T", **HORSE)
    table.full_clean()
    assert table.stakes == "4/8 ante 1 bring-in 1"
    assert table.variant == "HORSE: Fixed-limit Hold'em"
    assert table.unit == 4
    config = table.hand_config(("razz", "fixed-limit"))
    assert (config["small_bet"], config["bring_in"], config["big_blind"]) == (4, 1, 0)
    limit_holdem = table.hand_config(("holdem", "fixed-limit"))
    assert (limit_holdem["small_blind"], limit_holdem["big_blind"]) == (2, 4)


def test_horse_rotates_every_orbit_and_names_the_next_game(make_table, players):
    table = make_table(name="Horse", **HORSE)
    seat_all(table, players)
    dealt = []
    for _ in range(7):
        hand = hand_start(table=table)
        dealt.append(hand.config["game"])
        if len(dealt) == 1:
            assert fresh(table).next_game(3) == ("Fixed-limit Omaha Hi/Lo", 2)
        play_out(table, choose=fold_or_check)
    assert dealt == ["holdem"] * 3 + ["omaha-hilo"] * 3 + ["razz"]
    assert fresh(table).variant == "HORSE: Fixed-limit Razz"


def test_the_host_sets_the_hands_of_each_game(make_table, players):
    table = make_table(name="Eight", game="8-game", small_bet=4, ante=1, bring_in=1, max_seats=6)
    Table.objects.filter(pk=table.pk).update(rotation_hands=1)
    seat_all(table, players[:2])
    dealt = []
    for _ in range(3):
        dealt.append(hand_start(table=table).config["game"])
        play_out(table, choose=fold_or_check)
    assert dealt == ["27-triple-draw", "holdem", "omaha-hilo"]


def test_dealers_choice_the_button_picks_else_the_hosts_first_is_dealt(make_table, players):
    picks = ["badugi/fixed-limit", "omaha/pot-limit"]
    table = make_table(
        name="Choice", game="dealers-choice", choice_games=picks, small_bet=4, choice_seconds=10
    )
    seat_all(table, players)
    now = timezone.now()
    assert clock_tick(table=table, now=now) == "choosing"
    table = fresh(table)
    chooser_seat = table.choice_seat
    chooser = table.seats.get(number=chooser_seat).player
    other = next(p for p in players if p != chooser)
    # the chooser's bar counts down to the moment the host's first game is dealt for them
    asked = screen_of(table, chooser).actions
    assert [game for game, _ in asked.choice] == picks
    assert asked.choice_deadline_ms == int(table.choice_deadline.timestamp() * 1000)
    assert f'class="clock" data-deadline="{asked.choice_deadline_ms}"' in render_regions(
        screen_of(table, chooser)
    )
    assert screen_of(table, other).actions.choice_deadline_ms is None
    with pytest.raises(NotYourTurn):
        choose_game(table=table, player=other, pick="omaha/pot-limit")
    with pytest.raises(BadChoice):
        choose_game(table=table, player=chooser, pick="razz/fixed-limit")
    choose_game(table=table, player=chooser, pick="omaha/pot-limit")
    with pytest.raises(NoChoiceNow):
        choose_game(table=table, player=chooser, pick="omaha/pot-limit")
    assert clock_tick(table=table, now=now) == "started"
    hand = table.hands.get()
    assert (hand.config["game"], hand.config["betting"]) == ("omaha", "pot-limit")
    assert hand.seats[hand.button]["player_id"] == chooser.pk, "the button picked"
    for _ in range(2):
        play_out(table, choose=fold_or_check)
        Table.objects.filter(pk=table.pk).update(next_hand_at=None)
        assert clock_tick(table=table, now=now) == "started"
    play_out(table, choose=fold_or_check)
    Table.objects.filter(pk=table.pk).update(next_hand_at=None)
    assert clock_tick(table=table, now=now) == "choosing", "an orbit later the next player picks"
    assert fresh(table).choice_seat != chooser_seat
    late = now + timedelta(seconds=11)
    assert clock_tick(table=table, now=late) == "started"
    assert table.hands.order_by("-number").first().config["game"] == "badugi", "the host's first"
