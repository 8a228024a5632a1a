"""The HUD at the table (issue 51) in Chromium against a real daphne server: nadia plays a
bot heads-up (folding or checking); beside each seat a button shows the player's statistics
on hover, on keyboard focus and on a tap, and its figures follow each hand's end without a
reload. axe-core finds nothing with the figures open."""

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
from tables.services import table_save
t = table_save(table=Table(name="HUD table", max_seats=3, bots_allowed=True, bot_seats=1,
    action_seconds=60, time_bank_seconds=0, min_buy_in=20, max_buy_in=400))
print(json.dumps(t.pk))
"""
WAIT = 30_000  # ms: every wait is bounded
NADIA_HANDS = (
    "() => Number((document.querySelector('.hud[data-player=nadia] [data-figure=hands]')"
    " || {}).textContent || 0)"
)

#: The HUD asked for again, as at a hand's end; resolves once the new one is in.
REFRESHED = """() => new Promise(done => {
  const hud = document.getElementById('table-hud');
  const swapped = e => {
    if (e.target === hud) { document.removeEventListener('htmx:afterSwap', swapped); done(); }
  };
  document.addEventListener('htmx:afterSwap', swapped);
  htmx.trigger(hud, 'hud-refresh');
})"""


def play_until(page, done, limit: float = 90.0) -> None:
    """nadia folds (or checks) whenever it is her turn, until ``done()`` (bounded)."""
    deadline = steps.deadline(limit)
    while not done():
        assert time.monotonic() < deadline, "no hand ended in time"
        button = page.locator("form.act button[data-key=f], form.act button.check").first
        with contextlib.suppress(Exception):  # not her turn, or the hand moved on
            button.wait_for(state="visible", timeout=300)
            button.click(timeout=2000)


def test_the_hud_opens_on_hover_focus_and_tap_and_follows_each_hand(browser, server):
    table_id = server.shell(SETUP)
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    steps.sign_up(page, server.url, "nadia")
    steps.open_table(page, server.url, table_id)
    steps.sit_down(page, 100)
    page.wait_for_selector(".hud[data-player=nadia] .hud-toggle", timeout=WAIT)
    # the figures follow a hand's end, without a reload
    play_until(page, lambda: page.evaluate(NADIA_HANDS) >= 1)
    box = page.locator(".hud[data-player=nadia]")
    figures = box.locator(".hud-figures")
    assert not figures.is_visible()
    box.locator(".hud-toggle").hover()
    figures.wait_for(state="visible", timeout=WAIT)
    for words in ("VPIP", "PFR", "3-bet", "AF", "WTSD", "Hands"):
        assert words in figures.inner_text()
    page.mouse.move(0, 0)
    figures.wait_for(state="hidden", timeout=WAIT)
    # keyboard: focusing the button shows them (and names them to a screen reader)
    box.locator(".hud-toggle").focus()
    figures.wait_for(state="visible", timeout=WAIT)
    described = box.locator(".hud-toggle").get_attribute("aria-describedby")
    assert described and page.locator(f"#{described}").count() == 1
    page.evaluate("() => document.activeElement.blur()")
    # a tap keeps them open (aria-expanded), Escape closes them
    box.locator(".hud-toggle").click()
    assert box.locator(".hud-toggle").get_attribute("aria-expanded") == "true"
    page.mouse.move(0, 0)
    page.evaluate("() => document.activeElement.blur()")
    assert figures.is_visible()
    # the HUD's refresh (as a hand ends) keeps them open
    page.evaluate(REFRESHED)
    assert box.locator(".hud-toggle").get_attribute("aria-expanded") == "true"
    assert figures.is_visible()
    page.screenshot(path=str(ARTIFACTS / "hud-open.png"))
    assert steps.axe_violations(page) == []
    page.keyboard.press("Escape")
    assert box.locator(".hud-toggle").get_attribute("aria-expanded") == "false"
    # the bot's figures are there too
    assert page.locator(".hud .hud-toggle").count() == 2
    # on a phone every button is on screen, and a tap opens the figures
    page.set_viewport_size({"width": 390, "height": 844})
    widths = page.eval_on_selector_all(
        ".hud-toggle",
        "els => els.map(e => [e.getBoundingClientRect().left, e.getBoundingClientRect().right])",
    )
    assert all(left >= 0 and right <= 390 for left, right in widths), widths
    bot = page.locator(".hud:not([data-player=nadia])")
    bot.locator(".hud-toggle").click()
    bot.locator(".hud-figures").wait_for(state="visible", timeout=WAIT)
    page.screenshot(path=str(ARTIFACTS / "hud-phone.png"))
