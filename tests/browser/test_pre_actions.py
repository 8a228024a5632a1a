"""Acting in advance (issue 50) in two browsers against a real daphne server.

alice and bob play heads-up (a fixed deck). The player not to act sees the choices beside the
action bar and ticks "Check/fold" (a pressed button, reached by the keyboard too); the other
raises; the server folds for them in the same step: their page never offers them the action
bar for that hand, and the hand's log has their fold, made in advance.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser import steps
from tests.browser.conftest import running_server

pytestmark = pytest.mark.browser

SEEDED = Path(__file__).parent / "seeded"

SETUP = """
import json
from tables.models import Table
from tables.services import table_save
t = table_save(table=Table(name="Advance table", max_seats=2, action_seconds=60,
    min_buy_in=50, max_buy_in=400))
print(json.dumps(t.pk))
"""
LOG = """
import json
from tables.models import HandAction
print(json.dumps(list(HandAction.objects.filter(hand__table_id={t}, hand__number=1)
    .order_by("index").values_list("kind", "source"))))
"""
WAIT = 20_000  # ms: every wait is bounded


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_server(
        tmp_path_factory,
        PYTHONPATH=str(SEEDED),  # fixed decks
        POKER_TEST_FIRST_SEED="5000",
        POKER_HAND_PAUSE_SECONDS="300",  # the test ends in the first hand
    ) as running:
        yield running


def sign_up_and_sit(browser, server, table_id, name):
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    steps.sign_up(page, server.url, name)
    steps.open_table(page, server.url, table_id)
    steps.sit_down(page, 200)
    return page


def test_check_fold_ticked_in_advance_folds_to_a_raise(browser, server):
    table_id = server.shell(SETUP)
    pages = {name: sign_up_and_sit(browser, server, table_id, name) for name in ("alice", "bob")}
    actor, waiting = None, None
    for _ in range(3):
        for name, page in pages.items():
            if page.locator("form.act").count():
                actor, waiting = name, "bob" if name == "alice" else "alice"
        if actor:
            break
        pages["alice"].wait_for_timeout(1_000)  # a bound on the deal reaching both pages
    assert actor is not None, "nobody was offered an action"
    mine = pages[waiting]
    mine.wait_for_selector("#pre-action-form", timeout=WAIT)
    labels = mine.locator("#pre-action-form button.pre-action").all_inner_texts()
    assert labels == ["Check/fold", "Check", "Call any"]  # the big blind owes nothing yet
    assert pages[actor].locator("#pre-action-form").count() == 0  # to act: the bar instead

    check_fold = mine.locator("#pre-action-form button[data-pre=check_fold]")
    check_fold.focus()  # keyboard reachable: a button, ticked with Enter
    mine.keyboard.press("Enter")
    mine.wait_for_selector(
        "#pre-action-form button[data-pre=check_fold][aria-pressed=true]", timeout=WAIT
    )
    assert mine.locator("form.act").count() == 0

    pages[actor].click("form.act button.raise")
    mine.wait_for_selector("#table-actions:not(:has(#pre-action-form))", timeout=WAIT)
    # the frame without the choices comes after the step committed: the log is there
    log = server.shell(LOG.format(t=table_id))
    assert log == [["raise", "player"], ["fold", "pre"]]
    assert mine.locator("form.act").count() == 0  # never asked: the server acted
