"""No endpoint ever returns a hole card, the deck or the seed of a running hand, or another
player's unshown cards — for each endpoint, each viewer, staff included.

Every card-looking token in every response body (``As``, ``7c2d``...) must be one the viewer
may see: their own hole cards, cards shown at showdown, and the board of a finished hand.
"""

from __future__ import annotations

import re

import pytest

from engine.cards import ALL_CARDS
from tables.selectors.hands import hand_secret, hand_state

CARD_RUN = re.compile(r"(?<![A-Za-z0-9])((?:[2-9TJQKA][cdhs])+)(?![A-Za-z0-9])")


def card_tokens(text: str) -> set[str]:
    found = set()
    for run in CARD_RUN.findall(text):
        found.update(run[i : i + 2] for i in range(0, len(run), 2))
    return found


def allowed_cards(hand, player) -> set[str]:
    """What ``player`` may see of ``hand``: own cards; once finished, the board and shows."""
    state = hand_state(hand)
    seat = hand.seat_index_of(player.pk) if player is not None else None
    allowed = {str(c) for c in state.hole[seat]} if seat is not None else set()
    if hand.status == hand.Status.FINISHED:
        allowed |= {str(c) for c in state.board}
        for cards, _ in state.result.shown.values():
            allowed |= {str(c) for c in cards}
    else:
        allowed = set()  # nothing of a running hand, not even your own cards, via the API
    return allowed


def all_keys(value) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in all_keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in all_keys(v)}
    return set()


@pytest.fixture
def viewers(players, staff):
    return {"anonymous": None, "alice": players[0], "bob": players[1], "staff": staff}


def urls_for(hand, players, table):
    return [
        f"/api/hands/{hand.pk}/",
        f"/api/hands/{hand.pk}/phh/",
        "/api/hands/",
        f"/api/hands/?player={players[1].pk}",
        "/api/tables/",
        f"/api/tables/{table.pk}/",
        "/api/players/me/",
        f"/api/players/{players[2].pk}/",
        "/api/players/me/stats/",
        f"/api/players/{players[2].pk}/stats/",
        "/api/leaderboard/?min_hands=1",
        f"/hands/{hand.pk}/",
        f"/players/{players[2].pk}/stats/",
    ]


def test_every_endpoint_hides_what_the_viewer_may_not_see(
    api, client_for, viewers, players, table, hands, running
):
    checked = 0
    for name, viewer in viewers.items():
        client = api if viewer is None else client_for(viewer)
        for hand in [*hands, running]:
            allowed = allowed_cards(hand, viewer)
            hidden = {str(c) for c in ALL_CARDS} - allowed
            for url in urls_for(hand, players, table):
                response = client.get(url)
                body = response.content.decode()
                leaked = card_tokens(body) & hidden
                # cards of the other hands in lists are checked against those hands, so only
                # hand-specific pages are held to this hand's allowed set
                if url.startswith((f"/api/hands/{hand.pk}/", f"/hands/{hand.pk}/")):
                    assert not leaked, (name, url, leaked)
                else:
                    assert not card_tokens(body), (name, url, card_tokens(body))
                if response.get("Content-Type", "").startswith("application/json"):
                    keys = all_keys(response.json())
                    assert not keys & {"deck", "seed", "hole"}, (name, url)
                assert hand_secret(hand).seed not in body, (name, url)
                checked += 1
    assert checked == 4 * 4 * 13


def test_a_running_hand_shows_no_cards_even_to_its_players_or_staff(
    client_for, players, staff, running
):
    state = hand_state(running)
    every_hole = {str(c) for cards in state.hole for c in cards}
    for viewer in (*players, staff):
        for url in (
            f"/api/hands/{running.pk}/",
            f"/api/hands/{running.pk}/phh/",
            f"/hands/{running.pk}/",
        ):
            response = client_for(viewer).get(url)
            assert response.status_code == 409
            assert not card_tokens(response.content.decode()) & every_hole
