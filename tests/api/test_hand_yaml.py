"""GET /api/hands/<id>/yaml/: a finished hand as pkstate YAML, holding exactly the cards the
viewer may see (their own, the board, hands shown at showdown), and read back to the stored
result."""

from __future__ import annotations

import re

import pytest

from engine import pkstate
from engine.cards import parse_cards
from tables.models import Hand
from tables.selectors.hands import hand_state
from tests.api.helpers import engine_hand, store_hand
from tests.api.test_hidden_cards import allowed_cards

CARD = re.compile(r"(?:10|[2-9TJQKA])[♣♦♥♠]")


def yaml_cards(text: str) -> set[str]:
    return {str(c) for c in parse_cards(" ".join(CARD.findall(text)), distinct=False)}


@pytest.fixture
def mucked(table, players):
    """Checked down: bob's aces show first, then carol's kings and alice's 7-2 are mucked
    unseen, so nobody but their owners ever sees them."""
    state = engine_hand(
        ["7c2d", "AsAh", "KsKh"], "9c5d3h8sJd", ["call", "call", "check"] + ["check"] * 9
    )
    assert set(state.result.shown) == {1}
    return store_hand(table, players, state, number=4)


def test_yaml_download_reads_back_to_the_stored_hand(client_for, players, hands, mucked):
    for hand in [*hands, mucked]:
        for viewer in players:
            response = client_for(viewer).get(f"/api/hands/{hand.pk}/yaml/")
            assert response.status_code == 200
            assert response["Content-Type"] == "application/yaml; charset=utf-8"
            assert response["Content-Disposition"] == (
                f'attachment; filename="hand-{hand.table_id}-{hand.number}.yaml"'
            )
            state = pkstate.loads(response.content.decode())
            assert state.id == str(hand.pk) and state.datetime == hand.started_at
            assert [(s.name, s.stack) for s in state.players] == [
                (s["name"], s["stack"]) for s in hand.seats
            ]
            replayed = state.replay()
            assert list(replayed.result.net) == hand.result["net"]
            assert replayed.board == hand_state(hand).board


def test_yaml_holds_exactly_the_cards_the_viewer_may_see(client_for, players, staff, hands, mucked):
    for hand in [*hands, mucked]:
        state = hand_state(hand)
        for viewer in (*players, staff):
            text = client_for(viewer).get(f"/api/hands/{hand.pk}/yaml/").content.decode()
            allowed = allowed_cards(hand, viewer)
            assert yaml_cards(text) == allowed, (viewer.name, hand.number)
            own = hand.seat_index_of(viewer.pk)
            dealt = {e.seat for e in pkstate.loads(text).rounds[0] if e.kind == "Dealt"}
            assert dealt == {own, *state.result.shown} - {None}, (viewer.name, hand.number)
    # carol never sees bob's folded 7-2; bob never sees the hands mucked against his aces
    text = client_for(players[2]).get(f"/api/hands/{hands[0].pk}/yaml/").content.decode()
    assert "7♣" not in text and "P1Dealt" not in text and "P2Dealt: K♠ K♥" in text
    text = client_for(players[1]).get(f"/api/hands/{mucked.pk}/yaml/").content.decode()
    assert "K♠" not in text and "7♣" not in text and "P1Dealt: A♠ A♥" in text


def test_a_running_hand_or_no_hand_is_refused_as_json(api, client_for, players, running):
    alice = client_for(players[0])
    response = alice.get(f"/api/hands/{running.pk}/yaml/")
    assert response.status_code == 409 and "still being played" in response.json()["message"]
    assert not yaml_cards(response.content.decode())
    assert api.get(f"/api/hands/{running.pk}/yaml/").status_code == 401
    for missing in (running.pk + 1000, "abc", "١"):
        response = alice.get(f"/api/hands/{missing}/yaml/")
        assert response.status_code == 404 and response["Content-Type"] == "application/json"
    Hand.objects.filter(pk=running.pk).update(status=Hand.Status.VOIDED)
    assert alice.get(f"/api/hands/{running.pk}/yaml/").status_code == 404


def test_the_schema_documents_the_yaml_download(api):
    paths = api.get("/api/schema/?format=json").json()["paths"]
    operation = paths["/api/hands/{id}/yaml/"]["get"]
    assert operation["responses"]["200"]["content"] == {
        "application/yaml": {"schema": {"type": "string"}}
    }
    assert "409" in operation["responses"]


def test_the_replayer_links_the_yaml_next_to_the_phh(client_for, players, hands):
    page = client_for(players[0]).get(f"/hands/{hands[0].pk}/").content.decode()
    assert f'href="/api/hands/{hands[0].pk}/phh/"' in page
    assert f'href="/api/hands/{hands[0].pk}/yaml/"' in page
