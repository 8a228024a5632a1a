"""Who hosts is followed by each browser socket's chat (``ChatSocket.chat_follow_host``):
after a hand-over the new host's screens get the muted list with its unmute buttons and the
old host's lose them, without a reload; a version that leaves the host as it was sends none."""

import pytest
from asgiref.sync import sync_to_async

from tables.services import seat_sit_out, seat_take
from tables.services.chat import chat_post
from tables.services.host_seats import table_host_transfer
from tests.tables.wsclient import Socket, communicator, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

MUTED_LIST = 'id="chat-muted"'


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False


async def test_the_mute_controls_follow_the_host(players, make_table):
    alice, bob, _ = players
    table = await sync_to_async(make_table)(name="Home", host=alice)
    for player in (alice, bob):
        await sync_to_async(seat_take)(table=table, player=player, buy_in=100)
    await sync_to_async(chat_post)(table=table, player=alice, text="welcome")
    sockets = {}
    for player in (alice, bob):
        cookie = await sync_to_async(session_cookie)(player.user)
        socket = await Socket(player.user.username, communicator(table.pk, cookie)).connect()
        await socket.until(lambda f: "welcome" in f)  # its chat joined: the history came
        sockets[player.user.username] = socket

    await sync_to_async(seat_sit_out)(table=table, player=bob)  # the host stays alice
    for socket in sockets.values():
        await socket.until_version(socket.version + 1)
        assert not any(MUTED_LIST in f for f in await socket.drain())
        assert not any(MUTED_LIST in f for f in socket.frames)

    await sync_to_async(table_host_transfer)(table=table, by=alice.user, player=bob)
    for name in ("bob", "alice"):  # the new host's controls, the old host's taken away
        frame = await sockets[name].until(lambda f: MUTED_LIST in f)
        assert "unmute" not in frame  # nobody is muted yet
    for socket in sockets.values():
        await socket.close()
