"""Every environment variable is read in pokersite/settings.py (by pokersite/env.py's
readers), checked, with its default named there: a malformed value stops the process at
start-up naming the variable, and the code reads ``django.conf.settings`` only. Each case
imports the settings in a fresh interpreter."""

import re
import subprocess

import pytest

from tests.pokersite.fresh_python import ROOT, fresh_json, run_fresh

READ = (
    "POKER_CROUPIER",
    "POKER_BOT_DELAY",
    "POKER_SOCKETS_PER_USER",
    "POKER_HAND_PAUSE_SECONDS",
    "POKER_GC_THRESHOLDS",
    "CONN_MAX_AGE",
    "CHANNEL_PREFIX",
)


SETTINGS_PROBE = (
    "import json, pokersite.settings as s; "
    "s.CONN_MAX_AGE = s.DATABASES['default']['CONN_MAX_AGE']; "
    f"print(json.dumps({{name: getattr(s, name) for name in {READ!r}}}))"
)
NOT_INHERITED = {*READ, "REDIS_URL", "DATABASE_URL"}


def settings_with(**env) -> subprocess.CompletedProcess:
    return run_fresh(SETTINGS_PROBE, env, drop=NOT_INHERITED)


def read(**env) -> dict:
    return fresh_json(SETTINGS_PROBE, env, drop=NOT_INHERITED)


def test_defaults_are_named_in_the_settings():
    assert read() == {
        "POKER_CROUPIER": True,
        "POKER_BOT_DELAY": [0.8, 2.2],
        "POKER_SOCKETS_PER_USER": 24,
        "POKER_HAND_PAUSE_SECONDS": 4.0,
        "POKER_GC_THRESHOLDS": [10_000, 100, 100],
        "CONN_MAX_AGE": None,
        "CHANNEL_PREFIX": "asgi",  # SQLite: connections kept open
    }


def test_a_server_database_keeps_its_connections_for_a_minute_unless_told():
    postgres = "postgres://poker@127.0.0.1:5432/poker"
    assert read(DATABASE_URL=postgres)["CONN_MAX_AGE"] == 60
    assert read(DATABASE_URL=postgres, CONN_MAX_AGE="0")["CONN_MAX_AGE"] == 0


def test_well_formed_values_are_read():
    found = read(
        POKER_CROUPIER="off",
        POKER_BOT_DELAY=" 0.2, 0.6 ",
        POKER_SOCKETS_PER_USER="3",
        POKER_HAND_PAUSE_SECONDS=".5",
        POKER_GC_THRESHOLDS="700,10,10",
        CONN_MAX_AGE="60",
        CHANNEL_PREFIX="mine",
    )
    assert found == {
        "POKER_CROUPIER": False,
        "POKER_BOT_DELAY": [0.2, 0.6],
        "POKER_SOCKETS_PER_USER": 3,
        "POKER_HAND_PAUSE_SECONDS": 0.5,
        "POKER_GC_THRESHOLDS": [700, 10, 10],
        "CONN_MAX_AGE": 60,
        "CHANNEL_PREFIX": "mine",
    }
    assert read(POKER_CROUPIER="1")["POKER_CROUPIER"] is True


@pytest.mark.parametrize(
    "name, value",
    [
        ("POKER_CROUPIER", "maybe"),
        ("POKER_BOT_DELAY", "2,1"),  # min above max
        ("POKER_BOT_DELAY", "0.5"),
        ("POKER_BOT_DELAY", "a,b"),
        ("POKER_SOCKETS_PER_USER", "0"),
        ("POKER_SOCKETS_PER_USER", "٣"),  # a digit int() would take
        ("POKER_SOCKETS_PER_USER", "1_000"),
        ("POKER_HAND_PAUSE_SECONDS", "nan"),
        ("POKER_HAND_PAUSE_SECONDS", "-1"),
        ("CONN_MAX_AGE", "forever"),
    ],
)
def test_a_malformed_value_stops_the_start_naming_the_variable(name, value):
    done = settings_with(**{name: value})
    assert done.returncode != 0
    assert f"ImproperlyConfigured: {name} must be" in done.stderr
    assert repr(value) in done.stderr


#: Reading the environment (setting DJANGO_SETTINGS_MODULE before Django starts is no read).
ENVIRONMENT_READ = re.compile(r"os\.environ(?!\.setdefault\(\"DJANGO_SETTINGS_MODULE\")|getenv\(")
SETTINGS_MODULES = {"pokersite/settings.py", "pokersite/settings_production.py", "pokersite/env.py"}


def test_only_the_settings_read_the_environment_or_hide_defaults():
    offenders = []
    for folder in ("tables", "pokersite", "engine"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if name in SETTINGS_MODULES:
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if ENVIRONMENT_READ.search(line) or "getattr(settings," in line:
                    offenders.append(f"{name}:{number}: {line.strip()}")
    assert offenders == []


def test_several_redis_servers_shard_the_channel_layer_and_the_cache_uses_the_first():
    probe = (
        "import json, pokersite.settings as s; print(json.dumps(["
        "s.CHANNEL_LAYERS['default']['CONFIG']['hosts'], s.CACHES['default']['LOCATION']]))"
    )
    hosts, cache = fresh_json(
        probe, {"REDIS_URL": "redis://10.0.0.1:6379/0, redis://10.0.0.1:6380/0"}, drop={"REDIS_URL"}
    )
    assert hosts == [{"address": "redis://10.0.0.1:6379/0"}, {"address": "redis://10.0.0.1:6380/0"}]
    assert cache == "redis://10.0.0.1:6379/0"


def test_the_redis_cache_gives_up_within_a_second_when_redis_is_cut_off():
    """Issue 55: the request limits fail open when the cache fails (tables/api/throttling.py),
    but a Redis host lost from the network fails no call: its connects and reads hang for the
    kernel's TCP timeouts, each request's with them. The cache's calls have a short timeout."""
    probe = (
        "import json, pokersite.settings as s; print(json.dumps(s.CACHES['default']['OPTIONS']))"
    )
    options = fresh_json(probe, {"REDIS_URL": "redis://10.0.0.1:6379/0"}, drop={"REDIS_URL"})
    assert 0 < options["socket_connect_timeout"] <= 1
    assert 0 < options["socket_timeout"] <= 1
