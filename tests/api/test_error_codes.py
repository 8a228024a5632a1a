"""Every API error carries a stable machine-readable ``code`` beside its human ``message``."""

from __future__ import annotations

import pytest

from tables.services import errors


@pytest.mark.parametrize(
    ("url", "status", "code"),
    [
        ("/api/hands/", 401, "not_authenticated"),
        ("/api/tables/?page_size=%C2%B2", 400, "invalid"),
        ("/api/tables/999999/", 404, "not_found"),
    ],
)
def test_an_error_names_its_code_and_says_why(api, table, url, status, code):
    response = api.get(url)
    assert response.status_code == status
    body = response.json()
    assert body["code"] == code
    assert body["message"]


def test_a_wrong_password_for_a_token_is_authentication_failed(api, players):
    response = api.post(
        "/api/auth/token/", {"username": players[0].name, "password": "nope"}, format="json"
    )
    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"


def test_a_running_hand_is_hand_running(client_for, players, table):
    from tables.services import hand_start, seat_take

    for player in players[:2]:
        seat_take(table=table, player=player, buy_in=100)
    hand = hand_start(table=table)
    response = client_for(players[0]).get(f"/api/hands/{hand.pk}/")
    assert response.status_code == 409
    assert response.json()["code"] == "hand_running"


def test_every_service_error_has_its_own_stable_code():
    classes = [errors.ServiceError, *errors.ServiceError.__subclasses__()]
    codes = [cls.code for cls in classes]
    assert len(codes) == len(set(codes)), "two errors share a code"
    assert all(code.isascii() and code.islower() and " " not in code for code in codes)
    assert errors.StaleAction.code == "stale_version"
    assert errors.NotYourTurn.code == "not_your_turn"
    assert errors.TableFull.code == "table_full"
    assert errors.BuyInOutOfRange.code == "buy_in_out_of_range"
