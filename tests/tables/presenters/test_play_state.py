"""The play state (``tables.presenters.play_state``): what the browser shows, as one JSON
object that validates against its published schema, for players and spectators alike."""

from __future__ import annotations

import dataclasses
import json
from datetime import timedelta

import jsonschema
import pytest
from django.utils import timezone

from tables.live.frames import render_viewer
from tables.models import Hand, Table
from tables.presenters import play_state as play_state_module
from tables.presenters.play_state import PLAY_STATE, play_state
from tables.presenters.screen import table_screen
from tables.selectors.hands import hand_state
from tables.selectors.players import player_bankroll
from tables.selectors.snapshot import load_snapshot
from tables.services import hand_start, seat_leave, seat_take

pytestmark = pytest.mark.django_db

VALIDATOR = jsonschema.Draft202012Validator(
    PLAY_STATE, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
)


def state_of(table, player, now=None) -> dict:
    snapshot = load_snapshot(table)
    bankroll = player_bankroll(player.pk) if player is not None else None
    state = play_state(snapshot, table_screen(snapshot, player, bankroll), now)
    VALIDATOR.validate(state)
    return state


@pytest.fixture
def dealt(players, table):
    alice, bob, carol = players
    seat_take(table=table, player=alice, buy_in=200, seat_number=0)
    seat_take(table=table, player=bob, buy_in=200, seat_number=2)
    hand = hand_start(table=table)
    table.refresh_from_db()
    return table, hand, alice, bob, carol


def test_the_schema_is_a_valid_json_schema():
    jsonschema.Draft202012Validator.check_schema(PLAY_STATE)


def test_an_empty_table_for_a_visitor(table):
    state = state_of(table, None)
    assert state["protocol"] == 1
    assert state["table"]["id"] == table.pk and state["table"]["status"] == "open"
    assert state["hand"] is None and not state["running"] and state["you"] is None
    assert [s["seat"] for s in state["seats"]] == list(range(1, table.max_seats + 1))
    assert {s["status"] for s in state["seats"]} == {"empty"}
    assert state["legal"] is None and state["result"] is None


def test_each_player_sees_their_own_cards_a_spectator_none(dealt):
    table, hand, alice, bob, carol = dealt
    engine = hand_state(hand)
    own = {p.name: [str(c) for c in engine.hole[hand.seat_index_of(p.pk)]] for p in (alice, bob)}
    for viewer in (alice, bob, carol):
        state = state_of(table, viewer)
        seats = {s["name"]: s for s in state["seats"] if s["name"]}
        for name, seat in seats.items():
            assert seat["status"] == "playing"
            if name == viewer.name:
                assert seat["cards"] == own[name] and seat["is_you"]
            else:
                assert seat["cards"] == [None, None] and not seat["is_you"]
    assert state_of(table, carol)["you"]["seat"] is None


def test_the_actor_gets_legal_actions_and_the_clock(dealt, play):
    table, hand, alice, bob, carol = dealt
    actor = play.actor(hand)
    other = bob if actor == alice else alice
    now = timezone.now()
    state = state_of(table, actor, now)
    assert state["hand"] == hand.pk and state["running"]
    assert state["actor"] == state["you"]["seat"]
    legal = state["legal"]
    assert legal["actions"] == ["fold", "call", "raise", "all_in"]
    assert legal["call"] == 1 and legal["min_raise_to"] == 4 and legal["max_raise_to"] == 200
    assert state["clock"]["action_seconds"] == table.action_seconds
    deadline = table.action_deadline
    assert state["clock"]["seconds_left"] == pytest.approx(
        (deadline - now).total_seconds(), abs=0.002
    )
    assert state["clock"]["time_bank"] == table.time_bank_seconds
    later = state_of(table, actor, deadline + timedelta(seconds=5))
    assert later["clock"]["seconds_left"] == 0
    assert state_of(table, other)["legal"] is None
    assert state_of(table, carol)["legal"] is None


def test_the_button_blinds_and_bets_are_the_table_seats(dealt):
    table, hand, alice, bob, carol = dealt
    state = state_of(table, carol)
    seats = {s["seat"]: s for s in state["seats"]}
    assert state["button"] in (1, 3)
    assert seats[state["button"]]["is_button"] and seats[state["button"]]["is_small_blind"]
    blinds = sorted(s["bet"] for s in seats.values() if s["status"] == "playing")
    assert blinds == [1, 2]
    assert state["total_pot"] == 3


def test_the_result_between_hands_names_winners_and_shown_hands(dealt, play):
    table, hand, alice, bob, carol = dealt
    hand = play.play_out(table)
    assert hand.status == Hand.Status.FINISHED
    table.refresh_from_db()
    state = state_of(table, carol)
    assert state["hand"] is None and not state["running"] and state["legal"] is None
    result = state["result"]
    assert result["hand"] == hand.pk and result["number"] == hand.number
    assert sum(p["amount"] for p in result["pots"]) == hand.pot
    winners = {w["seat"] for p in result["pots"] for w in p["winners"]}
    assert winners <= {1, 3}
    engine = hand_state(hand)
    for shown in result["shown"]:
        index = next(i for i, s in enumerate(hand.seats) if s["seat"] == shown["seat"] - 1)
        assert shown["cards"] == [str(c) for c in engine.result.shown[index][0]]
    assert len(state["board"]) == 5  # passive play to the end: a showdown
    assert state["log"] and all(isinstance(line["text"], str) for line in state["log"])


def pause(table) -> None:
    Table.objects.filter(pk=table.pk).update(status=Table.Status.PAUSED)


def empty(table) -> None:
    for player in [seat.player for seat in table.seats.all()]:
        seat_leave(table=table, player=player)


@pytest.mark.parametrize("leave_the_felt", [pause, empty])
def test_a_paused_or_emptied_table_between_hands_has_no_hand_in_its_state(
    dealt, play, leave_the_felt
):
    """Issue 54: its felt shows no hand (issue 31 item 8), and its state was the last hand's
    result read against the felt's pots: a ValueError, answered 500."""
    table, hand, alice, bob, carol = dealt
    play.play_out(table)  # a showdown: cards shown, each player's hand theirs to show
    leave_the_felt(table)
    table.refresh_from_db()
    for viewer in (alice, bob, carol, None):
        state = state_of(table, viewer)
        assert state["result"] is None and state["board"] == [] and state["street"] is None
        assert state["hand_number"] == hand.number  # the table's last hand
        assert all(not seat["cards"] for seat in state["seats"])
        assert viewer is None or not state["you"]["can_show"]  # no hand on screen to show


def test_the_json_socket_frame_carries_the_play_state(dealt):
    table, hand, alice, bob, carol = dealt
    snapshot = load_snapshot(table)
    _, _, frame = render_viewer(snapshot, alice, json_state=True)
    data = json.loads(frame)
    VALIDATOR.validate(data["state"])
    assert data["state"]["version"] == data["version"] == table.version
    assert data["view"]["seats"] and data["me"]["seated"]  # the older keys stay


def test_a_seat_whose_turn_came_or_went_is_the_very_same_dict(dealt):
    """The state's seat does not say whose turn it is (``actor`` does): the next actor's seat
    is the dict it was (an update's diff passes it over), equal to one made anew."""
    snapshot = load_snapshot(dealt[0])
    panels = table_screen(snapshot, None).seats.seats
    panel = next(p for p in panels if p.plate is not None)
    turned = dataclasses.replace(panel, is_actor=not panel.is_actor)
    assert turned != panel
    assert play_state_module._seat(turned, True) is play_state_module._seat(panel, True)
    play_state_module._seat_data.cache_clear()
    assert play_state_module._seat(turned, True) == play_state_module._seat(panel, True)
    other = dataclasses.replace(panel, is_me=not panel.is_me)  # what it says is made anew
    assert play_state_module._seat(other, True)["is_you"] is other.is_me
