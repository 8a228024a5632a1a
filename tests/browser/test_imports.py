"""A player uploads a real PokerNow log and its ledger in Chromium (real daphne): a bad file
is refused with its first unreadable line, the page then offers the log's names, and once
one is picked the import's page lists the hands marked as PokerNow's with who owes whom.
A screenshot goes to ``test-artifacts/``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.conftest import ARTIFACTS
from tests.browser.test_chat_ledger import sign_up

pytestmark = pytest.mark.browser

DATA = Path(__file__).parents[1] / "engine" / "data" / "pokernow"
LOG = DATA / "charlestudor_input_log_002.csv"
NAME = "P1 @ eNVKMq2Tcb"
LEDGER = b"player_nickname,player_id,net\nP1,eNVKMq2Tcb,150\nspa @ ces,ZQfm6ZDMPO,-150\n"


def test_upload_a_pokernow_log_pick_the_name_and_see_the_hands(browser, server, tmp_path) -> None:
    page, dialogs = sign_up(browser, server, "importer")
    page.goto(server.url + "/imports/")
    assert "at most 2 MiB" in page.inner_text("section.imports")
    # not a log: refused, naming the first line
    bad = tmp_path / "notes.csv"
    bad.write_text("hello,there\n")
    page.set_input_files("#upload input[name=log]", str(bad))
    page.click("#upload button[type=submit]")
    page.wait_for_selector("#import-error")
    assert "line 1: not a PokerNow log" in page.inner_text("#import-error")
    # the log and its ledger, the name left empty: the page offers the log's names
    ledger = tmp_path / "ledger.csv"
    ledger.write_bytes(LEDGER)
    page.set_input_files("#upload input[name=log]", str(LOG))
    page.set_input_files("#upload input[name=ledger]", str(ledger))
    page.click("#upload button[type=submit]")
    page.wait_for_selector("#pick-name")
    page.check(f"#pick-name input[value='{NAME}']")
    page.click("#pick-name button[type=submit]")
    page.wait_for_selector("#imported-hands")
    import_page = page.url
    assert "4 new hands imported" in page.inner_text("#import-summary")
    assert page.locator("#imported-hands tbody tr").count() == 4
    assert "PokerNow" in page.inner_text("#imported-hands tbody tr >> nth=0")
    assert f"pays {NAME} 150" in page.inner_text("#import-settlement")
    page.screenshot(path=str(ARTIFACTS / "imports-laptop.png"), full_page=True)
    # one hand, step by step
    page.click("#imported-hands tbody tr >> nth=1 >> a >> nth=0")
    page.wait_for_selector("#hand-actions")
    assert "bets or raises to 30" in page.inner_text("#hand-actions")
    # hand #3 in the site's replayer, marked as PokerNow's, stepped in place
    page.goto(import_page)
    page.click("#imported-hands tbody tr >> nth=2 >> a.replay-link")
    page.wait_for_selector("#replayer[data-step='0']")
    page.wait_for_selector("#replayer .replay-slider", state="visible")  # its script runs
    assert page.inner_text("#imported-mark") == "Imported from PokerNow"
    assert replay_step(page) == (0, "Cards dealt, blinds posted", 0)
    # the uploader's own cards face up; the other hand, shown at the end, public as here
    assert page.locator("#replay-felt .pc").count() == 4
    page.keyboard.press("ArrowRight")
    assert replay_step(page) == (1, "spa @ ces calls 10", 0)  # the chips it put in
    page.click('[data-step="next"]')
    assert replay_step(page) == (2, "P1 raises to 50", 0)
    assert "?step=2" in page.url
    page.keyboard.press("End")
    step, label, board = replay_step(page)
    assert (label, board) == ("P1 wins 100 (Two Pair, Nines and Fives)", 5)
    assert page.get_attribute('[data-step="next"]', "aria-disabled") == "true"
    page.screenshot(path=str(ARTIFACTS / "imports-replayer-laptop.png"))
    # the statistics page: the same figures in a section of their own, marked PokerNow
    page.goto(server.url + "/accounts/profile/")
    assert f"pays {NAME} 150" in page.inner_text("#pokernow-nights")
    page.screenshot(path=str(ARTIFACTS / "imports-profile-laptop.png"), full_page=True)
    page.click("a:has-text('My stats')")
    page.wait_for_selector("#pokernow-stats")
    assert "50.0%" in page.inner_text("#pokernow-stats")
    assert page.locator("#pokernow-recent tbody tr").count() == 4
    page.locator("#pokernow-stats").screenshot(path=str(ARTIFACTS / "imports-stats-laptop.png"))
    assert dialogs == []


def replay_step(page) -> tuple[int, str, int]:
    """The replayer's step, its label and the board cards on its felt."""
    now = page.evaluate("""() => [
        Number(document.getElementById("replayer").dataset.step),
        document.querySelector(".replay-label").textContent,
        document.querySelectorAll("#replay-felt #table-board .pc").length,
    ]""")
    return now[0], now[1], now[2]
