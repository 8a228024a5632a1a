"""A log-in that ends ends its sockets (issue 15, item 10): log-out closes that session's
table sockets; a password change, however made, closes all the user's sockets and deletes
their API token. Other saves of the user, other sessions and other users are left alone."""

import json

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tables.models import Seat
from tests.tables.wsclient import (
    Socket,
    closed_with,
    communicator,
    handled_to_the_end,
    json_socket,
)

pytestmark = pytest.mark.django_db(transaction=True)

NEW_PASSWORD = "a-New-pass-phrase-9"


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False


def logged_in(user) -> tuple[Client, str]:
    client = Client()
    client.force_login(user)
    return client, f"sessionid={client.cookies['sessionid'].value}"


async def still_open(socket: Socket) -> bool:
    """The socket answers a request (so it was neither closed nor left unable to act)."""
    await socket.comm.send_to(text_data=json.dumps({"op": "nothing"}))
    output = await socket.comm.receive_output(timeout=5)
    return output["type"] == "websocket.send" and json.loads(output["text"])["type"] == "answer"


def token_works(key: str) -> bool:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    status = api.get("/api/players/me/").status_code
    assert status in (200, 401)
    return status == 200


async def test_log_out_closes_that_sessions_sockets_and_they_can_no_longer_act(players, table):
    carol, bob = players[2], players[1]
    client, cookie = await sync_to_async(logged_in)(carol.user)
    _, other_session = await sync_to_async(logged_in)(carol.user)
    mine = await json_socket(table, cookie)
    elsewhere = await json_socket(table, other_session)
    bobs = await json_socket(table, (await sync_to_async(logged_in)(bob.user))[1])
    response = await sync_to_async(client.post)("/accounts/logout/")
    assert response.status_code in (200, 302)
    assert await closed_with(mine.comm) == 4401
    # What it sends now does nothing: the seat stays free.
    await mine.comm.send_to(text_data=json.dumps({"op": "take_seat", "seat": 4, "buy_in": 100}))
    assert await handled_to_the_end(mine.comm) == []
    assert not await sync_to_async(Seat.objects.filter(player=carol).exists)()
    # Reconnecting with the ended session is a logged-out visitor's: a spectator who may not
    # act; other sessions and users go on.
    watcher = await Socket("ended", communicator(table.pk, cookie)).connect()
    await watcher.send(op="take_seat", seat="4", buy_in="100")
    await watcher.until(lambda frame: "Log in to play" in frame)
    await watcher.close()
    assert not await sync_to_async(Seat.objects.filter(player=carol).exists)()
    assert await still_open(elsewhere)
    assert await still_open(bobs)
    await elsewhere.close()
    await bobs.close()


def change_with_the_form(user):
    client = Client()
    client.force_login(user)
    response = client.post(
        "/accounts/password/",
        {
            "old_password": f"pw-{user.username}-Secret1",
            "new_password1": NEW_PASSWORD,
            "new_password2": NEW_PASSWORD,
        },
    )
    assert response.status_code == 302, response.content[:500]


def change_in_code(user):
    user.set_password(NEW_PASSWORD)
    user.save()


@pytest.mark.parametrize("change", [change_with_the_form, change_in_code])
async def test_a_password_change_closes_every_socket_of_the_user_and_retires_the_token(
    players, table, change
):
    carol, bob = players[2], players[1]
    key = (await Token.objects.acreate(user=carol.user)).key
    bobs_key = (await Token.objects.acreate(user=bob.user)).key
    assert await sync_to_async(token_works)(key)
    sockets = [
        await json_socket(table, (await sync_to_async(logged_in)(carol.user))[1]) for _ in range(2)
    ]
    bobs = await json_socket(table, (await sync_to_async(logged_in)(bob.user))[1])
    await sync_to_async(change)(carol.user)
    for socket in sockets:
        assert await closed_with(socket.comm) == 4401
        await socket.comm.send_to(
            text_data=json.dumps({"op": "take_seat", "seat": 4, "buy_in": 100})
        )
    assert not await sync_to_async(token_works)(key)
    assert not await Token.objects.filter(user=carol.user).aexists()
    assert not await sync_to_async(Seat.objects.filter(player=carol).exists)()
    assert await sync_to_async(token_works)(bobs_key)
    assert await still_open(bobs)
    await bobs.close()


class OneRoundPBKDF2(PBKDF2PasswordHasher):
    """The preferred hasher, cheap: a stored MD5 hash is upgraded to it at log-in."""

    iterations = 1


async def test_other_saves_and_a_rehash_at_log_in_are_not_password_changes(
    players, table, settings
):
    carol = players[2]
    key = (await Token.objects.acreate(user=carol.user)).key
    socket = await json_socket(table, (await sync_to_async(logged_in)(carol.user))[1])

    def unrelated_saves():
        user = type(carol.user).objects.get(pk=carol.user.pk)
        user.first_name = "Caroline"
        user.save()
        user.save(update_fields=["last_login"])

    await sync_to_async(unrelated_saves)()
    settings.PASSWORD_HASHERS = [
        f"{__name__}.OneRoundPBKDF2",
        "django.contrib.auth.hashers.MD5PasswordHasher",
    ]

    def log_in_with_rehash():
        user = type(carol.user).objects.get(pk=carol.user.pk)
        before = user.password
        response = Client().post(
            "/accounts/login/", {"username": "carol", "password": "pw-carol-Secret1"}
        )
        assert response.status_code == 302
        user.refresh_from_db()
        assert user.password != before and user.password.startswith("pbkdf2_sha256$1$")

    await sync_to_async(log_in_with_rehash)()
    assert await still_open(socket)
    assert await sync_to_async(token_works)(key)
    await socket.close()
