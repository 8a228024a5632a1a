"""Issue 31, items 12 and 19: seven-card stud with bots at 1280×800, as a player sees it.

dora plays stud against the croupier's bots (fixed decks, ``tests/browser/seeded``): no
plate ever shows a dealer button (stud deals none); with seven cards dealt, each seat's row
of cards fits its plate's width and the felt's rail; the hand's log opens with the antes,
with no empty "3rd street:" line; the lobby lists the bots without stray spaces.
"""

from __future__ import annotations

import contextlib
import time
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
t = table_save(table=Table(name="Stud night", game="stud", betting="fixed-limit", ante=1,
    bring_in=2, small_bet=4, big_bet=8, max_seats=7, min_buy_in=40, max_buy_in=400,
    action_seconds=60, bots_allowed=True, bot_seats=3))
print(json.dumps(t.pk))
"""

#: Each seat's card row against its plate and the felt's rail (the felt's box), in pixels.
FIT = """() => {
  const felt = document.querySelector('.felt').getBoundingClientRect();
  return [...document.querySelectorAll('.seat')].filter(s => s.querySelector('.hole.stud'))
    .map(seat => {
      const row = seat.querySelector('.hole.stud').getBoundingClientRect();
      const plate = seat.querySelector('.plate').getBoundingClientRect();
      return {seat: seat.id, cards: seat.querySelectorAll('.hole.stud .pc').length,
              row: [row.left, row.right], plate: [plate.left, plate.right],
              felt: [felt.left, felt.right]};
    });
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_server(
        tmp_path_factory,
        PYTHONPATH=str(SEEDED),
        POKER_TEST_FIRST_SEED="5200",
        POKER_HAND_PAUSE_SECONDS="4",
    ) as running:
        yield running


def call_down(page, done, limit=90.0):
    """Check or call whenever it is dora's turn, until ``done()``."""
    deadline = steps.deadline(limit)
    while not done():
        assert time.monotonic() < deadline, "the hand did not get there in time"
        button = page.locator("form.act button.check, form.act button.call").first
        with contextlib.suppress(Exception):
            button.wait_for(state="visible", timeout=300)
            button.click(timeout=2000)


def seven_cards(page) -> bool:
    return page.evaluate(
        "() => [...document.querySelectorAll('.seat .hole.stud')]"
        ".some(h => h.querySelectorAll('.pc').length === 7)"
    )


def test_stud_has_no_dealer_button_and_seven_card_rows_fit(browser, server):
    table_id = server.shell(TABLE)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    steps.sign_up(page, server.url, "dora")
    steps.open_table(page, server.url, table_id)
    steps.sit_down(page, 200)
    page.wait_for_selector(".seat.me .hole.stud .pc", timeout=WAIT)
    lines = page.locator("#table-log .log li").all_inner_texts()
    assert lines and lines[0].strip() != "3rd street:", lines
    assert not [line for line in lines if line.strip() == "3rd street:"], lines
    seen_buttons = 0
    deadline = steps.deadline(120)
    while not seven_cards(page):
        assert time.monotonic() < deadline, "no seven-card hand in time"
        seen_buttons += page.locator(".plate ~ .markers .dealer, .markers .dealer").count()
        call_down(page, lambda: seven_cards(page) or page.locator("form.act").count() == 0, 5)
    seen_buttons += page.locator(".markers .dealer").count()
    assert seen_buttons == 0  # stud deals no button
    page.screenshot(path=str(ARTIFACTS / "night-stud-seven-cards.png"), full_page=True)
    assert steps.axe_violations(page) == []  # item 17: seven cards a seat
    for fit in page.evaluate(FIT):
        if fit["cards"] < 7:
            continue
        (row_left, row_right), (plate_left, plate_right) = fit["row"], fit["plate"]
        assert plate_left - 1 <= row_left and row_right <= plate_right + 1, fit  # its plate
        assert fit["felt"][0] <= row_left and row_right <= fit["felt"][1], fit  # the rail
    # item 19: the lobby lists the bots without stray spaces ("bot_ada 🤖, bot_bo 🤖")
    page.goto(server.url + "/")
    # (read as drawn: each bot icon as the 🤖 it shows)
    players = page.locator(f"#table-{table_id} td[data-label=Players]").evaluate(
        "(td) => { const copy = td.cloneNode(true);"
        " copy.querySelectorAll('svg').forEach(svg => svg.replaceWith('🤖'));"
        " return copy.textContent.replace(/\\s+/g, ' ').trim(); }"
    )
    names = sorted(players.split(", "))  # in seat order: dora's seat is hers to pick
    assert names == ["bot_ada 🤖", "bot_bo 🤖", "bot_cy 🤖", "dora"], players
    context.close()
