"""The multi-host harness's no-leak check of a player's JSON state (``deploy/hosts/leaks.py``,
the project's checker ``tests/tables/live/test_no_leak.py`` applied to the play state): a real
state passes for its viewer and, checked as another player's, names the cards that viewer may
not see (the check is not vacuous)."""

from __future__ import annotations

from rest_framework.test import APIClient

from deploy.hosts.leaks import check_state, state_cards, view_cards
from tables.selectors.hands import hand_state
from tables.services import hand_start, seat_take
from tests.tables.live.test_no_leak import Facts


def state_of(player, table) -> dict:
    client = APIClient()
    client.force_login(player.user)
    response = client.get(f"/api/tables/{table.pk}/state/")
    assert response.status_code == 200, response.content
    return response.json()


def frame_of(player, table, hand, seat: int | None) -> dict:
    """A socket's JSON frame as the client holds it: the play state and the engine's view of
    the hand from ``seat`` (None: a spectator's)."""
    view = hand_state(hand).view(seat).to_dict()
    return {"state": state_of(player, table), "view": view, "hand": hand.pk, "running": True}


def no_hand_lookup(table: int, number: int) -> int:
    raise AssertionError("a running hand's state names its hand")


def test_a_player_s_state_shows_their_cards_to_them_and_to_nobody_else(players, table):
    alice, bob, carol = players
    seat_take(table=table, player=alice, buy_in=200, seat_number=0)
    seat_take(table=table, player=bob, buy_in=200, seat_number=2)
    hand = hand_start(table=table)
    frame = frame_of(alice, table, hand, 0)
    cards, others = state_cards(frame["state"])
    assert len(cards) == 2 and not others  # alice's two, preflop
    assert view_cards(frame["view"]) == (cards, False)  # the same two in the engine's view
    facts = Facts()
    entry = {"table": table.pk, "viewer": alice.pk, "state": frame}
    assert check_state(entry, facts, no_hand_lookup) == []
    for viewer in (bob.pk, carol.pk, None):
        assert check_state({**entry, "viewer": viewer}, facts, no_hand_lookup) == cards * 2
    # bob's own frame shows his cards only: no leak for him either
    bobs = {"table": table.pk, "viewer": bob.pk, "state": frame_of(bob, table, hand, 1)}
    assert check_state(bobs, facts, no_hand_lookup) == []
    # a spectator's shows none
    assert state_cards(state_of(carol, table)) == ([], False)
    assert view_cards(hand_state(hand).view(None).to_dict()) == ([], False)
