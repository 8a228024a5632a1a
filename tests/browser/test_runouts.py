"""Run-outs in two browsers against a real daphne server (issue 20).

alice and bob sit at a table that runs it twice. A hand ends with a fold before the flop:
bob asks for the rabbit hunt and both see the five cards that would have come. The next hand
they are all in before the flop: each sees both hands face up with each hand's chance beside
it, both choose "Run it twice", and the two boards arrive street by street (flop, turn,
river), the chances changing as they come. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import pytest

from tests.browser import steps
from tests.browser.conftest import ARTIFACTS, running_server

pytestmark = pytest.mark.browser

SETUP = """
import json
from tables.models import Table
from tables.services import table_save
t = table_save(table=Table(name="Run-outs", max_seats=2, run_it_twice=True,
    action_seconds=60, min_buy_in=50, max_buy_in=400))
print(json.dumps(t.pk))
"""
BUY_IN = {"alice": 150, "bob": 300}  # whoever wins the all-in, both can play on
WAIT = 20_000  # ms: every wait is bounded

OPPONENT_FACE_UP = "document.querySelectorAll('.seat:not(.me) .hole .pc:not(.back)').length"
CHANCES = "[...document.querySelectorAll('.plate .chance')].map(c => c.textContent.trim())"
# The chances known (the croupier computes them off the write path: "…" until then).
CHANCES_KNOWN = (
    "() => document.querySelectorAll('.plate .chance').length === 2"
    " && !document.querySelector('.plate .chance.pending')"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_server(
        tmp_path_factory, POKER_HAND_PAUSE_SECONDS="6", POKER_RUNOUT_PAUSE_SECONDS="3"
    ) as running:
        yield running


def sign_up_and_sit(browser, server, table_id, name):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    steps.sign_up(page, server.url, name)
    steps.open_table(page, server.url, table_id)
    steps.sit_down(page, BUY_IN[name])
    return page


def actor_of(pages: dict) -> str:
    """The name of the player whose action bar is up (waits for one, bounded)."""
    pages["alice"].wait_for_function(
        "() => document.querySelector('#table-seats').dataset.street === 'preflop'",
        timeout=WAIT,
    )
    for _ in range(2):
        for name, page in pages.items():
            try:
                page.wait_for_selector("form.act", timeout=WAIT // 4)
                return name
            except Exception:  # not this one's turn (yet): look at the other page
                continue
    raise AssertionError("nobody was offered an action")


def board_cards(page, run: str) -> int:
    return page.evaluate(
        f"document.querySelectorAll('#table-board .board[data-run=\"{run}\"] .pc').length"
    )


def shoot(page, name: str):
    page.screenshot(path=str(ARTIFACTS / f"runout-{name}.png"), full_page=True)


def test_rabbit_hunt_then_all_in_run_twice_street_by_street(browser, server):
    table_id = server.shell(SETUP)
    pages = {name: sign_up_and_sit(browser, server, table_id, name) for name in BUY_IN}
    other = {"alice": "bob", "bob": "alice"}

    # Hand 1: the first to act folds; bob asks for the rabbit hunt, everyone sees it.
    first = actor_of(pages)
    pages[first].click("form.act button.fold")
    for page in pages.values():
        page.wait_for_selector("#table-board button.rabbit-hunt", timeout=WAIT)
    pages["bob"].click("#table-board button.rabbit-hunt")
    for page in pages.values():
        page.wait_for_selector("#table-board .rabbit .pc", timeout=WAIT)
        assert page.locator("#table-board .rabbit .pc").count() == 5
        assert page.locator("#table-board button.rabbit-hunt").count() == 0  # once per hand
    shoot(pages["alice"], "rabbit-hunt")

    # Hand 2: all in before the flop.
    pages["alice"].wait_for_function(
        "() => !document.querySelector('#table-board .rabbit')", timeout=WAIT
    )
    shover = actor_of(pages)
    pages[shover].locator("form.act button.size", has_text="All-in").click()
    pages[shover].click("form.act button.raise")
    caller = other[shover]
    pages[caller].wait_for_selector("form.act button.call", timeout=WAIT)
    pages[caller].click("form.act button.call")

    # Both hands face up for both, each with its chance; both are asked to run it twice.
    for page in pages.values():
        page.wait_for_selector("form.runs button.run-twice", timeout=WAIT)
        assert page.evaluate(OPPONENT_FACE_UP) == 2
        page.wait_for_function(CHANCES_KNOWN, timeout=WAIT)
        assert all(text.endswith("%") for text in page.evaluate(CHANCES))
    shoot(pages["alice"], "run-it-twice-asked")
    for page in pages.values():
        page.click("form.runs button.run-twice")

    # Two boards, dealt street by street, the chances beside the hands changing with them.
    page = pages["alice"]
    page.wait_for_selector("#table-board .board.second-run", timeout=WAIT)
    seen = []
    for cards in (3, 4, 5):
        # the flop's and the turn's chances come a moment after their cards (off the write path)
        known = f" && ({CHANCES_KNOWN})()" if cards < 5 else ""
        page.wait_for_function(
            f"() => document.querySelectorAll('#table-board .board[data-run=\"1\"] .pc')"
            f".length >= {cards}{known}",
            timeout=WAIT,
        )
        seen.append((board_cards(page, "1"), board_cards(page, "2"), page.evaluate(CHANCES)))
        if cards == 3:
            shoot(page, "flop-two-boards")
    assert [(first_run, second_run) for first_run, second_run, _ in seen] == [
        (3, 3),
        (4, 4),
        (5, 5),
    ], seen
    for _, _, chances in seen[:2]:  # both hands' chances on each run, e.g. "63.6% · 41.2%"
        assert len(chances) == 2 and all("·" in text for text in chances), chances
    page.wait_for_selector("#table-board .pot.awarded", timeout=WAIT)
    assert page.locator("#table-board .pot.awarded").count() == 2  # one per run
    shoot(page, "two-boards-result")
    for page in pages.values():
        page.context.close()
