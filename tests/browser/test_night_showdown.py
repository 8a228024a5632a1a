"""Issue 31, items 10 and 11: a showdown's end as the players see it, in two browsers against
a real daphne server whose decks are fixed (``tests/browser/seeded``).

- Item 10: alice and bob are all in before the flop for everything; who loses went bust:
  their plate and shown cards stay on everyone's felt after the showdown (marked "busted"),
  and they are told so, with the sit-down form to buy in again (and they do).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser import steps
from tests.browser.conftest import ARTIFACTS, running_server

pytestmark = pytest.mark.browser

SEEDED = Path(__file__).parent / "seeded"
WAIT = 20_000  # ms: every wait is bounded

TABLE = """
import json
from tables.models import Table
from tables.services import table_save
t = table_save(table=Table(name={name!r}, max_seats=2, run_it_twice={twice},
    action_seconds=60, min_buy_in=50, max_buy_in=400))
print(json.dumps(t.pk))
"""

STACKS = """
import json
from tables.models import Seat
print(json.dumps({{s.player.name: s.stack for s in Seat.objects.filter(table_id={table_id})}}))
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_server(
        tmp_path_factory,
        PYTHONPATH=str(SEEDED),
        POKER_TEST_FIRST_SEED="3100",
        POKER_HAND_PAUSE_SECONDS="6",
        POKER_RUNOUT_PAUSE_SECONDS="0.5",
    ) as running:
        yield running


def seated_page(browser, server, table_id, name, buy_in):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    steps.sign_up(page, server.url, name)
    steps.open_table(page, server.url, table_id)
    steps.sit_down(page, buy_in)
    return page


def actor_of(pages: dict) -> str:
    """The name of the player whose action bar is up (waits for one, bounded)."""
    for _ in range(4):
        for name, page in pages.items():
            try:
                page.wait_for_selector("form.act", timeout=WAIT // 8)
                return name
            except Exception:  # not this one's turn (yet): look at the other page
                continue
    raise AssertionError("nobody was offered an action")


def all_in_and_call(pages: dict) -> None:
    other = dict(zip(pages, reversed(list(pages)), strict=True))
    shover = actor_of(pages)
    pages[shover].locator("form.act button.size", has_text="All-in").click()
    pages[shover].click("form.act button.raise")
    caller = pages[other[shover]]
    caller.wait_for_selector("form.act button.call", timeout=WAIT)
    caller.click("form.act button.call")


def test_who_goes_bust_keeps_their_plate_and_is_offered_a_rebuy(browser, server):
    table_id = server.shell(TABLE.format(name="Bust", twice=False))
    pages = {name: seated_page(browser, server, table_id, name, 100) for name in ("alice", "bob")}
    all_in_and_call(pages)
    for page in pages.values():
        page.wait_for_selector("#table-board .pot.awarded", timeout=WAIT)
    stacks = server.shell(STACKS.format(table_id=table_id))
    assert list(stacks.values()) == [200], stacks  # one took it all: the other went bust
    (winner,) = stacks
    (loser,) = set(pages) - {winner}
    for name, page in pages.items():
        # the bust seat's plate and its shown cards stay on the felt after the showdown
        plate = page.locator(".seat", has=page.locator(f".plate .name:text-is('{loser}')"))
        plate.wait_for(timeout=WAIT)
        assert plate.locator(".status.busted").inner_text() == "busted", name
        assert plate.locator(".pc:not(.back)").count() == 2, name
    note = pages[loser].locator("#table-controls .busted-note")
    assert "You went bust" in note.inner_text() and "buy in again" in note.inner_text()
    pages[loser].screenshot(path=str(ARTIFACTS / "night-busted.png"), full_page=True)
    steps.sit_down(pages[loser], 100)  # the rebuy the form offers
    for page in pages.values():
        page.context.close()
