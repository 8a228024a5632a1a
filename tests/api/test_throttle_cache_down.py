"""Issue 55: a process cut from Redis (the cache) answered every API request with 500, since
the REST framework's throttles count in the cache. The request limits fail open instead: the
request is served, and a warning says the limit was not applied. Here the cache is a real
Redis client pointed at a port nothing listens on."""

from __future__ import annotations

import logging
import socket

import pytest
from django.test import override_settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def cache_down(settings):
    down = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{closed_port()}/0",
        }
    }
    # Undone at this fixture's end, before the API tests' own cache clean-up runs.
    with override_settings(CACHES=down):
        yield


@pytest.fixture(autouse=True)
def throttle_rates(settings):
    settings.RATELIMIT_ENABLED = True
    settings.RATELIMIT_EXEMPT = []
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "3/minute", "user": "3/minute", "play": "3/minute"},
    }


def token_client(player) -> APIClient:
    client = APIClient()
    key = Token.objects.get_or_create(user=player.user)[0].key
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_every_api_throttle_lets_requests_through_with_a_warning_when_the_cache_is_down(
    cache_down, players, table, caplog
):
    caplog.set_level(logging.WARNING, logger="tables.api.throttling")
    visitor, player = APIClient(), token_client(players[0])
    requests = [
        (visitor, "/api/tables/"),  # anon
        (player, "/api/tables/"),  # user
        (player, f"/api/tables/{table.pk}/state/"),  # play
    ]
    # Past the rates' 3 a minute too: nothing is counted, nothing is refused.
    codes = [client.get(path).status_code for client, path in requests * 2]
    assert codes == [200] * 6
    warned = [r for r in caplog.records if r.name == "tables.api.throttling"]
    assert warned and all(r.levelno == logging.WARNING for r in warned)
    assert "not applied" in warned[0].getMessage()


def test_the_throttles_still_count_when_the_cache_answers(players, table):
    """The same rates with the test's working cache: the fourth request is refused, so the
    fail-open above is the cache's failure, not throttles switched off."""
    visitor = APIClient()
    assert [visitor.get("/api/tables/").status_code for _ in range(4)] == [200, 200, 200, 429]


def test_sign_up_is_not_a_500_when_the_cache_is_down(cache_down, client, db):
    response = client.post("/accounts/signup/", {"username": "dora"})
    assert response.status_code < 500
