"""Fixtures for the API tests: a table with finished hands played by alice, bob and carol."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.api import test_stats
from tests.api.helpers import engine_hand, store_hand


def _clear_own_cache() -> None:
    """Empty this test process's cache: on Redis only the keys under its own prefix (the
    cache's ``clear`` there is FLUSHDB, which would wipe the other xdist workers' throttle
    counters in the middle of their tests)."""
    from django.core.cache import cache

    client_of = getattr(getattr(cache, "_cache", None), "get_client", None)
    if client_of is None:
        cache.clear()
        return
    client = client_of(write=True)
    keys = list(client.scan_iter(match=cache.make_key("*")))
    if keys:
        client.delete(*keys)


@pytest.fixture(autouse=True)
def _fresh_throttle_cache():
    """Throttle counters live in the cache: every test starts with none."""
    _clear_own_cache()
    yield
    _clear_own_cache()


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def client_for(make_player):
    """``client_for(player)``: an API client logged in (session) as that player."""

    def make(player):
        client = APIClient()
        client.force_login(player.user)
        return client

    return make


@pytest.fixture
def staff(make_player):
    player = make_player("root")
    player.user.is_staff = True
    player.user.is_superuser = True
    player.user.save()
    return player


@pytest.fixture
def hands(table, players):
    """The three hand-built hands (finished) at ``table``, seats 0-2 = alice, bob, carol."""
    builders = [
        test_stats.limp_and_blind_check,
        test_stats.three_bet_and_uncalled_bet,
        test_stats.short_all_in_split_pot,
    ]
    return [store_hand(table, players, b(), number=i + 1) for i, b in enumerate(builders)]


@pytest.fixture
def running(table, players):
    """A hand still being played at ``table`` (alice limped; it is bob's turn)."""
    state = engine_hand(["AsAh", "7c2d", "KsKh"], "9c5d3h8sJd", ["call"])
    return store_hand(table, players, state, number=99)
