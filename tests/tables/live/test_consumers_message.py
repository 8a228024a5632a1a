"""The message line does not outlive what it said: "You sat down: you are dealt in from the
next hand" is cleared when that hand deals the player in, not left up during their turn."""

import pytest
from asgiref.sync import sync_to_async

from tables.services import hand_start, seat_take
from tests.tables.live.test_consumers import answer, message_of
from tests.tables.wsclient import Socket, communicator, hand_of, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False  # the test deals the hand itself


@pytest.fixture
def cookies(players, table):
    seat_take(table=table, player=players[0], buy_in=200, seat_number=0)  # alice
    return {p.name: session_cookie(p.user) for p in players}


async def test_the_sat_down_message_is_cleared_when_the_hand_deals_the_player_in(table, cookies):
    bob_socket = await Socket("bob", communicator(table.pk, cookies["bob"])).connect()
    carol_socket = await Socket("carol", communicator(table.pk, cookies["carol"])).connect()

    await bob_socket.send(op="take_seat", seat="3", buy_in="150")
    assert await answer(bob_socket) == "You sat down: you are dealt in from the next hand."
    await carol_socket.send(op="take_seat", seat="9", buy_in="150")
    assert "seat" in (await answer(carol_socket)).lower(), "a refusal is on carol's line"
    await bob_socket.drain()
    await carol_socket.drain()

    hand = await sync_to_async(hand_start)(table=table)
    await bob_socket.until(lambda f: hand_of(f) == hand.pk)
    assert await answer(bob_socket) == "", "dealt in: the sat-down message is cleared"
    # carol is not dealt in: her line is hers to clear with her next request
    frames = await carol_socket.drain(timeout=0.5)
    assert [message_of(f) for f in frames if message_of(f) is not None] == []

    await bob_socket.close()
    await carol_socket.close()
