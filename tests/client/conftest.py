"""The ``poker`` client against a real daphne server (``tests.browser.conftest``), with a
short pause between hands; players made on the server's database, each with an API token."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.browser.conftest import ROOT, browser, running_server  # noqa: F401 - a fixture

POKER = str(Path(sys.executable).parent / "poker")

MAKE_PLAYERS = """
import json
from rest_framework.authtoken.models import Token
from tables.services import player_sign_up
keys = {{}}
for name in {names!r}:
    player = player_sign_up(username=name, password="pw-" + name + "-Secret1")
    keys[name] = Token.objects.create(user=player.user).key
print(json.dumps(keys))
"""
MAKE_TABLE = """
import json
from tables.models import Table
from tables.services import table_save
t = table_save(table=Table(name={name!r}, max_seats=6, bots_allowed={bots}, bot_seats={bots:d},
    action_seconds=20, time_bank_seconds=0, min_buy_in=40, max_buy_in=400))
print(json.dumps(t.pk))
"""
CHIPS = """
import json
from django.db import transaction
from tables.selectors.chips import chips_total
with transaction.atomic():
    print(json.dumps(chips_total()))
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_server(
        tmp_path_factory, POKER_HAND_PAUSE_SECONDS="0.6", POKER_BOT_DELAY="0.05,0.1"
    ) as running:
        yield running


def make_players(server, *names: str) -> dict[str, str]:
    """Sign ``names`` up on the server; their API tokens by name."""
    return server.shell(MAKE_PLAYERS.format(names=list(names)))


def make_table(server, name: str, bots: bool = False) -> int:
    return server.shell(MAKE_TABLE.format(name=name, bots=bots))


def chips_conserved(server) -> dict:
    totals = server.shell(CHIPS)
    assert totals["bankrolls"] + totals["stacks"] + totals["in_hands"] == totals["granted"]
    return totals


def client_env(tmp_path: Path, server, token: str | None = None) -> dict:
    """The environment of a ``poker`` process with its own config file (logged in if
    ``token``)."""
    config = tmp_path / "poker.json"
    if token:
        config.write_text(json.dumps({"server": server.url, "token": token}))
        config.chmod(0o600)
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    return {**env, "POKER_CONFIG": str(config)}


def poker(env: dict, *args: str, stdin: str = "", timeout: float = 60):
    return subprocess.run(
        [POKER, *args],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
