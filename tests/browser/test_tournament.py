"""Three players play a 6-seat sit & go filled with bots in three browsers against a real
daphne server: alice organises it on the "Organise a tournament" form (three bots entered,
starting when full, blinds doubling every two hands), the three register from its page (the
last entry starts it), each opens the table from the page and plays by clicking until the
tournament is over; then each sees the places and prizes on the tournament page. Every chip is
accounted for; screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import contextlib
import time

import pytest

from tests.browser import steps
from tests.browser.conftest import ARTIFACTS, running_server

pytestmark = pytest.mark.browser

PEOPLE = ("alice", "bob", "carol")
SETUP = """
import json
from tables.services import player_sign_up
print(json.dumps([player_sign_up(username=n, password="pw-%s-Secret1" % n).pk
                  for n in ("alice", "bob", "carol")]))
"""
CHIPS = """
import json
from django.db import transaction
from tables.selectors.chips import chips_conserved, chips_total
with transaction.atomic():
    totals = chips_total()
print(json.dumps({"totals": totals, "conserved": chips_conserved(totals)}))
"""
#: Blinds doubling every two hands from 25/50 with 300 chips: all in within a few levels.
LEVELS = "\n".join(f"{25 << n} {50 << n} 0 2" for n in range(10))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """Short pauses between hands and quick bots: the sit & go is played to its end, and what
    is checked (the places, the prizes, the chips) does not depend on the pace."""
    with running_server(
        tmp_path_factory, POKER_HAND_PAUSE_SECONDS="1", POKER_BOT_DELAY="0.05,0.15"
    ) as running:
        yield running


def status_of(server, tournament_id) -> str:
    ((status,),) = steps.db_rows(
        server, "SELECT status FROM tournaments_tournament WHERE id=?", tournament_id
    )
    return status


def logged_in_page(browser, server, name):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(server.url + "/accounts/login/")
    page.fill("#id_username", name)
    page.fill("#id_password", f"pw-{name}-Secret1")
    page.click("form button[type=submit]")
    page.wait_for_load_state()
    return page


def play_a_little(pages):
    """Whoever is to act calls or checks by clicking (waiting briefly for each one's turn)."""
    for page in pages:
        button = page.locator("form.act button.check, form.act button.call").first
        with contextlib.suppress(Exception):
            button.wait_for(state="visible", timeout=200)
            button.click(timeout=2000)


def test_three_players_play_a_sit_and_go_with_bots_to_the_end(server, browser):
    ARTIFACTS.mkdir(exist_ok=True)
    server.shell(SETUP)
    pages = {name: logged_in_page(browser, server, name) for name in PEOPLE}
    alice = pages["alice"]

    # alice organises it from the navigation's Tournaments page
    alice.click("header nav a:text('Tournaments')")
    alice.click("a:text('Organise a tournament')")
    alice.fill("#id_name", "Browser sit & go")
    alice.fill("#id_starting_stack", "300")
    alice.fill("#id_entry_fee", "100")
    alice.select_option("#id_structure", "custom")
    alice.fill("#id_levels", LEVELS)
    alice.select_option("#id_level_unit", "hands")
    alice.fill("#id_bot_entrants", "3")
    alice.select_option("#id_start", "when-full")
    alice.fill("#id_action_seconds", "10")
    alice.screenshot(path=str(ARTIFACTS / "tournament-organise.png"), full_page=True)
    alice.click("form.new-tournament button[type=submit]")
    alice.wait_for_selector("#tournament[data-status=registering]")
    tournament_id = int(alice.url.rstrip("/").split("/")[-1])
    url = f"{server.url}/tournaments/{tournament_id}/"

    for name in PEOPLE:  # the third entry fills the six seats: it starts
        page = pages[name]
        page.goto(url)
        page.click("#register")
        page.wait_for_selector("#you-are-in")
    assert status_of(server, tournament_id) == "running"
    alice.screenshot(path=str(ARTIFACTS / "tournament-started.png"), full_page=True)

    for page in pages.values():  # to the table, from the page
        page.goto(url)
        page.click("a.watch")
        page.wait_for_selector("#conn[data-state=open]")
        assert "Level" in page.inner_text("#tournament-level")
    alice.screenshot(path=str(ARTIFACTS / "tournament-table.png"), full_page=True)

    deadline = steps.deadline(600)  # a bound: a busy machine plays slowly
    while status_of(server, tournament_id) != "finished":
        assert time.monotonic() < deadline, "the sit & go did not finish in time"
        play_a_little(list(pages.values()))

    prizes = {}
    for name, page in pages.items():
        page.goto(url)
        page.wait_for_selector("#tournament[data-status=finished]")
        row = page.locator(f"tr.entrant[data-player={name}]")
        place = int(row.locator(".place").inner_text())
        prize = row.locator(".prize").inner_text().replace(",", "").replace("–", "0")
        prizes[name] = (place, int(prize))
        page.screenshot(path=str(ARTIFACTS / f"tournament-results-{name}.png"), full_page=True)
    places = sorted(int(t) for t in alice.locator("tr.entrant .place").all_inner_texts())
    # Six places, 1 first; players out in one hand with equal chips share the better place
    # ("5, 5": the next would be 7), so each place is where its group begins.
    assert len(places) == 6 and places[0] == 1
    assert all(place == places.index(place) + 1 for place in places), places
    paid = [
        int(t.replace(",", ""))
        for t in alice.locator("tr.entrant .prize").all_inner_texts()
        if t.strip() != "–"
    ]
    assert sum(paid) == 600  # the pool: six entry fees, paid exactly
    assert all(1 <= place <= 6 for place, _ in prizes.values())
    # Play chips (bankrolls, cash tables, unpaid prize pools) == grants, and tournament
    # chips == the stacks given out: ``tables.selectors.chips``'s rule, in one place.
    chips = server.shell(CHIPS)
    assert chips["conserved"], chips["totals"]
    assert chips["totals"]["prize_pools"] == 0  # the pool is paid out: nothing held back
    for page in pages.values():
        page.context.close()
