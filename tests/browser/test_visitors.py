"""Logged-out visitors watch public tables live (issue 31 item 5), in a browser against a
real daphne server.

alice plays a public table with two bots (she checks or calls). A visitor who is not logged
in opens its page: the socket opens as a spectator, hands go by live (new hands, new log
lines) and no hole card is ever face up on their screen while betting is open (only what
everyone may see). They open the replayer of a finished hand without logging in. A private
game stays a 404.
"""

from __future__ import annotations

import contextlib
import time

import pytest

from tests.browser import steps
from tests.browser.conftest import ARTIFACTS

pytestmark = pytest.mark.browser

SETUP = """
import json
from tables.models import Table
from tables.services import player_sign_up, table_save
from tables.services.hosting import table_create
t = table_save(table=Table(name="Open bots", max_seats=4, bots_allowed=True, bot_seats=2))
host = player_sign_up(username="hostess", password="pw-hostess-Secret1")
secret = table_create(host=host, name="Secret", private=True)
print(json.dumps([t.pk, secret.pk]))
"""
WAIT = 30_000  # ms: every wait is bounded

# Every time the seats change, a hole card face up while betting is open (no face-up
# run-out, no hand over) is written down.
WATCH_HOLES = """() => {
  window.leaks = [];
  const check = () => {
    const seats = document.querySelector('#table-seats');
    if (!seats || !seats.dataset.hand || seats.dataset.faceUp) return;
    if (!['preflop', 'flop', 'turn', 'river'].includes(seats.dataset.street)) return;
    for (const card of seats.querySelectorAll('.hole .pc:not(.back)'))
      window.leaks.push(seats.dataset.hand + ' ' + seats.dataset.street + ' ' + card.outerHTML);
  };
  new MutationObserver(check).observe(document.body, {subtree: true, childList: true,
    attributes: true});
  check();
}"""


def finished_hand(server, table_id) -> int | None:
    rows = steps.db_rows(
        server,
        "SELECT id FROM tables_hand WHERE table_id=? AND status='finished' ORDER BY number LIMIT 1",
        table_id,
    )
    return rows[0][0] if rows else None


def hand_number(page) -> int:
    return int(page.eval_on_selector("#table-seats", "s => s.dataset.hand") or 0)


def table_story(server, table_id) -> str:
    """The table's hands and seats as the database has them (said when a wait fails)."""
    hands = steps.db_rows(
        server, "SELECT number, status FROM tables_hand WHERE table_id=? ORDER BY number", table_id
    )
    seats = steps.db_rows(
        server, "SELECT number, stack, sitting_out FROM tables_seat WHERE table_id=?", table_id
    )
    return f"hands {hands}, seats {seats}"


def play_until(alice, done, story, limit: float = 300.0) -> None:
    """alice checks or calls whenever it is her turn, and buys in again when she went bust,
    until ``done()`` (bounded; ``story()`` says where the table was when it failed)."""
    deadline = steps.deadline(limit)
    while not done():
        assert time.monotonic() < deadline, f"the table did not get there in time: {story()}"
        if alice.locator("form.sit-down").count():
            # she went bust (the server shuffles at random): she buys in again, or the two
            # bots left would not deal to each other alone
            steps.sit_down(alice, 200)
            continue
        button = alice.locator("form.act button.check, form.act button.call").first
        with contextlib.suppress(Exception):  # not her turn, or the hand moved on: look again
            button.wait_for(state="visible", timeout=200)
            button.click(timeout=2000)


def test_a_visitor_watches_a_hand_live_and_opens_the_replayer(browser, server):
    table_id, secret_id = server.shell(SETUP)
    alice = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    steps.sign_up(alice, server.url, "alice")
    steps.open_table(alice, server.url, table_id)
    steps.sit_down(alice, 200)
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(f"{server.url}/tables/{table_id}/")
    page.wait_for_selector("#conn[data-state=open]", timeout=WAIT)
    assert "You are watching." in page.inner_text("#table-controls")
    page.evaluate(WATCH_HOLES)

    # Live: two hands after the first one seen (the page was never reloaded).
    def story() -> str:
        return f"{table_story(server, table_id)}; the visitor sees hand {hand_number(page)}"

    play_until(alice, lambda: hand_number(page) > 0, story)
    first = hand_number(page)
    play_until(alice, lambda: hand_number(page) >= first + 2, story)
    assert page.evaluate("window.leaks") == []
    assert page.locator("#table-log li").count() > 0
    page.screenshot(path=str(ARTIFACTS / "visitor-watching.png"), full_page=True)

    hand_id = finished_hand(server, table_id)
    assert hand_id is not None
    replay = page.goto(f"{server.url}/hands/{hand_id}/")
    assert replay is not None and replay.status == 200 and "/accounts/login/" not in page.url
    page.wait_for_selector("#replayer")

    secret = page.goto(f"{server.url}/tables/{secret_id}/")
    assert secret is not None and secret.status == 404
