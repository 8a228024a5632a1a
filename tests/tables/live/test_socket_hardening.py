"""The table socket under attack (issue 15): bad numbers are answered, never a crash; a socket
closed for any reason leaves its table's runtime at once with a code a server may send; one user's
sockets are capped; binary frames and steady floods pay for tokens like any frame."""

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from hypothesis import HealthCheck, given, settings as hypothesis_settings, strategies as st

from tables.db.threads import work_cpu
from tables.live.protocol import RATE_BURST, RATE_PER_SECOND
from tables.live.runtime import TableRuntime
from tables.live.sessions import LiveSockets
from tables.models import HandAction, Seat, Table
from tables.operations import run_op
from tables.services import ServiceError, hand_start, seat_sit_out, seat_take
from tables.text import BadFrame, NumberError
from tests.tables.helpers import actor, current_hand
from tests.tables.wsclient import (
    Socket,
    closed_with,
    communicator,
    handled_to_the_end,
    json_socket,
    refused_with,
    session_cookie,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False


@pytest.fixture
def seated(players, table):
    alice, bob, carol = players
    seat_take(table=table, player=alice, buy_in=200, seat_number=0)
    seat_take(table=table, player=bob, buy_in=200, seat_number=1)
    cookies = {p.name: session_cookie(p.user) for p in players}
    return table, players, cookies


def consumer_of(table, player):
    """The server side of ``player``'s socket: what it rendered (``sent_version``) and its
    channel are what these tests about a socket's end look at."""
    runtime = TableRuntime.following(table.pk)
    (consumer,) = [c for c in runtime.sockets if c.user_id == player.user_id]
    return consumer


async def answer_frame(socket: Socket) -> dict:
    """The next answer to this socket's own request (a ``?state=json`` socket)."""
    while True:
        frame = json.loads(await socket.receive())
        if frame["type"] == "answer":
            return frame


async def answer_of(socket: Socket) -> str:
    """The message of the next answer to this socket's own request."""
    return (await answer_frame(socket))["message"]


async def table_version(table) -> int:
    return await sync_to_async(lambda: Table.objects.get(pk=table.pk).version)()


# --- item 4: numbers in frames --------------------------------------------------------------


async def test_unicode_digits_are_answered_and_change_nothing(seated):
    """The issue's three frames closed the socket with 1011 and logged a traceback."""
    table, players, cookies = seated
    await sync_to_async(hand_start)(table=table)
    bob = await json_socket(table, cookies["bob"])
    carol = await json_socket(table, cookies["carol"])
    before = await table_version(table)
    await carol.comm.send_to(text_data=json.dumps({"op": "take_seat", "seat": "³", "buy_in": 100}))
    assert await answer_of(carol) == "The seat must be a whole number."
    await carol.comm.send_to(
        text_data=json.dumps({"op": "take_seat", "seat": "4", "buy_in": "١٠٠"})
    )
    assert await answer_of(carol) == "The buy-in must be a whole number."
    await carol.comm.send_to(text_data=json.dumps({"op": "take_seat", "seat": 13, "buy_in": 100}))
    assert await answer_of(carol) == "The seat must be between 1 and 12."
    await bob.comm.send_to(text_data=json.dumps({"op": "top_up", "amount": "¹"}))
    assert await answer_of(bob) == "The top-up must be a whole number."
    await bob.comm.send_to(
        text_data=json.dumps({"op": "act", "kind": "fold", "hand": "²", "version": 1})
    )
    assert await answer_of(bob) == "The hand must be a whole number."
    await bob.comm.send_to(
        text_data=json.dumps({"op": "act", "kind": "raise", "amount": 1e3, "hand": 1, "version": 1})
    )
    assert await answer_of(bob) == "The amount must be a whole number."
    # still open and answering; nothing changed
    await carol.comm.send_to(text_data=json.dumps({"op": "sit_in"}))
    assert (await answer_of(carol)).startswith("You have no seat")
    assert await table_version(table) == before
    assert await sync_to_async(HandAction.objects.count)() == 0
    assert not await sync_to_async(Seat.objects.filter(player=players[2]).exists)()
    await bob.close()
    await carol.close()


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text()
    | st.sampled_from(
        [
            "³",
            "²",
            "¹",
            "١٠٠",
            "٣",
            "-1",
            " 7 ",
            "1e3",
            "+5",
            "1_000",
            "0x10",
            "",
            "9" * 40,
            str(2**63),
            "½",
            "Ⅻ",
            "\x00",
        ]
    ),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=5,
)
FIELDS = ("op", "kind", "amount", "hand", "version", "seat", "buy_in", "id")
OPS = ("act", "sit_out", "sit_in", "leave", "top_up", "take_seat")


@pytest.mark.django_db(transaction=False)
@hypothesis_settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    op=st.sampled_from(OPS) | JSON_VALUES,
    kind=st.sampled_from(["fold", "check", "call", "raise", "all_in"]) | JSON_VALUES,
    fields=st.dictionaries(st.sampled_from(FIELDS), JSON_VALUES, max_size=4),
)
def test_any_value_in_any_field_is_answered_or_carried_out(
    running_hand, assert_chips_conserved, op, kind, fields
):
    """Whatever a frame holds, ``run_op`` carries it out or refuses it with a message for
    the sender (never another exception), and no chip is created or lost."""
    table, alice = running_hand
    data = {"op": op, "kind": kind, **fields}
    try:
        message = run_op(table_id=table.pk, user=alice.user, data=data, player=alice)
    except (ServiceError, BadFrame, NumberError) as refused:
        assert str(refused)
    else:
        assert isinstance(message, str)
    assert_chips_conserved()


@pytest.fixture
def running_hand(players, table):
    alice, bob, _ = players
    seat_take(table=table, player=alice, buy_in=200, seat_number=0)
    seat_take(table=table, player=bob, buy_in=200, seat_number=1)
    hand_start(table=table)
    return table, alice


# --- item 5: every way out leaves the runtime; close codes; caps ----------------------------


async def test_a_malformed_action_is_refused_before_the_tables_write_thread(seated):
    """A socket's action is parsed by the runtime before its turn goes to the write thread
    (``tables.live.runtime.TableRuntime._command``): a malformed one is answered without a
    transaction (no command counted, nothing run under the lease), and a well-formed one is
    carried out."""
    table, players, cookies = seated
    await sync_to_async(hand_start)(table=table)
    alice = await json_socket(table, cookies["alice"])
    bob = await json_socket(table, cookies["bob"])
    runtime = TableRuntime.following(table.pk)
    before = await table_version(table)
    ran = work_cpu.calls["command act"]
    for frame, answer in (
        ({"kind": "shove", "hand": 1, "version": before}, "Unknown action."),
        (
            {"kind": "raise", "amount": "x", "hand": 1, "version": before},
            "The amount must be a whole number.",
        ),
        ({"kind": "fold", "hand": 0, "version": before}, "The hand must be at least 1."),
        ({"kind": "discard", "cards": "Zz", "hand": 1, "version": before}, None),
    ):
        await alice.comm.send_to(text_data=json.dumps({"op": "act", **frame}))
        refused = await answer_frame(alice)
        assert refused["error"] and refused["code"] in ("bad_request", "invalid_number")
        if answer is not None:
            assert refused["message"] == answer
    assert work_cpu.calls["command act"] == ran and runtime.commands == 0
    assert await table_version(table) == before
    # the same socket's well-formed action: carried out, on the write thread
    hand = await sync_to_async(current_hand)(table)
    to_act = await sync_to_async(actor)(hand)
    socket = alice if to_act.pk == players[0].pk else bob
    await socket.comm.send_to(
        text_data=json.dumps({"op": "act", "kind": "fold", "hand": hand.pk, "version": before})
    )
    assert not (await answer_frame(socket))["error"]
    assert work_cpu.calls["command act"] == ran + 1 and runtime.commands == 1
    assert await table_version(table) > before
    await alice.close()
    await bob.close()


async def test_a_socket_closed_for_a_big_frame_leaves_its_feed_and_is_not_rendered_for(seated):
    table, players, cookies = seated
    alice, bob, carol = players
    watcher = await Socket("alice", communicator(table.pk, cookies["alice"])).connect()
    big = await Socket("bob", communicator(table.pk, cookies["bob"])).connect()
    closing = consumer_of(table, bob)
    await big.comm.send_to(text_data=json.dumps({"op": "sit_out", "pad": "x" * 5000}))
    assert await closed_with(big.comm) == 4009  # what autobahn accepts (1009 raised there)
    # Left at once, without waiting for the client to acknowledge the close.
    assert len(TableRuntime.following(table.pk).sockets) == 1  # the watcher
    assert LiveSockets.counts(get_channel_layer(), bob.user_id, table.pk) == (0, 0)
    sent = closing.sent_version
    await sync_to_async(seat_take)(table=table, player=carol, buy_in=100, seat_number=3)
    await watcher.until_version(sent + 1)
    assert closing.sent_version == sent  # nothing rendered for the closed socket
    # A frame on the closed socket is ignored.
    await big.comm.send_to(text_data=json.dumps({"op": "sit_out"}))
    assert await handled_to_the_end(big.comm) == []
    assert not await sync_to_async(Seat.objects.filter(player=bob, sitting_out=True).exists)()
    await watcher.close()


async def test_a_socket_whose_handler_raised_leaves_its_feed(seated):
    """An exception in a handler ends the consumer without ``disconnect``: it leaves anyway."""
    table, players, cookies = seated
    alice, bob, _ = players
    watcher = await Socket("alice", communicator(table.pk, cookies["alice"])).connect()
    broken = await Socket("bob", communicator(table.pk, cookies["bob"])).connect()
    consumer = consumer_of(table, bob)
    await get_channel_layer().send(consumer.channel_name, {"type": "no.such.handler"})
    with pytest.raises(ValueError, match="No handler"):
        await broken.comm.wait(timeout=5)
    assert len(TableRuntime.following(table.pk).sockets) == 1  # the watcher
    assert LiveSockets.counts(get_channel_layer(), bob.user_id, table.pk) == (0, 0)
    await watcher.close()


async def test_sockets_per_user_are_capped_per_table_and_in_all(players, make_table, settings):
    settings.POKER_SOCKETS_PER_USER_TABLE = 2
    settings.POKER_SOCKETS_PER_USER = 3
    first, second, third = [await sync_to_async(make_table)() for _ in range(3)]
    alice, bob = [await sync_to_async(session_cookie)(p.user) for p in players[:2]]
    on_first = [await Socket("a", communicator(first.pk, alice)).connect() for _ in range(2)]
    assert await refused_with(communicator(first.pk, alice)) == 4429  # a third on one table
    other = await Socket("b", communicator(second.pk, alice)).connect()  # three in all
    assert await refused_with(communicator(third.pk, alice)) == 4429  # a fourth anywhere
    bobs = await Socket("bob", communicator(first.pk, bob)).connect()  # another user: apart
    await on_first[0].close()
    again = await Socket("a", communicator(first.pk, alice)).connect()  # room again
    for socket in (on_first[1], other, bobs, again):
        await socket.close()


# --- item 7: the rate limit -----------------------------------------------------------------


async def test_binary_frames_take_tokens_and_a_binary_flood_is_closed(seated):
    table, players, cookies = seated
    socket = await json_socket(table, cookies["carol"])
    for _ in range(200):
        await socket.comm.send_to(bytes_data=b"\x00" * 100)
    answers = []
    while True:
        output = await socket.comm.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            assert output["code"] == 4008
            break
        answers.append(json.loads(output["text"])["message"])
    # About a burst answered (a token may refill meanwhile), one "slow down", then closed.
    assert RATE_BURST <= answers.count("Binary frames are not understood.") < 20
    assert answers.count("Too many messages: slow down.") == 1


async def test_a_steady_flood_above_the_rate_is_closed(seated):
    """20 frames a second: a token refills every fourth frame, which used to reset the count
    of refused frames; counted over a window, the flood is closed."""
    table, players, cookies = seated
    socket = await json_socket(table, cookies["carol"])
    code = None
    for _ in range(200):  # 10 s at most; closed after about 2
        await socket.comm.send_to(text_data=json.dumps({"op": "nothing"}))
        await asyncio.sleep(0.05)
        while not await socket.comm.receive_nothing(timeout=0):
            output = await socket.comm.receive_output()
            if output["type"] == "websocket.close":
                code = output["code"]
                break
        if code is not None:
            break
    assert code == 4008


async def test_bursts_within_the_rate_are_all_answered(seated):
    table, players, cookies = seated
    socket = await json_socket(table, cookies["carol"])
    for burst in range(3):
        if burst:
            await asyncio.sleep(RATE_BURST / RATE_PER_SECOND + 0.1)  # the bucket refills
        for _ in range(RATE_BURST):
            await socket.comm.send_to(text_data=json.dumps({"op": "nothing"}))
        for _ in range(RATE_BURST):
            assert (await answer_of(socket)).startswith("Unknown request")
    await socket.close()


# --- item 12: what sit_in says --------------------------------------------------------------


async def test_sitting_in_during_a_hand_one_is_still_in_says_so(seated):
    table, players, cookies = seated
    alice = players[0]
    await sync_to_async(hand_start)(table=table)
    await sync_to_async(seat_sit_out)(table=table, player=alice)
    socket = await json_socket(table, cookies["alice"])
    await socket.comm.send_to(text_data=json.dumps({"op": "sit_in"}))
    message = await answer_of(socket)
    assert message == "Welcome back: you are still dealt into this hand, and into the next ones."
    hand = await sync_to_async(current_hand)(table)
    assert hand.seat_index_of(alice.pk) is not None  # true: still in it
    await socket.close()


# --- refusals carry a stable code beside the message ----------------------------------------


async def test_a_refusal_is_answered_with_its_stable_code(seated):
    table, players, cookies = seated
    hand = await sync_to_async(hand_start)(table=table)
    carol = await json_socket(table, cookies["carol"])
    await carol.comm.send_to(text_data=json.dumps({"op": "take_seat", "seat": "³", "buy_in": 100}))
    assert (await answer_frame(carol))["code"] == "invalid_number"
    await carol.comm.send_to(text_data=json.dumps({"op": "dance"}))
    assert (await answer_frame(carol))["code"] == "bad_request"
    await carol.comm.send_to(text_data=json.dumps({"op": "take_seat", "seat": 1, "buy_in": 100}))
    assert (await answer_frame(carol))["code"] == "seat_taken"
    version = await table_version(table)
    await carol.comm.send_to(
        text_data=json.dumps({"op": "act", "kind": "fold", "hand": hand.pk, "version": version})
    )
    refused = await answer_frame(carol)
    assert refused["error"] is True and refused["code"] == "not_your_turn", refused
    await carol.comm.send_to(
        text_data=json.dumps({"op": "act", "kind": "fold", "hand": hand.pk, "version": version + 5})
    )
    assert (await answer_frame(carol))["code"] == "stale_version"
    await carol.comm.send_to(text_data=json.dumps({"op": "sit_in"}))
    assert (await answer_frame(carol))["code"] == "not_seated"
    await carol.close()
