"""``/healthz``, ``/readyz`` and ``/metrics`` (``pokersite.ops``) through the whole ASGI
application: readiness follows the database's migrations and the drain; the metrics are only for
the allowed addresses or a staff token."""

from __future__ import annotations

import ipaddress
import json

import pytest
from asgiref.testing import ApplicationCommunicator
from django.db.migrations.recorder import MigrationRecorder
from rest_framework.authtoken.models import Token

from pokersite import ops
from tables.live.runtime import TableRuntime

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_croupier(settings):
    """The first request would start the croupier on the test's loop (``autostart``): its
    pass, still in a transaction on its thread when the test ends, deadlocked the database's
    flush (a CI rehearsal on PostgreSQL); these endpoints need none."""
    settings.POKER_CROUPIER = False


async def get(path: str, client: str = "127.0.0.1", token: str | None = None):
    from pokersite.asgi import application

    headers = [(b"host", b"10.1.2.3:8001")]  # not an allowed host: probes skip the check
    if token is not None:
        headers.append((b"authorization", f"Token {token}".encode()))
    scope = {
        "type": "http",
        "http_version": "1.1",
        "method": "GET",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": headers,
        "client": (client, 40000),
        "server": ("127.0.0.1", 8001),
    }
    comm = ApplicationCommunicator(application, scope)
    await comm.send_input({"type": "http.request", "body": b""})
    start = await comm.receive_output(30)
    body = await comm.receive_output(30)
    return start["status"], body["body"]


async def test_healthz_answers_without_the_database():
    assert await get("/healthz") == (200, b'{"alive": true}')


async def test_readyz_is_ready_with_each_check_named():
    status, body = await get("/readyz")
    assert status == 200
    assert json.loads(body)["checks"] == {
        "database": "ok",
        "channel_layer": "ok",
        "migrations": "ok",
        "draining": "no",
    }


async def test_a_draining_process_is_not_ready(monkeypatch):
    monkeypatch.setattr(TableRuntime, "draining", True)
    status, body = await get("/readyz")
    assert status == 503
    assert json.loads(body) == {
        "ready": False,
        "checks": {
            "database": "ok",
            "channel_layer": "ok",
            "migrations": "ok",
            "draining": "yes",
        },
    }


async def test_an_unapplied_migration_makes_it_not_ready(monkeypatch):
    """The newest migration of ``tables`` is missing from the record: it is left to apply."""
    monkeypatch.setattr(ops, "_migrated", False)
    real = MigrationRecorder.applied_migrations

    def without_the_last(self):
        applied = real(self)
        newest = max(key for key in applied if key[0] == "tables")
        return {key: value for key, value in applied.items() if key != newest}

    monkeypatch.setattr(MigrationRecorder, "applied_migrations", without_the_last)
    status, body = await get("/readyz")
    assert status == 503
    assert json.loads(body)["checks"]["migrations"] == "failed (DatabaseError)"


async def test_metrics_are_served_to_the_machine_itself():
    status, body = await get("/metrics", client="127.0.0.1")
    assert status == 200
    for name in (
        b"poker_actions_total",
        b"poker_action_seconds_bucket",
        b"poker_frames_sent_total",
        b"poker_frame_bytes_sent_total",
        b"poker_sockets_open",
        b"poker_tables_owned",
        b"poker_lease_takes_total",
        b"poker_commands_forwarded_total",
        b"poker_clock_lateness_seconds_bucket",
    ):
        assert name in body
    assert (await get("/metrics", client="::1"))[0] == 200


async def test_metrics_are_refused_to_the_public_without_a_staff_token(make_player):
    from asgiref.sync import sync_to_async

    assert await get("/metrics", client="203.0.113.9") == (403, b"Forbidden\n")
    player = await sync_to_async(make_player)("erin")
    token = await Token.objects.acreate(user=player.user)
    assert (await get("/metrics", client="203.0.113.9", token=token.key))[0] == 403
    player.user.is_staff = True
    await player.user.asave()
    assert (await get("/metrics", client="203.0.113.9", token=token.key))[0] == 200
    assert (await get("/metrics", client="203.0.113.9", token="not-a-key"))[0] == 403


async def test_the_allowed_networks_are_a_setting(settings):
    settings.POKER_METRICS_ALLOWED = [ipaddress.ip_network("10.0.0.0/8")]
    assert (await get("/metrics", client="10.20.30.40"))[0] == 200
    assert (await get("/metrics", client="127.0.0.1"))[0] == 403
