"""``poker`` as a user runs it, against a real daphne server: log in (the token kept in a
0600 file, never printed), list tables, play hands with a bot policy, read them back; every
error is one line."""

from __future__ import annotations

import json
import stat

import pytest

from tests.client.conftest import client_env, make_players, make_table, poker

pytestmark = pytest.mark.browser  # a real server: runs with the browser tests


def one_line_error(result) -> str:
    assert result.returncode == 1, result
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("poker: "), result.stderr
    return lines[0]


def test_login_keeps_the_token_private_and_never_prints_it(server, tmp_path):
    keys = make_players(server, "dora")
    env = client_env(tmp_path, server)
    result = poker(env, "--server", server.url, "login", "dora", stdin="pw-dora-Secret1\n")
    assert result.returncode == 0, result.stderr
    config = tmp_path / "poker.json"
    saved = json.loads(config.read_text())
    assert saved["token"] == keys["dora"] and saved["server"] == server.url
    assert stat.S_IMODE(config.stat().st_mode) == 0o600
    assert keys["dora"] not in result.stdout + result.stderr

    wrong = poker(env, "login", "dora", stdin="not-her-password\n")
    assert "Wrong username or password" in one_line_error(wrong)


def test_tables_hands_hand_and_stats(server, tmp_path):
    table = make_table(server, "Terminal table", bots=True)
    keys = make_players(server, "erin")
    env = client_env(tmp_path, server, keys["erin"])
    listed = poker(env, "tables")
    assert listed.returncode == 0 and "Terminal table" in listed.stdout

    trace = tmp_path / "trace.jsonl"
    played = poker(
        env,
        "bot",
        str(table),
        "--policy",
        "random",
        "--seed",
        "3",
        "--buy-in",
        "200",
        "--hands",
        "3",
        "--trace",
        str(trace),
        timeout=180,
    )
    assert played.returncode == 0, played.stderr + played.stdout
    assert "Played 3 hands." in played.stdout

    hands = poker(env, "hands")
    assert hands.returncode == 0 and "Terminal table" in hands.stdout
    hand_id = hands.stdout.split()[0]
    history = poker(env, "hand", hand_id)
    assert history.returncode == 0 and "erin" in history.stdout and "board:" in history.stdout
    phh = poker(env, "hand", hand_id, "--phh")
    assert phh.returncode == 0 and "variant = " in phh.stdout
    mine = poker(env, "stats")
    assert mine.returncode == 0 and mine.stdout.startswith("erin") and "VPIP %" in mine.stdout
    assert "net won (cash)" in mine.stdout
    assert [line.split()[-1] for line in mine.stdout.splitlines() if "tournaments" in line] == [
        "0"
    ], "erin has played no tournament"

    refused = poker(env, "hand", "999999")
    assert "(not_found)" in one_line_error(refused)


def test_errors_are_one_line(server, tmp_path):
    env = client_env(tmp_path, server, "0" * 40)
    assert "poker login` again" in one_line_error(poker(env, "bot", "1", "--policy", "random"))
    assert "Invalid token" in one_line_error(poker(env, "hands"))
    assert "cannot reach" in one_line_error(poker(env, "--server", "http://127.0.0.1:9", "tables"))
    assert "unknown policy" in one_line_error(poker(env, "bot", "1", "--policy", "cunning"))
    assert "not logged in" in one_line_error(poker(client_env(tmp_path / "x", server), "hands"))
