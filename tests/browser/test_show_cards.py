"""Show your cards (issue 31 item 6) in two browsers against a real daphne server.

alice and bob play heads-up. The first to act folds; once the hand is over the folder's page
offers to show their cards (all, or each one): they show one card. The other page sees that
card, and only that one, on the folder's seat and in the log, live; the replayer of the hand
ends with it. When the next hand starts the offer is gone.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser import steps
from tests.browser.conftest import ARTIFACTS, running_server

pytestmark = pytest.mark.browser

SEEDED = Path(__file__).parent / "seeded"

SETUP = """
import json
from tables.models import Table
from tables.services import table_save
t = table_save(table=Table(name="Show table", max_seats=2, action_seconds=60,
    min_buy_in=50, max_buy_in=400))
print(json.dumps(t.pk))
"""
HOLE = """
import json
from tables.models import Hand
from tables.selectors.hands import hand_state, with_deck
hand = with_deck(Hand.objects.filter(pk={hand_id})).get()
print(json.dumps([hand.pk, [[str(c) for c in cards] for cards in hand_state(hand).hole],
    [s["name"] for s in hand.seats]]))
"""
WAIT = 20_000  # ms: every wait is bounded


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    # the pause between hands is the time to show: long enough for a loaded machine's clicks
    with running_server(
        tmp_path_factory,
        PYTHONPATH=str(SEEDED),  # fixed decks
        POKER_TEST_FIRST_SEED="3300",
        POKER_HAND_PAUSE_SECONDS="30",
    ) as running:
        yield running


def sign_up_and_sit(browser, server, table_id, name):
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    steps.sign_up(page, server.url, name)
    steps.open_table(page, server.url, table_id)
    steps.sit_down(page, 200)
    return page


def shows_card(page, code: str) -> bool:
    """Whether ``code`` (e.g. ``4h``) is on the page: as a card, or in its words (the page's
    markup holds such pairs by chance, e.g. an icon's path ``M5 4h2.5``)."""
    if page.locator(f"[data-card='{code}']").count():
        return True
    return re.search(rf"\b{code}\b", page.inner_text("body")) is not None


def actor_of(pages: dict) -> str:
    for _ in range(3):
        for name, page in pages.items():
            try:
                page.wait_for_selector("form.act", timeout=WAIT // 4)
                return name
            except Exception:  # not this one's turn (yet): look at the other page
                continue
    raise AssertionError("nobody was offered an action")


def fold_for_the_offer(page) -> tuple[int, list[str]]:
    """Fold and wait for the offer to show cards; fold again when the click was lost (a frame
    replaced the action form as it was clicked: the fold button is still there). Returns the
    hand the offer is for and the cards it offers, read together: on a loaded machine a retried
    fold may be in a later hand than the first click's."""
    for _ in range(3):
        page.click("form.act button.fold")
        try:
            page.wait_for_selector("form.show-cards", timeout=WAIT)
        except PlaywrightTimeout:
            if not page.locator("form.act button.fold").count():
                raise
            continue
        hand_id, offered = page.evaluate(
            """() => [+document.querySelector('#table-seats').dataset.hand,
                [...document.querySelectorAll('form.show-cards button.show-card')]
                    .map(b => b.value)]"""
        )
        return hand_id, offered
    raise AssertionError("the fold never went through")


def test_a_folder_shows_one_card_and_everyone_sees_only_it(browser, server):
    table_id = server.shell(SETUP)
    pages = {name: sign_up_and_sit(browser, server, table_id, name) for name in ("alice", "bob")}
    folder = actor_of(pages)
    other = "bob" if folder == "alice" else "alice"
    hand_id, offered = fold_for_the_offer(pages[folder])
    _, holes, names = server.shell(HOLE.format(hand_id=hand_id))
    mine = holes[names.index(folder)]
    assert sorted(offered) == sorted(mine)  # the folder is offered their own cards, and only them
    assert pages[other].locator("form.show-cards").count() <= 1  # the winner may show too
    pages[folder].click(f"form.show-cards button.show-card[value='{mine[0]}']")
    watcher = pages[other]
    watcher.wait_for_selector(f"#table-log li:has-text('{folder} shows')", timeout=WAIT)
    shown = watcher.eval_on_selector_all(
        "#table-seats .pc:not(.back)", "cards => cards.map(c => c.dataset.card)"
    )
    assert mine[0] in shown and mine[1] not in shown
    log = watcher.inner_text("#table-log")
    assert not shows_card(watcher, mine[1])
    assert f"{folder} shows" in log
    watcher.screenshot(path=str(ARTIFACTS / "show-cards.png"), full_page=True)
    # the offer keeps only the card still hidden
    pages[folder].wait_for_selector(
        f"form.show-cards button.show-card[value='{mine[1]}']", timeout=WAIT
    )
    assert pages[folder].locator(f"button.show-card[value='{mine[0]}']").count() == 0
    # the replayer ends with it, for anyone
    replay = browser.new_context().new_page()
    replay.goto(f"{server.url}/hands/{hand_id}/")
    assert f"{folder} shows {mine[0]}" in replay.content()
    assert not shows_card(replay, mine[1])
    # the next hand: the offer is gone
    pages[folder].wait_for_function(
        f"() => +document.querySelector('#table-seats').dataset.hand > {hand_id}",
        timeout=3 * WAIT,  # the pause between hands is long (see the server fixture)
    )
    pages[folder].wait_for_selector("form.show-cards", state="detached", timeout=WAIT)
    ((stored,),) = steps.db_rows(server, "SELECT shown_cards FROM tables_hand WHERE id=?", hand_id)
    assert mine[0] in stored and mine[1] not in stored
