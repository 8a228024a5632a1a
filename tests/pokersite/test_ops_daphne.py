"""The operators' endpoints and SIGTERM on a real daphne process (its own SQLite file): a probe
asks the process's port by its address, whatever the Host; SIGTERM hands the table over (its
socket closed with 4013, the lease given up) and the process exits by itself."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import urllib.error
import urllib.request

import pytest

from tests.browser.conftest import running_server

SETUP = """
import json
from rest_framework.authtoken.models import Token
from tables.models import Table
from tables.services import player_sign_up, seat_take, table_save
player = player_sign_up(username="dora", password="pw-dora-Secret1")
table = table_save(table=Table(name="Drained"))
seat_take(table=table, player=player, buy_in=200, seat_number=0)
print(json.dumps({"table": table.pk, "token": Token.objects.create(user=player.user).key}))
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


def test_sigterm_hands_the_table_over_and_the_process_exits(server):
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    made = server.shell(SETUP)
    ws_url = server.url.replace("http", "ws") + f"/ws/tables/{made['table']}/?state=json"

    async def follow_then_sigterm() -> int | None:
        headers = {"Authorization": f"Token {made['token']}"}
        async with connect(ws_url, additional_headers=headers) as socket:
            while json.loads(await socket.recv()).get("type") != "state":
                pass
            server.proc.send_signal(signal.SIGTERM)
            async with asyncio.timeout(30):
                with contextlib.suppress(ConnectionClosed):
                    while True:
                        await socket.recv()
            return socket.close_code

    assert asyncio.run(follow_then_sigterm()) == 4013
    assert server.proc.wait(timeout=30) == 0
    lease = server.shell(
        "from tables.models import TableLease; "
        f"import json; print(json.dumps(TableLease.objects.get(table_id={made['table']}).owner))"
    )
    assert lease == ""
    assert "SIGTERM: draining" in server.log.read_text()
