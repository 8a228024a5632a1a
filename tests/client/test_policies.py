"""``poker bot`` policies: the engine's and a user's function (the docs' example bot), and
what a policy's answer becomes on the socket."""

import pytest

from engine.types import Action, ActionKind
from pokerclient.bots import load_policy, request_of, safe_fields
from pokerclient.config import ClientError
from pokerclient.seating import parse_discard, parse_pick


def state(cards, actions, call=0, min_raise_to=4, max_raise_to=200):
    seats = [{"is_you": True, "cards": cards}, {"is_you": False, "cards": [None, None]}]
    legal = {
        "actions": actions,
        "call": call,
        "min_raise_to": min_raise_to,
        "max_raise_to": max_raise_to,
    }
    return {"state": {"seats": seats, "legal": legal, "table": {"big_blind": 2}}}


def test_the_docs_example_policy_plays():
    decide = load_policy("tests.client.example_bot:decide")
    assert request_of(decide(state(["Ah", "Ad"], ["fold", "call", "raise"], call=2))) == {
        "kind": "raise",
        "amount": 8,
    }
    assert request_of(decide(state(["Ah", "Kd"], ["check", "raise"]))) == {"kind": "check"}
    assert request_of(decide(state(["Ah", "Kd"], ["fold", "call"], call=50))) == {"kind": "fold"}


@pytest.mark.parametrize(
    "answer, fields",
    [
        ("fold", {"kind": "fold"}),
        ("raise 120", {"kind": "raise", "amount": 120}),
        (("raise", 120), {"kind": "raise", "amount": 120}),
        ({"kind": "all_in"}, {"kind": "all_in"}),
        (Action(ActionKind.CALL), {"kind": "call"}),
    ],
)
def test_every_documented_answer_becomes_a_request(answer, fields):
    assert request_of(answer) == fields


@pytest.mark.parametrize("spec", ["cunning", "no_such_module:decide", "tests.client:nothing"])
def test_an_unknown_policy_is_a_clear_error(spec):
    with pytest.raises(ClientError):
        load_policy(spec)


# --- the draw games and dealer's choice (issue 30) -------------------------------------------
def test_a_discard_becomes_a_request_with_its_cards():
    assert request_of("discard 7h2c") == {"kind": "discard", "cards": ["7h", "2c"]}
    assert request_of({"kind": "discard", "cards": ["Kd"]}) == {"kind": "discard", "cards": ["Kd"]}
    assert request_of("discard") == {"kind": "discard", "cards": []}


def test_a_failed_policy_stands_pat_at_a_draw_and_calls_a_bring_in():
    assert safe_fields(["discard"]) == {"kind": "discard"}
    assert safe_fields(["call", "raise"]) == {"kind": "call"}
    assert safe_fields(["fold", "call"]) == {"kind": "fold"}


@pytest.mark.parametrize("game", ["27-triple-draw", "27-single-draw", "badugi", "five-card-draw"])
def test_the_engine_policies_draw_legally_in_every_draw_game(game):
    import random

    from engine.config import HandConfig
    from engine.hand import Hand
    from engine.variants import variant

    rules = variant(game)
    config = HandConfig(game=game, betting=rules.bettings[0], small_blind=1, big_blind=2)
    deck = list(range(52))
    random.Random(7).shuffle(deck)  # a fixed deck
    for policy in ("sensible", "random"):
        hand = Hand(config, stacks=[100, 100, 100], button=0, deck=deck)
        decide = load_policy(policy, seed=3)
        for _ in range(200):
            if hand.is_over:
                break
            view = hand.view(hand.actor)
            hand.act(Action.coerce(request_of(decide({"view": view}))))
        assert hand.is_over


def test_the_terminal_reads_the_cards_to_throw_away_and_the_game_picked():
    state = {"you": {"seat": 1}, "seats": [{"seat": 1, "cards": ["7h", "2c", "Kd", "9s", "3d"]}]}
    assert parse_discard("7h 2c", state) == ["7h", "2c"]
    assert parse_discard("", state) == []
    with pytest.raises(ClientError):
        parse_discard("As", state)
    with pytest.raises(ClientError):
        parse_discard("7h7h", state)
    picks = [{"game": "badugi/fixed-limit", "name": "Fixed-limit Badugi"}]
    assert parse_pick("1", picks) == "badugi/fixed-limit"
    with pytest.raises(ClientError):
        parse_pick("2", picks)
