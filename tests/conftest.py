"""Shared fixtures for the site's tests (engine tests under tests/engine need no database).

Services: tests marked ``postgres`` need PostgreSQL (``DATABASE_URL``), tests marked
``browser`` need Chromium (``/usr/bin/chromium`` or ``CHROMIUM_PATH``). Without the service
they skip — but with ``REQUIRE_SERVICES=1`` (set by ``.ci/run``) they fail, so CI cannot go
green by skipping the parts that matter. The ``postgres`` and ``chromium_path`` fixtures do the
same for tests that ask for them.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import shutil

import channels.db
import django.db
import pytest

# ``--check`` / ``--not-check``: make check's fast tests, or all the others (tests/fast_loop.py);
# ``--cpu-files=N``: the files that cost the most CPU (tests/cpu_report.py).
pytest_plugins = ["tests.fast_loop", "tests.cpu_report"]

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES", "0").lower() in {"1", "true", "yes"}


def missing_service(reason: str):
    """Skip the test, or fail it when the services are required (CI)."""
    if REQUIRE_SERVICES:
        pytest.fail(f"required service missing (REQUIRE_SERVICES=1): {reason}", pytrace=False)
    pytest.skip(reason)


def _database_vendor() -> str:
    from django.db import connection

    return connection.vendor


def chromium_executable() -> str | None:
    path = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
    if os.path.exists(path):
        return path
    return shutil.which("chromium") or shutil.which("chromium-browser")


def pytest_configure(config):
    config.addinivalue_line("markers", "postgres: needs PostgreSQL (DATABASE_URL)")
    config.addinivalue_line("markers", "browser: needs Chromium (Playwright)")
    _own_redis_names_per_worker()
    _test_process_collector()


#: The test process's collector thresholds: the interpreter's middle generation (every 10 young
#: collections), not a server's (every 100, pokersite/gc_policy.py).
TEST_PROCESS_GC_THRESHOLDS = (10_000, 10, 100)


def _test_process_collector() -> None:
    """The test process does not take a server's collector settings when a test imports
    ``pokersite.asgi``: no young-generation thread, the middle generation collected soon.

    Its threads come and go with each test's event loop, and each drops its kept database
    connections (``CONN_MAX_AGE``) in garbage cycles: with a server's settings they waited for
    a middle collection every ~10 s, past PostgreSQL's 100 connections. A server's threads live
    as long as it does. Servers the tests start (tests/browser, tests/load) read their own
    settings; tests/pokersite/test_gc_policy.py checks a server's."""
    from django.conf import settings

    settings.POKER_GC_YOUNG_SECONDS = 0
    settings.POKER_GC_THRESHOLDS = TEST_PROCESS_GC_THRESHOLDS


def _own_redis_names_per_worker() -> None:
    """Under pytest-xdist (``make test``) the workers run at once, each on its own test
    database (pytest-django names it per worker) but with table and group ids that repeat
    across those databases. Redis's pub/sub is one namespace for every db number, so each
    worker also gets its own channel and cache prefix, and so do the processes it starts."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return
    from django.conf import settings

    prefix = f"{settings.CHANNEL_PREFIX}-{worker}"
    os.environ["CHANNEL_PREFIX"] = prefix
    settings.CHANNEL_PREFIX = prefix
    layer = settings.CHANNEL_LAYERS["default"]
    if "prefix" in layer.get("CONFIG", {}):
        layer["CONFIG"]["prefix"] = prefix
    cache = settings.CACHES["default"]
    if "KEY_PREFIX" in cache:
        cache["KEY_PREFIX"] = f"{cache['KEY_PREFIX']}-{worker}"


def pytest_collection_modifyitems(config, items):
    """The files that hold browser tests run first, then those that hold slow tests, then the
    rest: pytest-xdist hands out whole files in this order (``--no-loadscope-reorder``,
    Makefile), so the longest ones start at once instead of ending the run on one busy worker
    while the others wait."""
    rank: dict[object, int] = {}
    for item in items:
        mark = (
            0 if item.get_closest_marker("browser") else 1 if item.get_closest_marker("slow") else 2
        )
        rank[item.path] = min(rank.get(item.path, 2), mark)
    items.sort(key=lambda item: rank[item.path])  # stable: the same order within a file


def pytest_runtest_setup(item):
    if item.get_closest_marker("postgres") and _database_vendor() != "postgresql":
        missing_service("needs PostgreSQL: set DATABASE_URL=postgres://...")
    if item.get_closest_marker("browser") and chromium_executable() is None:
        missing_service("needs Chromium at /usr/bin/chromium (apt-get install chromium)")


@pytest.fixture
def postgres():
    """For tests that need PostgreSQL: skips (or fails when required) on other databases."""
    if _database_vendor() != "postgresql":
        missing_service("needs PostgreSQL: set DATABASE_URL=postgres://...")


@pytest.fixture
def chromium_path() -> str:
    """Path of the Chromium binary for Playwright; skips (or fails when required) without."""
    path = chromium_executable()
    if path is None:
        missing_service("needs Chromium at /usr/bin/chromium (apt-get install chromium)")
    return path


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's, and at the end of the run the test database's other sessions are
    ended before it is dropped: the server's database threads (``tables.db.threads``, and
    Channels' ``database_sync_to_async`` workers) keep a connection each, and PostgreSQL
    refuses to drop a database "being accessed by other users" (the database was left
    behind, with a warning)."""
    yield
    from django.db import connections

    with django_db_blocker.unblock():
        for connection in connections.all():
            if connection.vendor != "postgresql":
                continue
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )


@pytest.fixture(autouse=True)
def connection_looks_put_back():
    """Channels' test communicator swaps ``channels.db.close_old_connections`` for a no-op by
    ``mock.patch`` while it sends or waits; two communicators awaited at once undo those
    patches out of order and leave the no-op there for the rest of the process, so that every
    later write skips Django's look at its connection (the server never runs the
    communicator). Django's is put back after each test."""
    yield
    channels.db.close_old_connections = django.db.close_old_connections


@pytest.fixture(autouse=True)
def loopback_exempt_from_limits(settings):
    """The test client comes from 127.0.0.1 and many tests sign up and log in: here loopback
    is exempt from the log-in and sign-up limits (nobody is by default, see
    tables/ratelimit.py); the tests of those limits use other addresses."""
    settings.RATELIMIT_EXEMPT = ["127.0.0.1", "::1"]


@pytest.fixture(autouse=True)
def runout_at_once(settings):
    """An all-in run-out is shown at once (its pause 0) where the pacing does not matter;
    the tests of the pacing (tests/tables/services/test_runouts.py, the no-leak test) set it."""
    settings.POKER_RUNOUT_PAUSE_SECONDS = 0


@pytest.fixture(autouse=True)
def fixed_deck_seeds(request, monkeypatch):
    """Every hand a test deals in this process is shuffled from a seed fixed by the test's id
    and the hand's order, where the site draws a fresh secret one: a failure comes back with
    the same cards on every run and every worker. Tests of a particular deal rig the deck
    themselves; hands dealt by a server subprocess (tests/browser, tests/client, tests/load)
    stay random, and those tests bound their waits instead."""
    uses_db = {"db", "transactional_db"} & set(request.fixturenames)
    if not uses_db and request.node.get_closest_marker("django_db") is None:
        return
    test_id = hashlib.sha256(request.node.nodeid.encode()).hexdigest()[:32]
    hand_order = itertools.count(1)
    monkeypatch.setattr(
        "tables.services.hands.new_seed", lambda: f"{test_id}{next(hand_order):032x}"
    )


# --- players, tables, chips ---------------------------------------------------------------
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def make_player(db, settings):
    """``make_player("alice")``: a signed-up player with the starting grant.

    The password is ``f"pw-{name}-Secret1"`` (hashed with a fast hasher in tests).
    """
    from tables.services import player_sign_up

    settings.PASSWORD_HASHERS = FAST_HASHERS

    def make(name: str, **kwargs):
        return player_sign_up(username=name, password=f"pw-{name}-Secret1", **kwargs)

    return make


@pytest.fixture
def players(make_player):
    """Three players with the starting grant: alice, bob and carol."""
    return [make_player(name) for name in ("alice", "bob", "carol")]


@pytest.fixture
def make_table(db):
    """``make_table(name=..., **settings)``: an open table (NL Hold'em 1/2, 6 seats)."""
    from tables.models import Table
    from tables.services import table_save

    counter = iter(range(1, 1000))

    def make(**fields):
        fields.setdefault("name", f"Table {next(counter)}")
        return table_save(table=Table(**fields))

    return make


@pytest.fixture
def table(make_table):
    return make_table(name="Main")


@pytest.fixture
def assert_chips_conserved(db):
    """Call it after any sequence of services: bankrolls + stacks + in hands + prize pools ==
    grants, and each running tournament's chips == the stacks it gave out."""
    from tables.selectors.chips import chips_conserved, chips_total

    def check() -> dict:
        totals = chips_total()
        assert chips_conserved(totals), totals
        return totals

    return check


@pytest.fixture
def play():
    """Helpers that drive hands through the services (see ``tests/tables/helpers.py``)."""
    from tests.tables import helpers

    return helpers


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """Each test gets its own channel layer, as each server process has one on its one event
    loop. (A Redis layer kept from an earlier test's loop still holds locks bound to it: a
    receive that test left waiting on Redis.)"""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()
