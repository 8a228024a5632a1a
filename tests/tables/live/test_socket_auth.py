"""A program's table socket logs in with its API token (``tables.live.auth``): in the first
frame or an ``Authorization`` header, never in the URL; a wrong token is refused with a code."""

import json

import pytest
from rest_framework.authtoken.models import Token

from tables.live import auth
from tables.services import seat_take
from tests.tables.wsclient import closed_with, communicator

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False


@pytest.fixture
def token(players, table):
    seat_take(table=table, player=players[0], buy_in=200, seat_number=0)
    return Token.objects.create(user=players[0].user).key


async def receive_json(comm) -> dict:
    return json.loads(await comm.receive_from(timeout=5))


async def program_socket(table, headers=None, query="state=json"):
    """A socket as the ``poker`` client opens it: no Origin, no cookie."""
    comm = communicator(table.pk, cookie=None, origin=None, query=query, headers=headers)
    connected, _ = await comm.connect()
    assert connected
    return comm


def seated_me(state: dict) -> bool:
    return state["type"] == "state" and state["me"]["seated"] is True


async def test_a_token_in_the_first_frame_logs_in(table, token):
    comm = await program_socket(table)
    await comm.send_to(text_data=json.dumps({"op": "auth", "token": token, "id": 1}))
    answer = await receive_json(comm)
    assert answer == {"type": "answer", "message": "Logged in as alice.", "error": False, "id": 1}
    state = await receive_json(comm)
    assert seated_me(state), "the socket is alice's: her seat is hers"
    await comm.send_to(text_data=json.dumps({"op": "sit_out", "id": 2}))
    answer = await receive_json(comm)
    assert answer["error"] is False and answer["id"] == 2
    await comm.disconnect()


async def test_a_token_in_the_header_logs_in(table, token):
    comm = await program_socket(table, headers={"Authorization": f"Token {token}"})
    state = await receive_json(comm)
    assert seated_me(state)
    await comm.send_to(text_data=json.dumps({"op": "auth", "token": token}))
    answer = await receive_json(comm)
    assert answer["code"] == "bad_request", "logging in twice is refused, the socket stays"
    await comm.disconnect()


async def test_the_header_works_for_a_browser_style_html_socket_too(table, token):
    comm = await program_socket(table, headers={"Authorization": f"Token {token}"}, query="")
    assert 'id="table-seats"' in await comm.receive_from(timeout=5)
    await comm.disconnect()


@pytest.mark.parametrize("bad", ["0" * 40, "", 7, None, "x" * 500])
async def test_a_wrong_token_in_the_first_frame_is_refused(table, token, bad):
    comm = await program_socket(table)
    await comm.send_to(text_data=json.dumps({"op": "auth", "token": bad}))
    answer = await receive_json(comm)
    assert answer["error"] is True and answer["code"] == "invalid_token"
    assert answer["message"] == auth.INVALID_TOKEN
    assert await closed_with(comm) == 4401


@pytest.mark.parametrize("header", ["Token " + "0" * 40, "Token", "Bearer abc", "Basic YTpi"])
async def test_a_wrong_token_in_the_header_is_refused(table, token, header):
    comm = await program_socket(table, headers={"Authorization": header})
    answer = await receive_json(comm)
    assert answer["code"] == "invalid_token"
    assert await closed_with(comm) == 4401


async def test_an_inactive_users_token_is_refused(table, token, players):
    players[0].user.is_active = False
    await players[0].user.asave()
    comm = await program_socket(table, headers={"Authorization": f"Token {token}"})
    assert (await receive_json(comm))["code"] == "invalid_token"
    assert await closed_with(comm) == 4401


async def test_a_token_in_the_query_string_is_not_read(table, token):
    """The URL ends up in logs: a token there logs nobody in."""
    comm = await program_socket(table, query=f"state=json&token={token}")
    await comm.send_to(text_data=json.dumps({"op": "sit_out"}))
    answer = await receive_json(comm)
    assert answer["code"] == "not_authenticated"
    assert await closed_with(comm) == 4401


async def test_a_socket_that_never_logs_in_is_closed(table, token, monkeypatch):
    monkeypatch.setattr("tables.live.joining.AUTH_WAIT_SECONDS", 0.05)
    comm = await program_socket(table)
    assert (await receive_json(comm))["code"] == "not_authenticated"
    assert await closed_with(comm) == 4401


async def test_an_anonymous_html_socket_watches_as_a_spectator(table):
    """No token, no cookie, no JSON: a logged-out visitor's page, shown the public table (what
    a spectator may do and see: ``test_spectators.py``)."""
    comm = await program_socket(table, query="")
    assert 'id="table-seats"' in await comm.receive_from(timeout=5)
    await comm.disconnect()


async def test_a_cookie_without_an_origin_is_still_refused_at_the_handshake(table, token):
    """Only a browser carries the session cookie, and a browser always sends its Origin."""
    comm = communicator(
        table.pk, cookie="sessionid=whatever", origin=None, query="state=json", headers={}
    )
    connected, _ = await comm.connect()
    assert not connected
