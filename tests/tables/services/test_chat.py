"""Table chat: who may chat, length, plain text, rate limit, the host's mute (service), and the
socket: lines reach every viewer live and escaped, the last 100 come on joining, ``?state=json``
sockets get them as JSON."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async

from tables.models import ChatMessage, Table, TableGuest
from tables.services import (
    ChatMuted,
    ChatNotAllowed,
    ChatTooFast,
    InvalidChatMessage,
    NotHost,
    chat_mute,
    chat_post,
    seat_take,
    table_close,
)
from tables.services.chat import CHAT_BURST, CHAT_MAX_LENGTH
from tests.tables.wsclient import Socket, communicator, session_cookie

XSS = "<img src=x onerror=alert(1)>"


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False


@pytest.fixture
def game(players, make_table):
    """Alice hosts; alice and bob are seated; carol only watches."""
    alice, bob, _ = players
    table = make_table(name="Chatty", host=alice)
    seat_take(table=table, player=alice, buy_in=100)
    seat_take(table=table, player=bob, buy_in=100)
    return table


def texts(table) -> list[str]:
    return list(
        ChatMessage.objects.filter(table=table).order_by("id").values_list("text", flat=True)
    )


# --- the service ----------------------------------------------------------------------------
@pytest.mark.django_db
def test_bidi_overrides_and_zero_width_characters_are_taken_out_of_a_line(game, players):
    """Issue 54 finding 4: chat kept U+202E and U+200B, which reverse or hide what follows."""
    _, bob, _ = players
    chat_post(table=game, player=bob, text="gg\u202eevil\u200b\u2066 wp\x1b[2J \u3164ok")
    assert texts(game) == ["ggevil wp [2J ok"]
    chat_post(table=game, player=bob, text="nice ♠\ufe0f")  # an emoji keeps its own selector
    assert texts(game)[-1] == "nice ♠\ufe0f"


@pytest.mark.django_db
def test_players_chat_and_the_text_is_stored_as_typed_on_one_line(game, players):
    alice, bob, _ = players
    chat_post(table=game, player=bob, text=f"  {XSS}\nnice hand\t ")
    assert texts(game) == [f"{XSS} nice hand"]


@pytest.mark.django_db
def test_a_host_who_is_not_seated_may_chat(make_table, players):
    alice, bob, _ = players
    table = make_table(name="Hosted", host=alice)
    chat_post(table=table, player=alice, text="welcome")
    assert texts(table) == ["welcome"]


@pytest.mark.django_db
def test_spectators_chat_only_when_the_host_allows_it(game, players):
    carol = players[2]
    with pytest.raises(ChatNotAllowed, match="take a seat"):
        chat_post(table=game, player=carol, text="hi")
    Table.objects.filter(pk=game.pk).update(spectator_chat=True)
    chat_post(table=game, player=carol, text="hi")
    assert texts(game) == ["hi"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Type a message first"),
        ("  \n\t ", "Type a message first"),
        ("x" * (CHAT_MAX_LENGTH + 1), f"at most {CHAT_MAX_LENGTH} characters"),
        (None, "is text"),
    ],
)
def test_an_empty_or_too_long_message_is_refused(game, players, text, message):
    with pytest.raises(InvalidChatMessage, match=message):
        chat_post(table=game, player=players[1], text=text)
    assert texts(game) == []


@pytest.mark.django_db
def test_the_longest_message_is_accepted(game, players):
    chat_post(table=game, player=players[1], text="é" * CHAT_MAX_LENGTH)
    assert texts(game) == ["é" * CHAT_MAX_LENGTH]


@pytest.mark.django_db
def test_a_player_sending_too_fast_is_refused_until_the_window_passes(game, players):
    bob = players[1]
    for n in range(CHAT_BURST):
        chat_post(table=game, player=bob, text=f"line {n}")
    with pytest.raises(ChatTooFast):
        chat_post(table=game, player=bob, text="one more")
    chat_post(table=game, player=players[0], text="alice is not limited by bob")
    # The burst's lines are older than the window now (moved back rather than waited for).
    _age_messages(bob)
    chat_post(table=game, player=bob, text="later")
    assert texts(game)[-1] == "later"


def _age_messages(player) -> None:
    # ChatMessage is append-only (no update through the ORM's queryset): raw SQL ages them.
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {ChatMessage._meta.db_table} SET created_at = %s WHERE player_id = %s",
            [
                ChatMessage.objects.order_by("id").first().created_at - timedelta(minutes=1),
                player.pk,
            ],
        )


@pytest.mark.django_db
def test_the_host_mutes_and_unmutes_a_player(game, players):
    alice, bob, carol = players
    guest = chat_mute(table=game, host=alice, player_id=bob.pk, muted=True)
    assert guest.muted and TableGuest.objects.filter(table=game, player=bob, muted=True).exists()
    with pytest.raises(ChatMuted):
        chat_post(table=game, player=bob, text="let me talk")
    chat_mute(table=game, host=alice, player_id=bob.pk, muted=False)
    chat_post(table=game, player=bob, text="thanks")
    assert texts(game) == ["thanks"]


@pytest.mark.django_db
def test_only_the_host_mutes(game, players):
    alice, bob, carol = players
    with pytest.raises(NotHost):
        chat_mute(table=game, host=bob, player_id=alice.pk, muted=True)
    assert not TableGuest.objects.filter(table=game).exists()


@pytest.mark.django_db
def test_a_closed_game_keeps_its_chat_read_only(game, players):
    chat_post(table=game, player=players[1], text="gg")
    table_close(table=game)
    with pytest.raises(ChatNotAllowed, match="closed"):
        chat_post(table=game, player=players[0], text="bye")
    assert texts(game) == ["gg"]


# --- the socket -----------------------------------------------------------------------------
async def connect(table, player, query="") -> Socket:
    cookie = await sync_to_async(session_cookie)(player.user)
    socket = Socket(player.name, communicator(table.pk, cookie, query=query))
    connected, _ = await socket.comm.connect()
    assert connected
    await socket.receive()  # the table's state
    return socket


def chat_frames(frames: list[str]) -> list[str]:
    return [f for f in frames if 'id="chat-lines"' in f]


@pytest.mark.django_db(transaction=True)
async def test_a_line_reaches_every_viewer_escaped_and_only_once(game, players):
    alice, bob, carol = players
    # a line said before they come: each socket's join sends the chat so far (after the
    # table's state), so once it has, the socket has joined the chat and a new line comes to
    # it appended, never inside a join's read of the lines
    await sync_to_async(ChatMessage.objects.create)(table=game, player=alice, text="evening")
    sockets = []
    for player in (alice, bob, carol):
        socket = await connect(game, player)
        joined = await socket.until(lambda f: 'id="chat-lines"' in f)
        assert 'hx-swap-oob="true"' in joined and "evening" in joined
        sockets.append(socket)
    await sockets[1].send(op="chat", text=XSS)
    said = {}
    for socket in sockets:
        frame = said[socket] = await socket.until(lambda f: 'id="chat-lines"' in f)
        assert "&lt;img src=x onerror=alert(1)&gt;" in frame
        assert "<img" not in frame
        assert 'hx-swap-oob="beforeend"' in frame  # appended, the table is not re-rendered
        assert 'id="table-seats"' not in frame
        assert "evening" not in frame  # only the new line
    host_frame, player_frame = said[sockets[0]], said[sockets[2]]
    assert f'"player": "{bob.pk}", "muted": "1"' in host_frame  # the host's mute button
    assert "chat_mute" not in player_frame
    for socket in sockets:
        assert chat_frames(await socket.drain()) == []  # no line twice
        await socket.close()


@pytest.mark.django_db(transaction=True)
async def test_refusals_are_answered_to_the_sender_only(game, players):
    alice, bob, carol = players
    watcher = await connect(game, carol)
    player = await connect(game, bob)
    await watcher.send(op="chat", text="can I?")
    answer = await watcher.until(lambda f: 'id="table-message"' in f)
    assert "take a seat" in answer
    await player.send(op="chat", text="x" * (CHAT_MAX_LENGTH + 1))
    assert "at most 280 characters" in await player.until(lambda f: 'id="table-message"' in f)
    assert chat_frames(await player.drain()) == [] and chat_frames(await watcher.drain()) == []
    assert await sync_to_async(texts)(game) == []
    await watcher.close()
    await player.close()


@pytest.mark.django_db(transaction=True)
async def test_joining_brings_the_last_hundred_lines_in_order(game, players):
    alice, bob, _ = players

    def many():
        for n in range(105):
            ChatMessage.objects.create(table=game, player=bob if n % 2 else alice, text=f"m{n}")

    await sync_to_async(many)()
    socket = await connect(game, alice)
    frame = await socket.until(lambda f: 'id="chat-lines"' in f)
    assert 'hx-swap-oob="true"' in frame
    assert frame.count("<li data-chat-id=") == 100
    assert ">m5<" in frame and ">m104<" in frame and ">m4<" not in frame
    assert frame.index(">m5<") < frame.index(">m104<")
    await socket.close()


@pytest.mark.django_db(transaction=True)
async def test_a_json_socket_gets_chat_as_json(game, players):
    alice, bob, _ = players
    await sync_to_async(chat_post)(table=game, player=alice, text="earlier")
    socket = Socket(
        "json",
        communicator(game.pk, await sync_to_async(session_cookie)(bob.user), query="state=json"),
    )
    await socket.comm.connect()
    assert json.loads(await socket.receive())["type"] == "state"
    history = json.loads(await socket.receive())
    assert history["type"] == "chat" and history["replace"] is True
    assert [line["text"] for line in history["lines"]] == ["earlier"]
    await socket.send(op="chat", text=XSS, id=7)
    frames = [json.loads(await socket.receive()) for _ in range(2)]
    chat = next(f for f in frames if f["type"] == "chat")
    answer = next(f for f in frames if f["type"] == "answer")
    assert chat["lines"][0]["text"] == XSS and chat["lines"][0]["player"] == "bob"
    assert answer == {"type": "answer", "message": "", "error": False, "id": 7}
    await socket.close()


@pytest.mark.django_db(transaction=True)
async def test_the_host_mutes_from_the_chat_panel(game, players):
    alice, bob, _ = players
    host = await connect(game, alice)
    muted = await connect(game, bob)
    await host.send(op="chat_mute", player=str(bob.pk), muted="1")
    await host.until(lambda f: "bob is muted." in f)
    # The list of muted players may come before or after the answer: both go to the host.
    if not any('id="chat-muted"' in f for f in host.frames):
        await host.until(lambda f: 'id="chat-muted"' in f)
    assert "unmute" in next(f for f in host.frames if 'id="chat-muted"' in f)
    assert "The host muted your chat." in await muted.until(lambda f: "muted your chat" in f)
    await muted.send(op="chat", text="hello?")
    assert "muted your chat at this game" in await muted.until(lambda f: "at this game" in f)
    await muted.send(op="chat_mute", player=str(alice.pk), muted="1")
    assert "Only the host" in await muted.until(lambda f: "Only the host" in f)
    await host.close()
    await muted.close()
