"""The operators' endpoints and SIGTERM on a real daphne process (its own SQLite file): a probe
asks the process's port by its address, whatever the Host; SIGTERM stops the listening (new
connections refused), lets the hand under way end, then hands the table over (its sockets
closed with 4013, the lease given up) and the process exits by itself."""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import signal
import socket
import urllib.error
import urllib.request

import pytest

from tests.browser.conftest import running_server

SETUP = """
import json
from rest_framework.authtoken.models import Token
from tables.models import Table
from django.db import transaction
from tables.services import hand_start, player_sign_up, seat_take, table_save
with transaction.atomic():  # the server's croupier sees the table with its hand, never before
    table = table_save(table=Table(name="Drained"))
    tokens = []
    for seat, name in enumerate(("dora", "emil")):
        player = player_sign_up(username=name, password=f"pw-{name}-Secret1")
        seat_take(table=table, player=player, buy_in=200, seat_number=seat)
        tokens.append(Token.objects.create(user=player.user).key)
    hand = hand_start(table=table)
print(json.dumps({"table": table.pk, "hand": hand.pk, "tokens": tokens}))
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_server(tmp_path_factory, POKER_DRAIN_SECONDS="30") as running:
        yield running


def get(url: str, host: str = "elsewhere.example") -> tuple[int, bytes]:
    request = urllib.request.Request(url, headers={"Host": host})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_probes_and_metrics_answer_on_the_process_port_whatever_the_host(server):
    assert get(server.url + "/healthz") == (200, b'{"alive": true}')
    status, body = get(server.url + "/readyz")
    assert status == 200, body
    assert json.loads(body) == {
        "ready": True,
        "checks": {
            "database": "ok",
            "channel_layer": "ok",
            "migrations": "ok",
            "draining": "no",
        },
    }
    status, body = get(server.url + "/metrics")  # from 127.0.0.1: allowed
    assert status == 200
    assert b"poker_tables_owned 0.0" in body and b"process_cpu_seconds_total" in body


def refused(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
    except ConnectionRefusedError:
        return True
    return False


def test_sigterm_lets_the_hand_end_then_hands_the_table_over_and_exits(server):
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    made = server.shell(SETUP)
    port = int(server.url.rsplit(":", 1)[1])
    ws_url = server.url.replace("http", "ws") + f"/ws/tables/{made['table']}/?state=json"
    kept = http.client.HTTPConnection("127.0.0.1", port, timeout=30)  # open before SIGTERM
    kept.request("GET", "/healthz")
    assert kept.getresponse().read() == b'{"alive": true}'

    async def state(socket) -> dict:
        while (frame := json.loads(await socket.recv()))["type"] != "state":
            pass
        return frame

    async def close_code(socket) -> int | None:
        with contextlib.suppress(ConnectionClosed):
            while True:
                await socket.recv()
        return socket.close_code

    async def play() -> list[int | None]:
        sockets = [
            await connect(ws_url, additional_headers={"Authorization": f"Token {token}"})
            for token in made["tokens"]
        ]
        frames = [await state(socket) for socket in sockets]
        assert all(frame["running"] and frame["hand"] == made["hand"] for frame in frames)
        server.proc.send_signal(signal.SIGTERM)
        # New connections are refused (nginx sends them elsewhere); the kept one says why.
        async with asyncio.timeout(30):
            while not refused(port):
                await asyncio.sleep(0.05)
        kept.request("GET", "/readyz")
        answer = kept.getresponse()
        assert answer.status == 503
        assert json.loads(answer.read())["checks"]["draining"] == "yes"
        # The hand goes on meanwhile: whoever's turn it is folds, and it is over.
        for ws, frame in zip(sockets, frames, strict=True):
            fold = {"op": "act", "kind": "fold", "hand": frame["hand"], "version": frame["version"]}
            await ws.send(json.dumps(fold))
        async with asyncio.timeout(60):
            return [await close_code(socket) for socket in sockets]

    assert asyncio.run(play()) == [4013, 4013]
    assert server.proc.wait(timeout=30) == 0
    after = server.shell(
        "import json; from tables.models import Hand, TableLease; print(json.dumps(["
        f"TableLease.objects.get(table_id={made['table']}).owner, "
        f"Hand.objects.get(pk={made['hand']}).status]))"
    )
    assert after == ["", "finished"]  # the table free for the next process, its hand played out
    log = server.log.read_text()
    assert "SIGTERM: draining" in log
    # Drained, it ends at once (no interpreter shutdown: the next process waits for it).
    assert log.index("drained: stopping") < log.index("stopped: exiting")
