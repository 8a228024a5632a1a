"""Issue 31, items 10 and 11: a showdown's end as the players see it, in two browsers against
a real daphne server whose decks are fixed (``tests/browser/seeded``).

- Item 10: alice and bob are all in before the flop for everything; who loses went bust:
  their plate and shown cards stay on everyone's felt after the showdown (marked "busted"),
  and they are told so, with the sit-down form to buy in again (and they do).
- Item 11: an all-in run twice, then its replayer: both boards dealt street by street with
  both runs' winners, no step named by an internal word ("run_twice"), every card drawn as
  a card (no "Ts Ad 4s" in the words), and the call said with the amount its live button
  said.
"""

from __future__ import annotations

import re
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


def all_in_and_call(pages: dict) -> str:
    """The first to act moves all in, the other calls: the caller's "Call N" button text."""
    other = dict(zip(pages, reversed(list(pages)), strict=True))
    shover = actor_of(pages)
    pages[shover].locator("form.act button.size", has_text="All-in").click()
    pages[shover].click("form.act button.raise")
    caller = pages[other[shover]]
    caller.wait_for_selector("form.act button.call", timeout=WAIT)
    said = caller.locator("form.act button.call").inner_text()
    caller.click("form.act button.call")
    return f"{other[shover]} {said.split()[0].lower()}s {said.split()[1]}"  # "bob calls 98"


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
    # item 17: the hand's end (a winner's plate, a bust plate, the rebuy offer) passes axe-core
    for page in pages.values():
        assert steps.axe_violations(page) == []
    steps.sit_down(pages[loser], 100)  # the rebuy the form offers
    for page in pages.values():
        page.context.close()


CODE = re.compile(r"\b[2-9TJQKA][shdc]\b")  # a card written as its code


def test_the_replayer_of_a_run_twice_hand(browser, server):
    table_id = server.shell(TABLE.format(name="Twice", twice=True))
    pages = {name: seated_page(browser, server, table_id, name, 150) for name in ("cleo", "dan")}
    call_said = all_in_and_call(pages)
    for page in pages.values():
        page.wait_for_selector("form.runs button.run-twice", timeout=WAIT)
        page.click("form.runs button.run-twice")
    page = pages["cleo"]
    page.wait_for_function(  # both runs dealt and awarded: the hand is over
        "() => document.querySelectorAll('#table-board .pot.awarded').length === 2",
        # two boards' streets, each after its pause, and their chances first: on a busy
        # 2-core CI run (two test workers, their browsers and servers) past 20 s once
        timeout=2 * WAIT,
    )
    page.wait_for_selector("#table-log .recent a", timeout=WAIT)
    page.click("#table-log .recent a")
    page.wait_for_selector("#replayer")
    labels = [a.inner_text() for a in page.locator(".replay-steps li a").all()]
    assert call_said in labels, (call_said, labels)
    assert not any("run_twice" in label or "run_once" in label for label in labels), labels
    assert "The board is run twice" in labels
    streets = [label for label in labels if label.startswith(("Flop", "Turn", "River"))]
    assert [street.split(",")[0] for street in streets] == ["Flop", "Turn", "River"], labels
    assert all("both runs" in street and "second run" in street for street in streets), streets
    assert not [label for label in labels if CODE.search(label)], labels  # cards as cards
    flop = page.locator(".replay-steps li a", has_text="Flop")
    assert flop.locator(".pc[data-card]").count() == 6  # both runs' flops, drawn
    # step by step: the felt's two boards grow together
    for street, cards in (("Flop", 3), ("Turn", 4), ("River", 5)):
        page.locator(".replay-steps li a", has_text=street).click()
        for run in ("1", "2"):
            board = page.locator(f"#replay-felt .board[data-run='{run}'] .pc")
            assert board.count() == cards, (street, run)
    page.locator("a[data-step=last]").click()
    awarded = page.locator("#replay-felt .pot.awarded")
    assert awarded.count() == 2  # one per run, each with its winner
    texts = [awarded.nth(k).inner_text() for k in range(2)]
    assert "first run" in texts[0] and "second run" in texts[1], texts
    assert not [text for text in texts if CODE.search(text)], texts
    final = page.inner_text("#replay-now")
    assert not CODE.search(final), final
    page.screenshot(path=str(ARTIFACTS / "night-replayer-run-twice.png"), full_page=True)
    assert steps.axe_violations(page) == []  # item 17
    for each in pages.values():
        each.context.close()
