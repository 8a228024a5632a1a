"""The play API: the state, every move, every refusal with its stable code, both ways of
logging in, and what a visitor may not do. Every state answered validates against the
published schema."""

from __future__ import annotations

import jsonschema
import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tables.models import HandAction, Seat, Table, TableGuest
from tables.presenters.play_state import PLAY_STATE
from tables.selectors.hands import hand_state
from tables.services import hand_start, seat_take

VALIDATOR = jsonschema.Draft202012Validator(
    PLAY_STATE, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
)


def ok(response) -> dict:
    assert response.status_code == 200, response.content
    state = response.json()
    VALIDATOR.validate(state)
    return state


def refused(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["code"] == code and body["message"], body
    return body


@pytest.fixture
def token_client(players):
    """``token_client(player)``: an API client that sends the player's token."""

    def make(player):
        client = APIClient()
        key = Token.objects.get_or_create(user=player.user)[0].key
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        return client

    return make


@pytest.fixture
def dealt(players, table):
    """alice (seat 1) and bob (seat 3) in a running hand; carol watches."""
    alice, bob, _ = players
    seat_take(table=table, player=alice, buy_in=200, seat_number=0)
    seat_take(table=table, player=bob, buy_in=200, seat_number=2)
    hand = hand_start(table=table)
    return table, hand


def actor_and_other(hand, players):
    state = hand_state(hand)
    actor_id = hand.seats[state.actor]["player_id"]
    actor = next(p for p in players if p.pk == actor_id)
    other = next(p for p in players[:2] if p.pk != actor_id)
    return actor, other


def url(table, what="state") -> str:
    return f"/api/tables/{table.pk}/{what}/"


# --- the state ----------------------------------------------------------------------------
def test_a_visitor_and_a_spectator_get_the_state_without_hole_cards(
    api, client_for, dealt, players
):
    table, hand = dealt
    for client in (api, client_for(players[2])):
        state = ok(client.get(url(table)))
        assert state["hand"] == hand.pk and state["legal"] is None
        assert all(c is None for s in state["seats"] for c in s["cards"])
    assert ok(api.get(url(table)))["you"] is None
    assert ok(client_for(players[2]).get(url(table)))["you"]["bankroll"] == players[2].bankroll


def test_a_player_gets_their_cards_and_on_their_turn_the_legal_actions(
    token_client, dealt, players
):
    table, hand = dealt
    actor, other = actor_and_other(hand, players)
    mine = ok(token_client(actor).get(url(table)))
    theirs = ok(token_client(other).get(url(table)))
    own = [s for s in mine["seats"] if s["is_you"]][0]
    assert all(own["cards"]) and len(own["cards"]) == 2
    assert mine["legal"]["actions"] == ["fold", "call", "raise", "all_in"]
    assert mine["actor"] == mine["you"]["seat"] and theirs["legal"] is None


def test_an_unknown_or_private_table_is_not_found(api, client_for, players, make_table):
    refused(api.get("/api/tables/999999/state/"), 404, "not_found")
    refused(api.get("/api/tables/x/state/"), 404, "not_found")
    hidden = make_table(name="Hidden", private=True, host=players[0])
    refused(client_for(players[1]).get(url(hidden)), 404, "not_found")
    ok(client_for(players[0]).get(url(hidden)))  # the host
    TableGuest.objects.create(table=hidden, player=players[1])
    ok(client_for(players[1]).get(url(hidden)))  # a guest who opened the invite


# --- actions ------------------------------------------------------------------------------
def test_an_action_answers_with_the_new_state(token_client, dealt, players):
    table, hand = dealt
    actor, other = actor_and_other(hand, players)
    before = ok(token_client(actor).get(url(table)))
    body = {"hand": hand.pk, "version": before["version"], "action": "call"}
    after = ok(token_client(actor).post(url(table, "actions"), body, format="json"))
    assert after["version"] > before["version"] and after["legal"] is None
    assert HandAction.objects.filter(hand=hand).count() == 1
    # the same request again is stale: nothing is done
    refused(
        token_client(actor).post(url(table, "actions"), body, format="json"), 409, "stale_version"
    )
    assert HandAction.objects.filter(hand=hand).count() == 1


def test_each_refused_action_names_its_code(token_client, dealt, players):
    table, hand = dealt
    actor, other = actor_and_other(hand, players)
    version = Table.objects.get(pk=table.pk).version
    post = lambda who, **body: token_client(who).post(  # noqa: E731
        url(table, "actions"), {"hand": hand.pk, "version": version, **body}, format="json"
    )
    refused(post(other, action="call"), 409, "not_your_turn")
    refused(post(players[2], action="call"), 409, "not_your_turn")  # not in the hand
    refused(post(actor, action="check"), 400, "check_facing_bet")
    body = refused(post(actor, action="raise", amount=3), 400, "below_min_raise")
    assert "at least 4" in body["message"]
    refused(post(actor, action="raise", amount=999), 400, "above_stack")
    refused(post(actor, action="raise"), 400, "invalid")
    refused(post(actor, action="jump"), 400, "invalid")
    refused(post(actor, action="call", version="²"), 400, "invalid")
    refused(
        token_client(actor).post(
            url(table, "actions"), {"hand": 999999, "version": version, "action": "call"}
        ),
        409,
        "hand_not_running",
    )
    refused(post(actor, action="call", version=version - 1), 409, "stale_version")
    assert HandAction.objects.filter(hand=hand).count() == 0


def test_a_visitor_may_not_act(api, dealt):
    table, hand = dealt
    body = {"hand": hand.pk, "version": 1, "action": "fold"}
    refused(api.post(url(table, "actions"), body, format="json"), 401, "not_authenticated")
    refused(api.post(url(table, "seat"), {"buy_in": 100}, format="json"), 401, "not_authenticated")


# --- seats --------------------------------------------------------------------------------
def test_sit_down_top_up_sit_out_sit_in_and_leave(
    token_client, players, table, assert_chips_conserved
):
    alice = players[0]
    client = token_client(alice)
    state = ok(client.post(url(table, "seat"), {"buy_in": 100, "seat": 4}, format="json"))
    assert state["you"]["seat"] == 4 and state["you"]["stack"] == 100
    assert state["seats"][3]["name"] == alice.name and state["seats"][3]["status"] == "waiting"
    assert (
        ok(client.post(url(table, "top-up"), {"amount": 50}, format="json"))["you"]["stack"] == 150
    )
    assert ok(client.post(url(table, "sit-out")))["seats"][3]["status"] == "sitting_out"
    assert ok(client.post(url(table, "sit-in")))["seats"][3]["status"] == "waiting"
    state = ok(client.delete(url(table, "seat")))
    assert state["you"]["seat"] is None and state["seats"][3]["status"] == "empty"
    assert state["you"]["bankroll"] == 10_000
    assert_chips_conserved()


def test_seat_refusals_name_their_codes(token_client, players, make_table):
    small = make_table(name="Two seats", max_seats=2)
    alice, bob, carol = players
    seat = lambda who, **body: token_client(who).post(url(small, "seat"), body, format="json")  # noqa: E731
    refused(seat(alice, buy_in=1), 400, "buy_in_out_of_range")
    refused(seat(alice, buy_in=100, seat=3), 400, "no_such_seat")
    refused(seat(alice, buy_in=100, seat=13), 400, "invalid")
    ok(seat(alice, buy_in=100, seat=1))
    refused(seat(alice, buy_in=100), 409, "already_seated")
    refused(seat(bob, buy_in=100, seat=1), 409, "seat_taken")
    ok(seat(bob, buy_in=100))
    refused(seat(carol, buy_in=100), 409, "table_full")
    refused(token_client(carol).delete(url(small, "seat")), 409, "not_seated")
    refused(token_client(carol).post(url(small, "sit-out")), 409, "not_seated")
    refused(
        token_client(alice).post(url(small, "top-up"), {"amount": 10**6}, format="json"),
        400,
        "buy_in_out_of_range",
    )
    assert Seat.objects.filter(table=small).count() == 2


def test_leaving_during_a_hand_waits_for_its_end(token_client, dealt, players):
    table, hand = dealt
    alice = players[0]
    state = ok(token_client(alice).delete(url(table, "seat")))
    assert state["you"]["leaving"] and state["you"]["seat"] == 1
    assert Seat.objects.filter(table=table, player=alice).exists()
    refused(
        token_client(alice).post(url(table, "top-up"), {"amount": 10}, format="json"),
        409,
        "hand_in_progress",
    )


def test_the_schema_documents_the_play_endpoints_and_the_limits(api):
    schema = api.get("/api/schema/?format=json").json()
    for path in ("state", "actions", "seat", "sit-out", "sit-in", "top-up"):
        assert f"/api/tables/{{id}}/{path}/" in schema["paths"], path
    actions = schema["paths"]["/api/tables/{id}/actions/"]["post"]
    assert {"200", "400", "409", "422", "429"} <= set(actions["responses"])
    assert any(p["name"] == "Idempotency-Key" for p in actions["parameters"])
    description = schema["info"]["description"]
    assert "Idempotency-Key" in description and "300/minute" in description


def test_seat_etiquette_wait_for_the_big_blind_post_now_and_sit_out_next(
    token_client, players, table
):
    alice, bob, carol = players
    seat_take(table=table, player=alice, buy_in=200, seat_number=0)
    seat_take(table=table, player=bob, buy_in=200, seat_number=2)
    hand_start(table=table)  # a game going: a newcomer waits for the big blind
    client = token_client(carol)
    state = ok(client.post(url(table, "seat"), {"buy_in": 100, "seat": 5}, format="json"))
    assert state["you"]["waiting_for_big_blind"] is True
    state = ok(client.post(url(table, "post-now")))
    assert state["you"]["waiting_for_big_blind"] is False
    assert Seat.objects.get(player=carol).owes_blinds == "big"
    refused(client.post(url(table, "post-now")), 400, "invalid_choice")
    state = ok(client.post(url(table, "sit-out-next"), {"when": "big_blind"}, format="json"))
    assert state["you"]["sit_out_next"] == "big_blind"
    assert (
        ok(client.post(url(table, "sit-out-next"), {"when": ""}, format="json"))["you"][
            "sit_out_next"
        ]
        == ""
    )
    bad = client.post(url(table, "sit-out-next"), {"when": "soon"}, format="json")
    assert bad.status_code == 400
    assert Seat.objects.get(player=carol).sit_out_next == ""


def test_post_now_when_sitting_down(token_client, players, table):
    alice, bob, carol = players
    seat_take(table=table, player=alice, buy_in=200, seat_number=0)
    seat_take(table=table, player=bob, buy_in=200, seat_number=2)
    hand_start(table=table)
    body = {"buy_in": 100, "seat": 5, "post_now": True}
    state = ok(token_client(carol).post(url(table, "seat"), body, format="json"))
    assert state["you"]["waiting_for_big_blind"] is False
    assert Seat.objects.get(player=carol).owes_blinds == "big"
