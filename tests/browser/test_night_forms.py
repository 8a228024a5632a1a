"""Issue 31, items 13 and 14: the host's controls and a stud game's settings, at 1280×800.

- Item 14: choosing seven-card stud on the new-game form fills its ante, bring-in and bets
  from the stakes typed, its buy-in help speaks of small bets (not big blinds), and the game
  starts as filled.
- Item 13: on the game's page, "Host controls" in the heading (on screen without scrolling)
  opens the host panel as a drawer: the invite link and the settings on screen; the settings
  form shows only the fields of the table's game (a stud game: no blinds or straddles), and
  follows a change of game.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser import steps
from tests.browser.conftest import ARTIFACTS

pytestmark = pytest.mark.browser

HEIGHT = 800


#: Whether the first element ``sel`` picks is wholly within the window as the page is scrolled.
ON_SCREEN = """sel => {
  const element = document.querySelector(sel);
  if (!element) return false;
  const box = element.getBoundingClientRect();
  return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
}"""


def on_screen(page, selector: str) -> bool:
    """Whether the element is (or within a few seconds comes to be) wholly within the window
    as the page is scrolled now: the host panel refreshes itself after live frames, and an
    element being swapped in at that moment has no place yet."""
    try:
        page.wait_for_function(ON_SCREEN, arg=selector, timeout=5_000)
    except PlaywrightTimeout:
        return False
    return True


def shown_settings(page) -> set[str]:
    return set(
        page.evaluate(
            "() => [...document.querySelectorAll('form.change-settings [data-setting]')]"
            ".filter(l => l.offsetParent !== null).map(l => l.dataset.setting)"
        )
    )


def test_a_stud_game_starts_from_its_defaults_and_the_host_drawer_opens_on_screen(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": HEIGHT})
    page = context.new_page()
    steps.sign_up(page, server.url, "hana")
    page.click("header a.new-game")
    # The click returns once the new page commits; the form's deferred script (which fills a
    # stud game's defaults on a change of game) may not have run yet.
    page.wait_for_selector("form.new-game[data-rules-ready]")
    page.fill("#id_name", "Hana's stud")
    page.fill("#id_small_blind", "5")
    page.fill("#id_big_blind", "10")
    help_of = "(el) => el.closest('.field').querySelector('.help').textContent"
    assert "big blinds" in page.locator("#id_min_buy_in").evaluate(help_of)
    page.select_option("#id_game", "stud")
    values = {
        name: page.input_value(f"#id_{name}")
        for name in ("small_bet", "big_bet", "bring_in", "ante")
    }
    assert values == {"small_bet": "10", "big_bet": "20", "bring_in": "5", "ante": "2"}, values
    for name in ("min_buy_in", "max_buy_in"):
        text = page.locator(f"#id_{name}").evaluate(help_of)
        assert "small bets" in text and "big blind" not in text, text
    assert not page.is_visible("#id_small_blind")  # stud has no blinds
    page.screenshot(path=str(ARTIFACTS / "night-new-stud-game.png"), full_page=True)
    assert steps.axe_violations(page) == []
    page.click("form.new-game button[type=submit]")
    page.wait_for_selector("#conn[data-state=open]")
    heading = page.inner_text("#table-heading")
    assert "Stud" in heading and "10/20 ante 2 bring-in 5" in heading, heading

    # the host's drawer: its button on screen at the top, the panel on screen once opened
    page.evaluate("window.scrollTo(0, 0)")
    assert on_screen(page, "a.host-open")
    page.click("a.host-open")
    page.wait_for_selector(".host-panel input.invite-url")
    page.wait_for_selector("form.change-settings[data-rules-ready]")  # its script has run
    page.screenshot(path=str(ARTIFACTS / "night-host-drawer.png"))
    assert on_screen(page, ".host-panel input.invite-url")
    assert on_screen(page, "form.change-settings button[type=submit]")
    shown = shown_settings(page)
    assert {"small_bet", "big_bet", "bring_in", "ante"} <= shown, shown
    assert not shown & {"small_blind", "big_blind", "straddle", "straddles"}, shown
    page.screenshot(path=str(ARTIFACTS / "night-host-drawer.png"))
    assert steps.axe_violations(page) == []
    # a change of game in the form shows that game's fields
    page.select_option("form.change-settings select[name=game]", "holdem")
    shown = shown_settings(page)
    assert {"small_blind", "big_blind"} <= shown and "bring_in" not in shown, shown
    page.click(".host-panel a.host-close")
    page.wait_for_function("() => location.hash !== '#hosting'")
    context.close()
