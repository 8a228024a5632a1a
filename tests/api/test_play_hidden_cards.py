"""No play state ever holds a card its caller may not see: over hundreds of hands played
through the play API by two players (random legal moves, so folds, all-ins and showdowns),
with a spectator watching, every state each of the three gets after every move is checked.

A player may see their own hole cards, the board as far as it is dealt, and, once the hand is
over, the hands shown at showdown; a spectator the board and the shown hands. Nothing else:
no opponent's hole card, no mucked card, no undealt card. Every state validates against the
published schema.
"""

from __future__ import annotations

import os
import random

import jsonschema
import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tables.models import Hand
from tables.presenters.play_state import PLAY_STATE
from tables.selectors.hands import hand_state
from tables.services import hand_start, player_grant, seat_take
from tests.api.test_hidden_cards import card_tokens

pytestmark = [pytest.mark.django_db, pytest.mark.slow, pytest.mark.one_pass]

HANDS = int(os.environ.get("LEAK_HANDS", "200"))
BOARD_DEALT = {"preflop": 0, "flop": 3, "turn": 4, "river": 5, "over": 5}
VALIDATOR = jsonschema.Draft202012Validator(PLAY_STATE)


@pytest.fixture(autouse=True)
def unthrottled(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None, "play": None},
    }


def client_of(player) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=player.user).key}")
    return client


def allowed(hand: Hand, player_id: int | None, street: str) -> set[str]:
    state = hand_state(hand)
    seat = hand.seat_index_of(player_id) if player_id is not None else None
    cards = {str(c) for c in state.hole[seat]} if seat is not None else set()
    cards |= {str(c) for c in state.board[: BOARD_DEALT[street]]}
    if state.is_over:
        for shown, _ in state.result.shown.values():
            cards |= {str(c) for c in shown}
    return cards


def choose(state: dict, rng: random.Random) -> dict:
    legal = state["legal"]
    action = rng.choice(legal["actions"])
    body = {"hand": state["hand"], "version": state["version"], "action": action}
    if action == "raise":
        body["amount"] = rng.randint(legal["min_raise_to"], legal["max_raise_to"])
    return body


def test_no_state_holds_a_card_its_caller_may_not_see(players, table):
    alice, bob, carol = players
    for player in (alice, bob):
        player_grant(player=player, amount=10**7, reason="a long session")
        seat_take(table=table, player=player, buy_in=200)
    viewers = {alice.pk: client_of(alice), bob.pk: client_of(bob), None: client_of(carol)}
    url = f"/api/tables/{table.pk}/state/"
    rng = random.Random(18)
    checked = showdowns = 0
    for _ in range(HANDS):
        for player in (alice, bob):  # a busted player buys in again
            if not player.seats.filter(table=table).exists():
                seat_take(table=table, player=player, buy_in=200)
        hand = hand_start(table=table)
        while True:
            states = {}
            for player_id, client in viewers.items():
                state = client.get(url).json()
                VALIDATOR.validate(state)
                street = state["street"]
                hand.refresh_from_db()
                seen = card_tokens(str(state))
                leaked = seen - allowed(hand, player_id, street)
                assert not leaked, (hand.number, player_id, street, leaked)
                states[player_id] = state
                checked += 1
            if not states[None]["running"]:
                showdowns += bool(states[None]["result"]["shown"])
                break
            actor = next(pid for pid, s in states.items() if s["legal"] is not None)
            response = viewers[actor].post(
                f"/api/tables/{table.pk}/actions/", choose(states[actor], rng), format="json"
            )
            assert response.status_code == 200, response.content
    assert checked >= HANDS * 3 * 2 and showdowns > 0


# --- issue 20: the stud games ----------------------------------------------------------------
STUD_HANDS = max(HANDS // 8, 10)


def stud_allowed(hand: Hand, player_id: int | None) -> set[str]:
    """Stud: the caller's own cards, every up-card dealt so far, the common card and, once
    the hand is over, the hands shown. Never another player's down-card."""
    state = hand_state(hand)
    seat = hand.seat_index_of(player_id) if player_id is not None else None
    cards = {str(c) for c in state.board}
    for index, (hole, up) in enumerate(zip(state.hole, state.up, strict=True)):
        cards |= {str(c) for c, face_up in zip(hole, up, strict=True) if face_up or index == seat}
    if state.is_over:
        for shown, _ in state.result.shown.values():
            cards |= {str(c) for c in shown}
    return cards


@pytest.mark.parametrize("game", ["stud", "stud-hilo", "razz"])
def test_no_stud_state_holds_another_players_down_card(players, make_table, game):
    table = make_table(
        game=game, betting="fixed-limit", ante=1, bring_in=2, small_bet=5, max_seats=8
    )
    alice, bob, carol = players
    for player in (alice, bob):
        player_grant(player=player, amount=10**7, reason="a long session")
        seat_take(table=table, player=player, buy_in=200)
    viewers = {alice.pk: client_of(alice), bob.pk: client_of(bob), None: client_of(carol)}
    url = f"/api/tables/{table.pk}/state/"
    rng = random.Random(game)
    checked = showdowns = 0
    for _ in range(STUD_HANDS):
        for player in (alice, bob):
            if not player.seats.filter(table=table).exists():
                seat_take(table=table, player=player, buy_in=200)
        hand = hand_start(table=table)
        while True:
            states = {}
            hand.refresh_from_db()
            for player_id, client in viewers.items():
                state = client.get(url).json()
                VALIDATOR.validate(state)
                leaked = card_tokens(str(state)) - stud_allowed(hand, player_id)
                assert not leaked, (game, hand.number, player_id, state["street"], leaked)
                states[player_id] = state
                checked += 1
            if not states[None]["running"]:
                showdowns += bool(states[None]["result"]["shown"])
                break
            actor = next(pid for pid, s in states.items() if s["legal"] is not None)
            response = viewers[actor].post(
                f"/api/tables/{table.pk}/actions/", choose(states[actor], rng), format="json"
            )
            assert response.status_code == 200, response.content
    assert checked >= STUD_HANDS * 3 * 2 and showdowns > 0
