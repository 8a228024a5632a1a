"""What a server process tells its operators and its load balancer (each process for itself),
answered ahead of Django (``operator_endpoints``, ``pokersite.asgi``): no middleware, no
session, no host check and no HTTPS redirect, so a probe or Prometheus may ask the process's
own port by its address (``http://127.0.0.1:8001/readyz``) whatever ``ALLOWED_HOSTS`` says.

- ``GET /healthz``: the process is alive (200, no database touched): for a supervisor that
  restarts a hung process.
- ``GET /readyz``: the process may be sent players: its database answers, its channel layer
  carries a message, no migration is left to apply, and it is not stopping
  (``TableRuntime.draining``, ``pokersite.draining``). 200 or 503 with each check's result as
  JSON.
- ``GET /metrics``: its Prometheus figures (``tables.metrics``, the table runtimes' read here,
  and ``prometheus_client``'s own of the process), only to an address of
  ``POKER_METRICS_ALLOWED`` (CIDRs; the machine itself by default) or to a staff user's API
  token (``Authorization: Token <key>``); anyone else gets 403. Behind nginx the address is
  the client's (daphne ``--proxy-headers``), so the public never passes the address check.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
from collections.abc import Iterator
from typing import Any

from channels.layers import BaseChannelLayer, get_channel_layer
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.migrations.executor import MigrationExecutor
from prometheus_client import REGISTRY, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector
from rest_framework.authtoken.models import Token

from tables.db.threads import read_async
from tables.http import Application, Receive, Scope, Send
from tables.live.database_reach import database_answers
from tables.live.runtime import TableRuntime

#: Seconds each readiness check may take (the channel layer: its message back).
CHECK_SECONDS = 2.0


def operator_endpoints(application: Application) -> Application:
    """ASGI middleware: ``/healthz``, ``/readyz`` and ``/metrics`` answered here, anything else
    passed on to ``application``."""

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        endpoint = _ENDPOINTS.get(scope.get("path", "")) if scope["type"] == "http" else None
        if endpoint is None:
            return await application(scope, receive, send)
        status, content_type, body = await endpoint(scope)
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", content_type.encode()),
                    (b"cache-control", b"no-store"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send(
            {"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body}
        )

    return app


Answer = tuple[int, str, bytes]
JSON = "application/json"


async def healthz(scope: Scope) -> Answer:
    return 200, JSON, b'{"alive": true}'


async def readyz(scope: Scope) -> Answer:
    checks = {
        "database": await _checked(read_async(database_answers)()),
        "channel_layer": await _checked(_layer_answers()),
        "migrations": await _checked(read_async(_migrations_applied)()),
        "draining": "yes" if TableRuntime.draining else "no",
    }
    ready = checks["draining"] == "no" and all(
        checks[name] == "ok" for name in ("database", "channel_layer", "migrations")
    )
    body = json.dumps({"ready": ready, "checks": checks}).encode()
    return (200 if ready else 503), JSON, body


async def _checked(check: Any) -> str:
    """ "ok", or what went wrong (its exception's class: nothing of the set-up leaks)."""
    try:
        await asyncio.wait_for(check, CHECK_SECONDS)
    except TimeoutError:
        return "timed out"
    except Exception as error:
        return f"failed ({type(error).__name__})"
    return "ok"


#: Once the process has found every migration applied, it need not look again (its code,
#: and so its migrations, do not change while it runs).
_migrated = False


def _migrations_applied() -> None:
    global _migrated
    if _migrated:
        return
    executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
    if executor.migration_plan(executor.loader.graph.leaf_nodes()):
        raise DatabaseError("unapplied migrations")
    _migrated = True


#: Each channel layer's channel for the readiness check (one per layer, kept: a pub/sub
#: layer keeps a channel subscribed once it has received on it).
_layer_channels: dict[int, tuple[BaseChannelLayer, str]] = {}


async def _layer_answers() -> None:
    """A message sent on the channel layer comes back (over Redis: a round trip)."""
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer")
    kept = _layer_channels.get(id(layer))
    if kept is None or kept[0] is not layer:
        kept = _layer_channels[id(layer)] = (layer, await layer.new_channel())
    try:
        await layer.send(kept[1], {"type": "ready.check"})
        await layer.receive(kept[1])
    except BaseException:  # a time-out too: the next check starts on a new channel
        _layer_channels.pop(id(layer), None)
        raise


# --- Prometheus ---------------------------------------------------------------------------
class RuntimeCollector(Collector):
    """The table runtimes' figures, read when Prometheus asks."""

    def collect(self) -> Iterator[GaugeMetricFamily | CounterMetricFamily]:
        runtimes = list(TableRuntime.runtimes.values())
        owned = sum(1 for runtime in runtimes if runtime.epoch is not None)
        yield GaugeMetricFamily("poker_tables_owned", "Tables this process runs.", owned)
        yield GaugeMetricFamily(
            "poker_tables_followed",
            "Tables this process has sockets on but another process runs.",
            len(runtimes) - owned,
        )
        totals = TableRuntime.totals
        yield CounterMetricFamily(
            "poker_lease_takes",
            "Tables that moved to this process (a lease taken).",
            totals["takes"],
        )
        yield CounterMetricFamily(
            "poker_commands_forwarded",
            "Requests forwarded to the process that runs their table.",
            totals["forwards"],
        )
        yield CounterMetricFamily(
            "poker_commands", "Commands carried out here as the owner.", totals["commands"]
        )
        yield GaugeMetricFamily(
            "poker_draining", "1 while the process is stopping.", int(TableRuntime.draining)
        )


REGISTRY.register(RuntimeCollector())


def _allowed_address(scope: Scope) -> bool:
    client = scope.get("client") or ("",)
    try:
        address = ipaddress.ip_address(client[0] or "")
    except ValueError:
        return False
    if address.version == 6 and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return any(address in network for network in settings.POKER_METRICS_ALLOWED)


def _staff_token(header: str) -> bool:
    words = header.split()
    if len(words) != 2 or words[0] != "Token":
        return False
    token = Token.objects.select_related("user").filter(key=words[1]).first()
    return token is not None and token.user.is_active and token.user.is_staff


async def metrics(scope: Scope) -> Answer:
    headers = dict(scope.get("headers") or [])
    authorization = headers.get(b"authorization", b"").decode("latin-1")
    if not (
        _allowed_address(scope) or (authorization and await read_async(_staff_token)(authorization))
    ):
        return 403, "text/plain", b"Forbidden\n"
    return 200, CONTENT_TYPE_LATEST, generate_latest(REGISTRY)


_ENDPOINTS = {"/healthz": healthz, "/readyz": readyz, "/metrics": metrics}
