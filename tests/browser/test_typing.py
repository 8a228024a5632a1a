"""What a player types survives the table's live updates.

A frame re-renders a region of the table page whole when it changed (``tables.live.frames``),
forms included. A watcher fills in the sit-down form (a buy-in, a seat) while two bots play
on: frame after frame arrives, and
the buy-in typed, the seat picked and the focus stay where the player left them; the sit-down
then uses them.
"""

from __future__ import annotations

import pytest

from tests.browser import steps
from tests.browser.conftest import ARTIFACTS

pytestmark = pytest.mark.browser

SETUP = """
import json
from tables.models import Table
from tables.services import table_save
t = table_save(table=Table(name=NAME, max_seats=6, bots_allowed=True, bot_seats=2,
    action_seconds=30, time_bank_seconds=0, min_buy_in=20, max_buy_in=400))
print(json.dumps(t.pk))
"""
FRAMES_TO_SEE = 4


def open_table(browser, server, table_id, name):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    steps.sign_up(page, server.url, name)
    steps.open_table(page, server.url, table_id)
    return context, page


def test_typing_in_the_sit_down_form_survives_live_frames(server, browser):
    table_id = server.shell(SETUP.replace("NAME", repr("Typing table")))
    # The bots play once a person sits and plays.
    player_context, player = open_table(browser, server, table_id, "sitter")
    # the clock seats the bots meanwhile: the form's seat can be a frame behind (sit_down
    # tries again)
    steps.sit_down(player, 100)
    context, page = open_table(browser, server, table_id, "typist")

    seats = page.locator("form.sit-down select[name=seat] option").all_inner_texts()
    chosen = seats[-1]
    page.select_option("form.sit-down select[name=seat]", chosen)
    buy_in = page.locator("form.sit-down input[name=buy_in]")
    for _ in range(5):  # a frame may replace the field between fill's steps: fill again
        buy_in.fill("123")  # leaves the focus in the field, as a person typing would
        if buy_in.input_value() == "123":
            break
    steps.count_frames_from_now(page)
    while steps.frames_seen(page) < FRAMES_TO_SEE:
        # The sitter plays on (the bots stop dealing to a table whose person sat out): each of
        # their actions, and the bots' answers, reach the typist as frames.
        player.locator("form.act button").first.wait_for(timeout=steps.ms(60_000))
        version = steps.table_version(player)
        player.locator("form.act button.call, form.act button.check").first.click()
        # the table's next version: the action taken (the bots may answer before the form
        # goes, so it need not leave the page), or a frame that replaced the form as it was
        # clicked, which the next pass clicks again
        steps.next_version(player, version, timeout=steps.ms(30_000))

    after = page.evaluate("""() => {
        const form = document.querySelector('form.sit-down');
        return {
          buyIn: form.querySelector('input[name=buy_in]').value,
          seat: form.querySelector('select[name=seat]').value,
          focused: document.activeElement && document.activeElement.name,
        };
    }""")
    page.screenshot(path=str(ARTIFACTS / "typing-sit-down.png"))
    assert after["buyIn"] == "123", after
    assert after["seat"] == chosen, after
    assert after["focused"] == "buy_in", after

    page.click("form.sit-down button[type=submit]")
    page.wait_for_selector(".seat.me")
    stack = page.locator(".seat.me .stack").inner_text()
    assert "123" in stack.replace(",", ""), stack
    context.close()
    player_context.close()


def test_enter_in_the_chat_on_ones_turn_sends_the_line_and_acts_for_nobody(server, browser):
    """The table's keys belong to the action bar: a player whose turn it is who types a chat
    line and presses Enter says it, and has not bet; Enter in the bar's amount field bets."""
    table_id = server.shell(SETUP.replace("NAME", repr("Chatting table")))  # names are unique
    context, page = open_table(browser, server, table_id, "chatter")
    steps.sit_down(page, 100)
    page.locator("form.act button").first.wait_for(timeout=steps.ms(60_000))  # their turn
    version = steps.table_version(page)
    page.fill("#chat-form input[name=text]", "my turn, one moment")
    page.press("#chat-form input[name=text]", "Enter")
    page.locator("#chat-lines li", has_text="my turn, one moment").wait_for(
        timeout=steps.ms(30_000)
    )
    # Only the chatter may act (the bots wait for them, the clock gives 30 s): the table has
    # not changed and they are still asked.
    assert steps.table_version(page) == version
    assert page.locator("form.act button").count()
    assert page.input_value("#chat-form input[name=text]") == ""
    # Enter in the bar's own amount field is still the bet's confirmation
    amount = page.locator("form.act input.amount")
    amount.fill(amount.get_attribute("min") or "")
    amount.press("Enter")
    steps.next_version(page, version, timeout=steps.ms(30_000))
    taken = steps.db_rows(
        server,
        "SELECT a.kind FROM tables_handaction a JOIN tables_hand h ON a.hand_id = h.id "
        "WHERE h.table_id = ? AND a.source = 'player'",
        table_id,
    )
    assert taken == [("raise",)], taken  # the chatter's one action: this bet
    context.close()
