"""``poker bot`` policies: the engine's and a user's function (the docs' example bot), and
what a policy's answer becomes on the socket."""

import pytest

from engine.types import Action, ActionKind
from pokerclient.bots import load_policy, request_of
from pokerclient.config import ClientError


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
