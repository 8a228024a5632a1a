"""Host controls during a hand, seen from the API (issue 31 items 1-3): the host's answer says
the change waits; the player sat out or removed keeps playing through the play API with
their state saying they are in; a removed player's sit-in is refused (409
``removed_by_host``); a stack set mid-hand is added to the hand's result."""

from __future__ import annotations

import pytest

from tables.models import Seat, Table
from tables.selectors.hands import hand_state, running_hand
from tables.services import hand_start, seat_take
from tables.services.hosting import table_create

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False


@pytest.fixture
def dealt(make_player, players):
    """The host (not seated); alice, bob and carol with 100 each, a hand dealt."""
    host = make_player("hostess")
    game = table_create(host=host, name="Api night", private=False)
    for player in players:
        seat_take(table=game, player=player, buy_in=100)
    hand_start(table=game)
    return game, host


def actor_of(game: Table, players):
    hand = running_hand(Table.objects.get(pk=game.pk))
    player_id = hand.seats[hand_state(hand).actor]["player_id"]
    return next(p for p in players if p.pk == player_id)


def control(client_for, host, game, player, **body):
    return client_for(host).post(f"/api/tables/{game.pk}/players/{player.pk}/", body, format="json")


def play_passively(client_for, game, players) -> None:
    """Every actor checks or calls through the play API until the hand is over."""
    for _ in range(100):
        hand = running_hand(Table.objects.get(pk=game.pk))
        if hand is None:
            return
        who = actor_of(game, players)
        state = client_for(who).get(f"/api/tables/{game.pk}/state/").json()
        move = "check" if "check" in state["legal"]["actions"] else "call"
        body = {"hand": state["hand"], "version": state["version"], "action": move}
        answer = client_for(who).post(f"/api/tables/{game.pk}/actions/", body, format="json")
        assert answer.status_code == 200, answer.json()
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize("action", ["sit_out", "remove"])
def test_a_player_the_host_sits_out_or_removes_mid_hand_plays_it_through_the_api(
    client_for, dealt, players, action, assert_chips_conserved
):
    game, host = dealt
    target = actor_of(game, players)
    answer = control(client_for, host, game, target, action=action)
    assert answer.json() == {"status": "open", "done_now": False}
    state = client_for(target).get(f"/api/tables/{game.pk}/state/").json()
    assert state["you"]["sitting_out"] is False and state["you"]["leaving"] is False
    assert state["you"]["in_hand"] is True and state["legal"]["actions"]
    mine = next(seat for seat in state["seats"] if seat and seat["name"] == target.name)
    assert mine["sitting_out"] is False
    play_passively(client_for, game, players)
    if action == "sit_out":
        assert Seat.objects.get(player=target).sitting_out
    else:
        assert not Seat.objects.filter(player=target).exists()
    assert_chips_conserved()


def test_a_removed_players_sit_in_is_refused_409_removed_by_host(client_for, dealt, players):
    game, host = dealt
    target = actor_of(game, players)
    control(client_for, host, game, target, action="remove")
    answer = client_for(target).post(f"/api/tables/{game.pk}/sit-in/")
    assert (answer.status_code, answer.json()["code"]) == (409, "removed_by_host")
    assert "host removed you" in answer.json()["message"]
    assert Table.objects.get(pk=game.pk).pending_changes["remove"] == [target.pk]


def test_a_stack_set_mid_hand_is_added_to_the_hands_result(
    client_for, dealt, players, assert_chips_conserved
):
    game, host = dealt
    target = actor_of(game, players)
    shown = Seat.objects.get(player=target).stack  # 100 less a blind, if they posted one
    answer = control(client_for, host, game, target, action="correct_stack", stack=shown - 30)
    assert answer.json() == {"status": "open", "done_now": False}
    assert Seat.objects.get(player=target).stack == shown  # nothing moves yet
    play_passively(client_for, game, players)
    hand = game.hands.get()
    index = [s["player_id"] for s in hand.seats].index(target.pk)
    assert Seat.objects.get(player=target).stack == 100 + hand.result["net"][index] - 30
    assert_chips_conserved()
