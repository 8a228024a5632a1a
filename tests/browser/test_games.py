"""Issue 20's games in the browser, against a real daphne server: for each of Omaha hi-lo,
stud, stud hi-lo and razz a host starts the game from the picker (the form shows the
settings that apply: stud's bring-in and bets, no blinds), a friend joins by the invite link,
both sit down and play by clicking until a hand reaches a showdown. The screens show stud's
up-cards to both players and each one's own down-cards; the showdown shows the pots (a hi-lo
pot's halves). Screenshots go to ``test-artifacts/games-*.png``.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time

import pytest

from tests.browser import steps
from tests.browser.conftest import ARTIFACTS, running_server

pytestmark = pytest.mark.browser

#: Each game: what the form gets beyond the game itself.
GAMES = {
    "omaha-hilo": {"#id_betting": "pot-limit"},
    "stud": {"#id_bring_in": "2", "#id_small_bet": "5"},
    "stud-hilo": {"#id_bring_in": "2", "#id_small_bet": "5"},
    "razz": {"#id_bring_in": "1", "#id_small_bet": "4"},
}
#: Long enough between hands for the screens to be looked at after a showdown.
PAUSE = "8"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_server(tmp_path_factory, POKER_HAND_PAUSE_SECONDS=PAUSE) as running:
        yield running


def db_rows(server, sql, *args):
    with sqlite3.connect(f"file:{server.db}?mode=ro", uri=True, timeout=20) as db:
        return db.execute(sql, args).fetchall()


def new_page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    return context.new_page()


def sign_up(page, server, name):
    # not like the name: long names fail Django's similarity check with the usual password
    steps.sign_up(page, server.url, name, password="Felt-Chips-4821!")


def showdowns(server, table_id) -> list[int]:
    """The finished hands of the table that reached a showdown (hands were shown)."""
    rows = db_rows(
        server,
        "SELECT number, result FROM tables_hand WHERE table_id=? AND status='finished'",
        table_id,
    )
    return [number for number, result in rows if json.loads(result or "{}").get("shown")]


def click_check_or_call(pages) -> None:
    for page in pages:
        button = page.locator("form.act button.check, form.act button.call").first
        with contextlib.suppress(Exception):  # not this player's turn, or the hand moved on
            button.wait_for(state="visible", timeout=150)
            button.click(timeout=2000)


@pytest.mark.parametrize("game", list(GAMES))
def test_two_players_play_a_new_game_to_a_showdown(server, browser, game):
    ARTIFACTS.mkdir(exist_ok=True)
    stud = game != "omaha-hilo"
    host = new_page(browser)
    sign_up(host, server, f"host-{game}")
    host.goto(server.url + "/tables/new/")
    host.fill("#id_name", f"{game} night")
    host.select_option("#id_game", game)
    # the picker shows what applies to the game: stud has a bring-in, no blinds
    assert host.is_visible("#id_bring_in") == stud
    assert host.is_visible("#id_big_blind") != stud
    assert host.is_visible("#id_straddle") != stud
    assert host.is_visible("#id_run_it_twice") != stud  # run-outs and bomb pots: flop games
    assert host.is_visible("#id_bomb_pot_ante") != stud
    if stud:
        assert host.input_value("#id_betting") == "fixed-limit"
        assert host.input_value("#id_max_seats") == "8", "stud seats at most 8"
    for selector, value in GAMES[game].items():
        if selector == "#id_betting":
            host.select_option(selector, value)
        else:
            host.fill(selector, value)
    host.screenshot(path=str(ARTIFACTS / f"games-{game}-form.png"), full_page=True)
    host.click("form.new-game button[type=submit]")
    host.wait_for_selector("#conn[data-state=open]")
    table_id = int(host.url.rstrip("/").split("/")[-1])
    invite = host.input_value(".host-panel input.invite-url")
    friend = new_page(browser)
    sign_up(friend, server, f"friend-{game}")
    friend.goto(invite)
    friend.wait_for_selector("#conn[data-state=open]")
    pages = [host, friend]
    for page in pages:
        page.fill("form.sit-down input[name=buy_in]", "100")
        page.click("form.sit-down button[type=submit]")
        page.wait_for_selector(".seat.me")

    saw_up_cards = False
    deadline = time.monotonic() + 180
    while not showdowns(server, table_id):
        assert time.monotonic() < deadline, "no showdown in time"
        if stud and not saw_up_cards:
            # every seat's up-cards face up for both; my own down-cards face up, the other's
            # down-cards as backs
            with contextlib.suppress(Exception):
                host.wait_for_selector(
                    ".seat.me .hole.stud .down-cards .pc[data-card]", timeout=500
                )
                other = host.locator(".seat:not(.me) .hole.stud").first
                if other.locator(".up-cards .pc[data-card]").count() >= 1:
                    assert other.locator(".down-cards .pc[data-card]").count() == 0
                    assert other.locator(".down-cards .pc.back").count() >= 2
                    assert "street" in host.inner_text("#table-board")
                    host.screenshot(path=str(ARTIFACTS / f"games-{game}-play.png"), full_page=True)
                    saw_up_cards = True
        click_check_or_call(pages)
    assert saw_up_cards or not stud, "the stud screens never showed up-cards"
    # the showdown on screen (the next hand waits PAUSE seconds): the pots and who won them
    host.wait_for_selector(".pot.awarded", timeout=15_000)
    board = host.inner_text("#table-board")
    log = host.inner_text("#table-log")
    if game in ("omaha-hilo", "stud-hilo"):
        assert "· high" in board, board  # "· high" and "· low", or "· high, no low"
        assert "for high" in log or "(no low)" in log, log
    if game == "razz":
        assert " low" in board, board  # razz names the winning low ("8-6-4-3-2 low")
    for name, page in (("host", host), ("friend", friend)):
        page.screenshot(path=str(ARTIFACTS / f"games-{game}-showdown-{name}.png"), full_page=True)
    for page in pages:
        page.context.close()
