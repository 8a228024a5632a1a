"""The terminal table driven for real: Textual's pilot presses the keys of ``poker play``
against a real daphne server, and a hand is played to its end with them."""

from __future__ import annotations

import asyncio

import pytest

from pokerclient.tui import PlayApp
from tests.client.conftest import make_players, make_table

pytestmark = pytest.mark.browser

SIT = """
import json
from tables.models import Player, Table
from tables.services import seat_take
seat_take(table=Table.objects.get(pk={t}), player=Player.objects.get(user__username="tui"),
          buy_in=200)
print(json.dumps(True))
"""
PLAYER_ACTIONS = """
import json
from tables.models import HandAction, Hand
hands = Hand.objects.filter(table_id={t}, status="finished")
print(json.dumps(sorted(set(HandAction.objects.filter(hand__in=hands, source="player")
                            .values_list("kind", flat=True)))))
"""


async def test_a_hand_played_with_keys(server):
    table = make_table(server, "Keys table", bots=True)
    keys = make_players(server, "tui")
    server.shell(SIT.format(t=table))
    app = PlayApp(server.url, keys["tui"], table)
    pressed: list[str] = []
    async with app.run_test(size=(110, 40)) as pilot:
        dealt, done = set(), False
        for _ in range(600):
            await pilot.pause(0.1)
            state = app.state
            if state is None:
                continue
            if state["running"] and state["you"]["in_hand"]:
                dealt.add(state["hand"])
            elif dealt and not state["running"] and pressed:
                done = True
                break
            legal = state.get("legal")
            if legal is None:
                continue
            if "raise" in legal["actions"] and "r" not in pressed:
                await pilot.press("plus", "minus", "x", "m")  # size keys: back at the minimum
                assert app.bet_size == legal["min_raise_to"]
                key = "r"
            else:
                key = "c"
            await pilot.press(key)
            pressed.append(key)
            await asyncio.sleep(0.3)
        assert done, f"no hand finished; pressed {pressed}"
        screen = app.screen
        turn = str(screen.query_one("#turn").render())
        assert "Waiting for the next hand" in turn or "to act" in turn or "Your turn" in turn
        seats = screen.query_one("#seats").render()
        assert seats is not None
        await pilot.press("q")
    kinds = server.shell(PLAYER_ACTIONS.format(t=table))
    assert kinds, "the keys made actions in a finished hand"
    assert set(kinds) <= {"fold", "check", "call", "raise", "bet", "all_in"}
