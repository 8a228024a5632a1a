"""Double-board bomb pots at the table (issue 50): the host's setting deals every bomb pot two
boards; each board wins half of each pot; the felt shows both; refused where a game has no
bomb pots; one board when the hands leave too few cards for two."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tables.models import Hand, Seat
from tables.presenters.render import render_regions
from tables.presenters.screen import table_screen
from tables.selectors.hands import hand_state
from tables.selectors.players import player_bankroll
from tables.selectors.snapshot import load_snapshot
from tables.services import hand_start, seat_take
from tables.services.errors import InvalidSettings
from tables.services.hosting import game_settings_check
from tests.tables.helpers import act, current_hand, fresh
from tests.tables.services.test_runouts import _state

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_pause(settings):
    settings.POKER_RUNOUT_PAUSE_SECONDS = 0
    settings.POKER_CROUPIER = False


def _bomb_table(make_table, players, **options):
    table = make_table(
        name="Double", bomb_pot_ante=10, bomb_pot_next=True, bomb_pot_double_board=True, **options
    )
    for player in players:
        seat_take(table=table, player=player, buy_in=100)
    return table


def test_a_double_board_bomb_pot_deals_two_boards_and_splits_the_pot(make_table, players):
    alice, bob, carol = players
    table = _bomb_table(make_table, players)
    hand = hand_start(table=table)
    state = hand_state(hand)
    assert state.config.double_board and len(state.board) == len(state.second_board) == 3
    frame = _state(table, alice)
    assert [len(board) for board in frame["boards"]] == [3, 3]
    html = render_regions(
        table_screen(load_snapshot(fresh(table)), carol, player_bankroll(carol.pk)), oob=False
    )
    assert 'aria-label="Board 1"' in html and 'aria-label="Board 2"' in html
    while hand_state(current_hand(table)).actor is not None:
        act(table, "check")
        if Hand.objects.get(pk=hand.pk).status == Hand.Status.FINISHED:
            break
    hand.refresh_from_db()
    assert hand.status == Hand.Status.FINISHED
    done = hand_state(hand)
    assert [len(board) for board in done.boards] == [5, 5]
    awards = done.result.awards
    by_board = {
        which: sum(a.amount for a in awards if a.description.startswith(which))
        for which in ("first board", "second board")
    }
    assert by_board == {"first board": 15, "second board": 15}  # the 30 in the pot, halved
    assert sum(Seat.objects.filter(table=table).values_list("stack", flat=True)) == 300
    client = APIClient()
    client.force_login(alice.user)
    body = client.get(f"/api/hands/{hand.pk}/").json()
    assert body["config"]["double_board"] is True
    assert body["boards"] == [[str(card) for card in board] for board in done.boards]
    assert sum(line.endswith("# board two") for line in body["log"]) == 3


def test_without_the_setting_a_bomb_pot_has_one_board(make_table, players):
    table = make_table(name="Single", bomb_pot_ante=10, bomb_pot_next=True)
    for player in players:
        seat_take(table=table, player=player, buy_in=100)
    state = hand_state(hand_start(table=table))
    assert state.config.bomb_pot == 10 and not state.config.double_board
    assert state.second_board == []


def test_a_hand_that_is_no_bomb_pot_has_one_board(make_table, players):
    table = make_table(name="Later", bomb_pot_ante=10, bomb_pot_double_board=True)
    for player in players:
        seat_take(table=table, player=player, buy_in=100)
    state = hand_state(hand_start(table=table))
    assert not state.config.bomb_pot and not state.config.double_board


@pytest.mark.parametrize(
    "fields",
    [
        {"game": "stud", "betting": "fixed-limit", "bring_in": 1, "small_bet": 2},
        {"game": "badugi", "betting": "fixed-limit"},
    ],
)
def test_a_game_without_bomb_pots_refuses_the_double_board(fields):
    with pytest.raises(InvalidSettings) as refused:
        game_settings_check(**fields, bomb_pot_double_board=True)
    assert "bomb_pot_double_board" in refused.value.errors
