"""Acting in advance through the play API (issue 50): tick, see it in your state only, have
it taken when the other player acts, and the refusals with their codes."""

from __future__ import annotations

import pytest
from django.test import Client

from tables.models import HandAction
from tests.api.test_play import actor_and_other, dealt, ok, refused, token_client, url

__all__ = ["dealt", "token_client"]  # the fixtures, shared with the play API's tests

pytestmark = pytest.mark.django_db


def test_a_tick_is_kept_shown_to_its_player_and_taken(dealt, players, token_client):
    table, hand = dealt
    actor, other = actor_and_other(hand, players)
    mine, theirs = token_client(other), token_client(actor)
    state = ok(mine.get(url(table)))
    assert [o["kind"] for o in state["pre_actions"]["offers"]] == [
        "check_fold",
        "check",
        "call_any",
    ]  # heads-up: the big blind, not to act, owes nothing
    ticked = ok(mine.post(url(table, "pre-action"), {"kind": "check_fold"}, format="json"))
    assert ticked["pre_actions"]["ticked"] == {"kind": "check_fold", "amount": 0}
    assert ok(theirs.get(url(table)))["pre_actions"] is None
    after = ok(
        theirs.post(
            url(table, "actions"),
            {"action": "raise", "amount": 6, "hand": hand.pk, "version": state["version"]},
            format="json",
        )
    )
    assert after["running"] is False  # the big blind folded to the raise at once
    assert list(HandAction.objects.filter(hand=hand).values_list("kind", "source")) == [
        ("raise", "player"),
        ("fold", "pre"),
    ]


def test_refusals_have_their_codes(dealt, players, token_client):
    table, hand = dealt
    actor, other = actor_and_other(hand, players)
    refused(
        token_client(actor).post(url(table, "pre-action"), {"kind": "check"}, format="json"),
        409,
        "not_your_turn",
    )
    refused(
        token_client(other).post(url(table, "pre-action"), {"kind": "fold"}, format="json"),
        400,
        "invalid_choice",
    )
    refused(
        token_client(players[2]).post(url(table, "pre-action"), {"kind": "check"}, format="json"),
        409,
        "not_seated",
    )
    assert token_client(other).post(url(table, "pre-action"), {"kind": "dance"}).status_code == 400
    assert Client().post(url(table, "pre-action"), {"kind": "check"}).status_code in (401, 403)


def test_the_openapi_document_has_it(api):
    schema = Client().get("/api/schema/?format=json").json()
    body = schema["paths"]["/api/tables/{id}/pre-action/"]["post"]
    assert body["summary"] == "Act in advance"
