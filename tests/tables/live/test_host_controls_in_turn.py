"""A host's controls go to the table's runtime in this process (``tables.operations.
in_table_turn``, ``tables.live.in_turn.write_in_turn``), through the real ASGI application:
over the API and the hosting panel, a control is carried out as one of the runtime's commands,
under its lease and in order with its sockets' requests, and its version is shown to the
sockets at once, without the runtime hearing of a change it did not make and reading it; a
refused control changes nothing; where no runtime here follows the table the service does it
at once, as before."""

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import HttpCommunicator
from rest_framework.authtoken.models import Token

from tables.live import refresh
from tables.live.runtime import TableRuntime
from tables.models import Seat, Table
from tables.services import hand_start, seat_take
from tables.services.hosting import table_create
from tests.tables.helpers import Calls
from tests.tables.wsclient import Socket, communicator, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

#: A CSRF token the page's form would carry (Django takes any well-formed pair).
CSRF = "a" * 32


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False


async def post_api(path: str, user, body: dict | None = None):
    """``POST /api/...`` with the user's token: (status, body)."""
    token = (await Token.objects.aget_or_create(user=user))[0].key
    data = json.dumps(body or {}).encode()
    from pokersite.asgi import application

    communicator_ = HttpCommunicator(
        application,
        "POST",
        path,
        body=data,
        headers=[
            (b"host", b"testserver"),
            (b"content-length", str(len(data)).encode()),
            (b"authorization", f"Token {token}".encode()),
            (b"content-type", b"application/json"),
        ],
    )
    response = await communicator_.get_response(timeout=30)
    return response["status"], json.loads(response["body"])


async def post_panel(table_id: int, control: str, user, form: str = ""):
    """The hosting panel's ``POST /tables/<id>/host/<control>/`` as htmx sends it, with the
    user's session: (status, page)."""
    from pokersite.asgi import application

    data = form.encode()
    communicator_ = HttpCommunicator(
        application,
        "POST",
        f"/tables/{table_id}/host/{control}/",
        body=data,
        headers=[
            (b"host", b"testserver"),
            (b"content-length", str(len(data)).encode()),
            (b"content-type", b"application/x-www-form-urlencoded"),
            (b"cookie", f"{await sync_to_async(session_cookie)(user)}; csrftoken={CSRF}".encode()),
            (b"x-csrftoken", CSRF.encode()),
            (b"hx-request", b"true"),
        ],
    )
    response = await communicator_.get_response(timeout=30)
    return response["status"], response["body"].decode()


@pytest.fixture
def hosted(players):
    """Alice's game with alice and bob seated and a hand dealt."""
    game = table_create(host=players[0], name="Friday", private=False, bomb_pot_ante=2)
    seat_take(table=game, player=players[0], buy_in=200, seat_number=0)
    seat_take(table=game, player=players[1], buy_in=200, seat_number=1)
    hand_start(table=game)
    return game


async def followed(table, user):
    """The host's socket on this process's runtime of ``table`` (its owner)."""
    cookie = await sync_to_async(session_cookie)(user)
    socket = await Socket("host", communicator(table.pk, cookie)).connect()
    runtime = TableRuntime.following(table.pk)
    assert runtime is not None and runtime.owner
    return socket, runtime


async def test_a_host_control_over_the_api_is_a_command_of_the_runtime(
    hosted, players, monkeypatch
):
    socket, runtime = await followed(hosted, players[0].user)
    reads = Calls(monkeypatch, refresh.TableReads, "_read")  # a change it did not make, read
    commands = runtime.commands
    before = (await Table.objects.aget(pk=hosted.pk)).version
    try:
        status, body = await post_api(f"/api/tables/{hosted.pk}/pause/", players[0].user)
        assert (status, body) == (200, {"status": "paused", "done_now": True}), body
        assert runtime.commands == commands + 1  # carried out in the runtime's turn
        version = (await Table.objects.aget(pk=hosted.pk)).version
        assert version == before + 1
        await socket.until_version(version)  # shown to the sockets
        assert runtime.snapshot.version == version
        assert runtime.snapshot.table.status == Table.Status.PAUSED
        assert reads.count == 0, "the runtime read the table its own command changed"
        # A refused control changes nothing (bob is no host).
        status, body = await post_api(f"/api/tables/{hosted.pk}/resume/", players[1].user)
        assert status == 403
        assert (await Table.objects.aget(pk=hosted.pk)).version == version
        assert runtime.commands == commands + 1
    finally:
        await socket.close()


async def test_a_host_control_on_a_player_over_the_api_is_a_command_of_the_runtime(
    hosted, players, monkeypatch
):
    socket, runtime = await followed(hosted, players[0].user)
    reads = Calls(monkeypatch, refresh.TableReads, "_read")
    commands = runtime.commands
    bob = players[1]
    try:
        path = f"/api/tables/{hosted.pk}/players/{bob.pk}/"
        # A stack correction refused by its service: nothing done, nothing counted.
        status, body = await post_api(path, players[0].user, {"action": "correct_stack"})
        assert status == 400 and "stack" in body["errors"], body
        status, body = await post_api(path, players[0].user, {"action": "sit_out"})
        assert status == 200, body
        assert body["done_now"] is False  # bob plays this hand out
        assert runtime.commands == commands + 1
        table = await Table.objects.aget(pk=hosted.pk)
        assert bob.pk in table.pending_changes["sit_out"]
        assert not (await Seat.objects.aget(table=hosted, player=bob)).sitting_out
        version = (await Table.objects.aget(pk=hosted.pk)).version
        await socket.until_version(version)
        assert reads.count == 0
    finally:
        await socket.close()


async def test_the_hosting_panel_s_control_is_a_command_of_the_runtime(
    hosted, players, monkeypatch
):
    socket, runtime = await followed(hosted, players[0].user)
    reads = Calls(monkeypatch, refresh.TableReads, "_read")
    commands = runtime.commands
    try:
        status, page = await post_panel(hosted.pk, "bomb_pot", players[0].user)
        assert status == 200, page
        assert "Bomb pot called for the next hand." in page
        assert runtime.commands == commands + 1
        table = await Table.objects.aget(pk=hosted.pk)
        assert table.bomb_pot_next
        await socket.until_version(table.version)
        assert runtime.snapshot.version == table.version
        assert reads.count == 0
        # Refused in the runtime's turn (a stack that is no number): nothing changes.
        form = f"player={players[1].pk}&stack=lots"
        status, page = await post_panel(hosted.pk, "correct", players[0].user, form)
        assert status == 200
        assert "The stack must be a whole number." in page
        assert (await Table.objects.aget(pk=hosted.pk)).version == table.version
        assert runtime.commands == commands + 1
    finally:
        await socket.close()


async def test_without_a_runtime_here_the_service_does_it_at_once(hosted, players):
    assert TableRuntime.runtimes == {} or all(key[2] != hosted.pk for key in TableRuntime.runtimes)
    before = (await Table.objects.aget(pk=hosted.pk)).version
    status, body = await post_api(f"/api/tables/{hosted.pk}/pause/", players[0].user)
    assert (status, body) == (200, {"status": "paused", "done_now": True}), body
    assert (await Table.objects.aget(pk=hosted.pk)).version == before + 1


async def test_a_players_ask_to_sit_down_is_a_command_of_the_runtime(hosted, players, monkeypatch):
    socket, runtime = await followed(hosted, players[0].user)
    reads = Calls(monkeypatch, refresh.TableReads, "_read")
    commands = runtime.commands
    carol = players[2]
    try:
        path = f"/api/tables/{hosted.pk}/requests/"
        status, body = await post_api(path, carol.user, {"kind": "seat", "amount": 100})
        assert status == 200, body  # an open game: seated at once
        assert runtime.commands == commands + 1
        version = (await Table.objects.aget(pk=hosted.pk)).version
        await socket.until_version(version)
        assert runtime.snapshot.version == version
        assert runtime.snapshot.seat_of(carol.pk) is not None  # the runtime shows the seat
        assert reads.count == 0
    finally:
        await socket.close()
