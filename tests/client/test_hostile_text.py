"""Names that attack terminals (issue 32, item 3, the client's half): a table or player name
holding escape sequences, line breaks or bidi overrides, stored before the server refused
them, reaches ``poker tables``, ``poker hand`` and the full-screen table as visible escapes
(``\\x1b``, ``\\u202e``), never as the characters; and a tournament's table is listed as one
(item 7). Against a real daphne server; the names are written to its database directly, as
the server now refuses them at every form."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from pokerclient.tui import TableApp
from tests.client.conftest import client_env, make_players, make_table, poker
from tests.client.test_tui import until
from tests.client.test_tui_hands import TOURNAMENT, plain

pytestmark = pytest.mark.browser

EVIL_TABLE = "Esc\x1b[2J\x1b]0;owned\x07Table\ttab\nfake row\u202eevil"
EVIL_PLAYER = "bad\x1b[31m\u202eguy"
RENAME = """
import json
from django.contrib.auth import get_user_model
from tables.models import Table
Table.objects.filter(pk={table}).update(name={table_name!r})
get_user_model().objects.filter(username="villain").update(username={player_name!r})
print(json.dumps(True))
"""
SEAT_VILLAIN = """
import json
from tables.models import Player, Table
from tables.services import seat_take
seat_take(table=Table.objects.get(pk={table}), player=Player.objects.get(user__username="villain"),
          buy_in=100)
print(json.dumps(True))
"""
#: What may never reach the terminal from the server's text.
RAW = ("\x1b", "\x07", "\u202e", "\t")


def no_raw(text: str) -> None:
    assert not [char for char in RAW if char in text], repr(text)


async def test_hostile_names_print_as_escapes_and_a_tournament_table_is_marked(server, tmp_path):
    keys = make_players(server, "villain", "reader")
    table = make_table(server, "To rename")
    server.shell(SEAT_VILLAIN.format(table=table))
    server.shell(RENAME.format(table=table, table_name=EVIL_TABLE, player_name=EVIL_PLAYER))
    tournament_table = server.shell(TOURNAMENT.format(name="reader"))
    env = client_env(tmp_path, server, keys["reader"])

    listed = poker(env, "tables")
    assert listed.returncode == 0, listed.stderr
    no_raw(listed.stdout)
    rows = listed.stdout.splitlines()
    evil = [row for row in rows if row.split()[0] == str(table)]
    assert len(evil) == 1 and "Esc\\x1b[2J\\x1b]0;owned" in evil[0]
    assert all(row.split()[0].isdigit() for row in rows), "a name faked a row"
    marked = next(row for row in rows if row.split()[0] == str(tournament_table))
    assert "tournament #" in marked and "Friday SNG" in marked
    assert "level 1 10/20, next 20/40 ante 5" in marked and "buy-in" not in marked
    cash = next(row for row in rows if row.split()[0] == str(table))
    assert "buy-in 40-400" in cash

    app = TableApp(server.url, keys["reader"], table)
    async with app.run_test(size=(110, 40)) as pilot:
        await until(pilot, app, lambda s: s["seats"][0]["name"] is not None, "the villain seated")
        board, seats = (
            plain(app.query_one("#board", Static)),
            plain(app.query_one("#seats", Static)),
        )
        no_raw(board + seats)
        assert "Esc\\x1b[2J" in board and "\\u202eevil" in board
        assert "bad\\x1b[31m\\u202eguy" in seats
        await pilot.press("q")
