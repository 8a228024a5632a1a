"""The terminal table driven for real: Textual's pilot presses the keys of ``poker play``
against a real daphne server: a hand played to its end with them, and a seat taken, sat out,
topped up and left with them."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Static

from pokerclient import seating
from pokerclient.tui import AmountPrompt, PlayApp
from tests.client.conftest import chips_conserved, make_players, make_table

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
            version = state["version"]
            await pilot.press(key)
            pressed.append(key)
            # the action reached the table: its next version (the same decision is not
            # pressed twice)
            await until(pilot, app, lambda s, v=version: s["version"] != v, "the next version")
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


async def until(pilot, app, holds, what: str, steps: int = 400) -> dict:
    """Wait (``steps`` pauses of 0.1 s at most) until ``holds(state)``; the state then."""
    for _ in range(steps):
        await pilot.pause(0.1)
        if app.state is not None and holds(app.state):
            return app.state
    raise AssertionError(f"waited in vain for {what}; last state: {app.state}")


async def type_amount(pilot, app, text: str, field: str = "#amount") -> None:
    """Clear the prompt's field with keys and type ``text``."""
    box = app.screen.query_one(field, Input)
    box.focus()
    await pilot.press("end", *["backspace"] * len(box.value), *text)


def status_line(app) -> str:
    return str(app.query_one("#status", Static).render())


async def test_sit_down_play_sit_out_top_up_sit_in_and_leave_with_keys(server):
    """``poker play`` at a table where the user has no seat: ``s`` asks the buy-in (the
    table's default offered; a wrong one is one line and sends nothing; one the server
    refuses is its one line), sits in the seat chosen, a hand is played with keys, then
    ``o`` sits out, ``t`` tops up, ``i`` sits in again and ``l`` leaves; no chip is lost."""
    table = make_table(server, "Sit with keys", bots=True)
    keys = make_players(server, "sitter")
    app = PlayApp(server.url, keys["sitter"], table)
    async with app.run_test(size=(110, 40)) as pilot:
        state = await until(pilot, app, lambda s: s["you"] is not None, "the first state")
        assert state["you"]["seat"] is None and state["you"]["bankroll"] == 10_000
        # the table's bots take their seats on the croupier's next pass: wait for one
        seated = await until(
            pilot,
            app,
            lambda s: any(seat["status"] != "empty" for seat in s["seats"]),
            "a bot seated",
        )
        taken = next(s["seat"] for s in seated["seats"] if s["status"] != "empty")
        assert "[s] sit down" in str(app.query_one("#turn", Static).render())
        await pilot.press("t")
        assert status_line(app) == "Sit down first ([s])."

        await pilot.press("s")
        assert isinstance(app.screen, AmountPrompt)
        offered = app.screen.query_one("#amount", Input).value
        assert offered == str(state["table"]["default_buy_in"]) == "100"  # 50 big blinds
        await type_amount(pilot, app, "5")
        await pilot.press("enter")
        error = str(app.screen.query_one("#prompt-error", Static).render())
        assert error == "The buy-in is at least 40 chips here."
        await type_amount(pilot, app, "150")
        await type_amount(pilot, app, str(taken), field="#seat")
        await pilot.press("enter")
        error = str(app.screen.query_one("#prompt-error", Static).render())
        assert error.startswith(f"Seat {taken} is not free")
        await pilot.press("escape")  # cancelled: nothing sent
        assert not isinstance(app.screen, AmountPrompt)

        await pilot.press("s")
        await type_amount(pilot, app, "1000")  # above the table's maximum: the server refuses
        await pilot.press("enter")
        await until(pilot, app, lambda s: "Buy in for 40 to 400" in status_line(app), "refusal")
        assert app.state["you"]["seat"] is None

        chosen = seating.free_seats(app.state)[-1]
        await pilot.press("s")
        await type_amount(pilot, app, "150")
        await type_amount(pilot, app, str(chosen), field="#seat")
        await pilot.press("enter")
        state = await until(pilot, app, lambda s: s["you"]["seat"] == chosen, "the seat")
        assert state["you"]["bankroll"] == 10_000 - 150
        assert status_line(app).startswith("You sat down")

        dealt: set[int] = set()
        for _ in range(600):  # a hand played with keys
            await pilot.pause(0.1)
            state = app.state
            if state["running"] and state["you"]["in_hand"]:
                dealt.add(state["hand"])
            elif dealt and not state["running"]:
                break
            if state.get("legal") is not None:
                await pilot.press("c")
                await until(pilot, app, lambda s: s.get("legal") is None, "the turn to pass")
        assert dealt and not app.state["running"], "a hand the sitter was dealt into finished"

        await pilot.press("o")
        state = await until(
            pilot,
            app,
            lambda s: s["you"]["sitting_out"] and not s["you"]["in_hand"] and not s["running"],
            "sitting out between hands",
        )
        stack, bankroll = state["you"]["stack"], state["you"]["bankroll"]
        await pilot.press("t")
        assert isinstance(app.screen, AmountPrompt)
        assert app.screen.query_one("#amount", Input).value == str(state["you"]["top_up_room"])
        await type_amount(pilot, app, "25")
        await pilot.press("enter")
        state = await until(pilot, app, lambda s: s["you"]["stack"] == stack + 25, "the top-up")
        assert state["you"]["bankroll"] == bankroll - 25

        await pilot.press("i")
        await until(pilot, app, lambda s: not s["you"]["sitting_out"], "sitting in")
        await pilot.press("l")
        state = await until(pilot, app, lambda s: s["you"]["seat"] is None, "leaving", 600)
        await pilot.press("q")
    totals = chips_conserved(server)
    assert totals["granted"] > 0
