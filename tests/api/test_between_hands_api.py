"""The play API once a hand has ended and no next hand will start (issue 54, finding 1): the
move that ended the hand and every state after it answer 200 with a state that validates,
for players, a spectator and a logged-out visitor alike, and no chip goes missing.

(a) The host pauses during a hand and the hand is played to a fold: the fold, and every
state after it, once answered 500. (b) Two players, a hand ends, both leave: the second
leave, and every state after it until someone sat, once answered 500.
(tests/tables/live/test_between_hands.py checks every between-hands state over the page and
both kinds of socket frames.)"""

from __future__ import annotations

import pytest

from tables.models import Player, Seat
from tables.services import hand_start, seat_take
from tables.services.hosting import table_create
from tests.api.test_play import actor_and_other, ok, url

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False  # no next hand is dealt behind the test's back


@pytest.fixture
def night(make_player, players):
    """A hosted game: alice and bob in a hand; carol watches; the host is not seated."""
    host = make_player("hostess")
    game = table_create(host=host, name="Between hands", private=False)
    alice, bob, _ = players
    seat_take(table=game, player=alice, buy_in=100, seat_number=0)
    seat_take(table=game, player=bob, buy_in=100, seat_number=2)
    return game, host, hand_start(table=game)


def everyone_gets_the_state(api, client_for, game, players) -> list[dict]:
    """Each player's, the spectator's (carol) and a logged-out visitor's state: all 200."""
    states = [ok(client_for(player).get(url(game))) for player in players]
    return [*states, ok(api.get(url(game)))]


def test_a_fold_at_a_paused_table_is_answered_and_so_is_every_state_after_it(
    api, client_for, night, players, assert_chips_conserved
):
    game, host, hand = night
    paused = client_for(host).post(url(game, "pause"))
    assert paused.status_code == 200 and paused.json()["status"] == "paused"
    folder, winner = actor_and_other(hand, players)
    before = ok(client_for(folder).get(url(game)))
    body = {"hand": hand.pk, "version": before["version"], "action": "fold"}
    answer = ok(client_for(folder).post(url(game, "actions"), body, format="json"))
    hand.refresh_from_db()
    assert not hand.is_running and hand.actions.last().kind == "fold"  # recorded
    assert not answer["running"] and answer["table"]["status"] == "paused"
    for state in [answer, *everyone_gets_the_state(api, client_for, game, players)]:
        # A paused table's felt shows no hand (issue 31 item 8), so neither does its state.
        assert state["hand"] is None and state["result"] is None and state["board"] == []
        assert all(card is None for seat in state["seats"] for card in seat["cards"])
        assert [seat["name"] for seat in state["seats"] if seat["name"]] == ["alice", "bob"]
    assert_chips_conserved()


def test_the_last_two_players_leave_after_a_hand_and_every_state_is_answered(
    api, client_for, night, players, play, assert_chips_conserved
):
    game, _, _ = night
    play.play_out(game, choose=lambda hand: "fold")
    alice, bob, _ = players
    stacks = {seat.player_id: seat.stack for seat in Seat.objects.filter(table=game)}
    for leaver in (alice, bob):
        bankroll = Player.objects.get(pk=leaver.pk).bankroll
        state = ok(client_for(leaver).delete(url(game, "seat")))
        assert state["you"]["seat"] is None and state["you"]["bankroll"] == (
            bankroll + stacks[leaver.pk]
        )
    assert not Seat.objects.filter(table=game).exists()
    for state in everyone_gets_the_state(api, client_for, game, players):
        # An emptied table waits for players: no hand on it, every seat free.
        assert state["hand"] is None and state["result"] is None
        assert {seat["status"] for seat in state["seats"]} == {"empty"}
    assert_chips_conserved()
