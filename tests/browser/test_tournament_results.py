"""Issue 31, item 15: a finished 20-hand fixed-hands game's page shows each entrant's final
chips beside the place (everyone used to read 0). The game is played to its end through the
services (fixed decks, fake time) against the real server's database; the page is read in
Chromium."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser

from tables.text import chips
from tests.browser.steps import sign_up

pytestmark = pytest.mark.browser

#: Played in the server's database: decks from fixed seeds, the tournament ticked to its end.
PLAY = """
import itertools, json
import tables.services.hands as hands
from tables.models import Hand, Player
from tables.tournaments.services import tournament_create, tournament_register, tournament_start
from tests.tables.tournaments.helpers import play
seeds = itertools.count(3100)
hands.new_seed = lambda: f"{next(seeds):064x}"
host = Player.objects.get(user__username="hostess")
t = tournament_create(organiser=host, name="Twenty hands", format="fixed-hands", hands=20,
                      seats_per_table=4)
tournament_register(tournament=t, player=host)
tournament_start(tournament=t, by=host)
play(t)
last = Hand.objects.filter(table__tournament_table__tournament=t).latest("number")
final = {e.player.name: 0 for e in t.entries.select_related("player__user")}
for seat, net in zip(last.seats, last.result["net"], strict=True):
    final[Player.objects.get(pk=seat["player_id"]).name] = seat["stack"] + net
print(json.dumps({"id": t.pk, "final": final}))
"""


def test_a_finished_fixed_hands_game_shows_each_entrants_final_chips(
    server: Any, browser: Browser
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    sign_up(page, server.url, "hostess")
    played = server.shell(PLAY)
    page.goto(f"{server.url}/tournaments/{played['id']}/")
    assert page.inner_text("#entrants-heading") == "Results"
    final: dict[str, int] = played["final"]
    assert max(final.values()) > 0
    for name, count in final.items():
        cell = page.locator(f'tr.entrant[data-player="{name}"] td.chips')
        assert cell.inner_text() == chips(count), name
    context.close()
