"""Issue 31, items 7 and 9: what a night's players see stays live and true, to the close.

A host and a friend play a private game in two browsers against a real daphne server:

- the site header's bankroll follows the sit-down live (10,000 -> 9,800 without a reload);
- a paused game says so on the felt, without the last hand's result (item 8);
- the table's heading follows the stakes (2/4 once the raised blinds are in play), a pause
  ("Paused") and the close ("Closed") on the friend's open page, without a reload;
- once closed, the page shows the game's result and settle-up and offers no sit-down,
  buy-in or chat; the game stays reachable from the lobby's and the profile's "Your recent
  games"; a game whose Private was turned off mid-night says why its seeds stay secret;
- a host control the server cannot be reached for says so on the panel, and changes nothing;
  each control's answer stays on the panel while table changes refresh it;
- item 19: "No messages yet." leaves the chat once a message arrives; the host's changes
  read as sentences; the sign-up welcome is not shown on the table page.
"""

from __future__ import annotations

import pytest

from tests.browser import steps
from tests.browser.conftest import ARTIFACTS
from tests.browser.steps import axe_violations, db_rows, open_table, play_until, sign_up, sit_down

pytestmark = pytest.mark.browser


def new_page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())  # hx-confirm: the host means it
    return page


def host_change(host, **settings):
    """Change the game's settings from the host panel (a frame may replace the form between
    two fills: fill again); the panel's answer."""
    form = host.locator("form.change-settings")

    def put(name, value):
        field = form.locator(f"[name={name}]")
        if isinstance(value, bool):
            field.set_checked(value)
            return field.is_checked() == value
        field.fill(str(value))
        return field.input_value() == str(value)

    for _ in range(5):
        filled = [put(name, value) for name, value in settings.items()]  # every one, each time
        if all(filled):
            break
    return steps.host_answer(host, form.locator("button[type=submit]"))


def heading(page) -> str:
    return page.inner_text("#table-heading")


def test_the_header_and_heading_stay_live_and_a_closed_game_keeps_its_result(server, browser):
    ARTIFACTS.mkdir(exist_ok=True)
    host = new_page(browser)
    sign_up(host, server.url, "ana")
    host.click("header a.new-game")
    host.fill("#id_name", "Ana's night")
    host.fill("#id_action_seconds", "15")
    host.click("form.new-game button[type=submit]")
    host.wait_for_selector("#conn[data-state=open]")
    table_id = int(host.url.rstrip("/").split("/")[-1])
    assert host.inner_text("#header-bankroll") == "10,000"
    sit_down(host, 200)
    # item 7: the header's bankroll follows the buy-in, live
    host.wait_for_function(
        "() => document.getElementById('header-bankroll').textContent === '9,800'"
    )
    invite = host.input_value(".host-panel input.invite-url")

    ben = new_page(browser)
    sign_up(ben, server.url, "ben")
    ben.goto(invite)
    ben.wait_for_selector("#conn[data-state=open]")
    assert ben.locator("ul.messages").count() == 0  # item 19: no sign-up banner here
    assert "1/2 · Open" in heading(ben)
    sit_down(ben, 150)
    ben.wait_for_function(
        "() => document.getElementById('header-bankroll').textContent === '9,850'"
    )
    pages = [host, ben]
    play_until(
        pages, lambda: db_rows(server, "SELECT 1 FROM tables_hand WHERE table_id=?", table_id)
    )

    # the host raises the blinds: from the next hand, and the heading says so when they are in play
    answer = host_change(host, small_blind=2, big_blind=4)
    assert "From the next hand" in answer or "Changed now" in answer, answer
    host.evaluate(
        "window.panelRefreshes = 0; document.getElementById('hosting').addEventListener("
        "'htmx:afterSettle',"
        " e => { if (e.detail.requestConfig?.verb === 'get') window.panelRefreshes++ })"
    )
    play_until(
        pages,
        lambda: db_rows(server, "SELECT 1 FROM tables_table WHERE id=? AND big_blind=4", table_id),
        limit=60,
    )
    # The answer stays while frames refresh the panel (the first refresh used to wipe it).
    host.wait_for_function("() => window.panelRefreshes > 0", timeout=steps.ms(30_000))
    assert host.inner_text(".host-messages") == answer
    ben.wait_for_function(
        "() => document.getElementById('table-heading').textContent.includes('2/4 · Open')",
        timeout=steps.ms(15_000),
    )

    # a pause: "Paused" on the friend's open page
    # ... first with the server out of reach: the panel says so, nothing is paused
    host.route("**/host/pause/", lambda route: route.abort())
    host.click(".host-panel button.pause")
    failed = host.locator("#host-answer li.error", has_text="No answer from the server")
    failed.wait_for(timeout=steps.ms(15_000))
    assert "(not reachable)" in failed.inner_text()
    assert db_rows(server, "SELECT status FROM tables_table WHERE id=?", table_id) == [("open",)]
    host.unroute("**/host/pause/")
    host.click(".host-panel button.pause")
    ben.wait_for_function(
        "() => document.getElementById('table-heading').textContent.includes('Paused')",
        timeout=steps.ms(15_000),
    )
    # item 8: once the hand being played ends, the felt says so, not the last result as if live
    play_until(
        pages,
        lambda: (
            not db_rows(
                server, "SELECT 1 FROM tables_hand WHERE table_id=? AND status='running'", table_id
            )
        ),
    )
    ben.locator("#table-board .waiting.paused").wait_for(timeout=steps.ms(15_000))
    assert "Paused by the host" in ben.inner_text("#table-board")
    assert ben.locator("#table-board .pot.awarded, #table-seats .plate .won").count() == 0
    ben.screenshot(path=str(ARTIFACTS / "night-paused.png"))
    assert axe_violations(ben) == []  # item 17: a paused felt
    host.click(".host-panel button.resume")
    ben.wait_for_function(
        "() => document.getElementById('table-heading').textContent.includes('Open')",
        timeout=steps.ms(15_000),
    )

    # item 19: "No messages yet." goes once a message arrives, on every page
    for page in pages:
        assert page.locator("#chat-lines li.empty").is_visible()
    ben.fill("#chat-form input[name=text]", "nice hand")
    ben.click("#chat-form button[type=submit]")
    for page in pages:  # a loaded machine's pages may take a while (no wall clock asserted)
        page.locator("#chat-lines li", has_text="nice hand").wait_for(timeout=steps.ms(30_000))
        assert not page.locator("#chat-lines li.empty").is_visible()
        assert "No messages yet." not in page.inner_text("#chat-lines")

    # Private turned off mid-night, then the host closes the game
    host_change(host, private=False)
    # item 19: the host's change reads as a sentence in the others' logs
    notice = ben.locator("#table-log li.notice", has_text="private")
    notice.first.wait_for(timeout=steps.ms(15_000))
    assert "The host set private off." in notice.first.inner_text()
    assert "False" not in ben.inner_text("#table-log")
    host.click(".host-panel button.close-game")
    play_until(
        pages,
        lambda: (
            db_rows(server, "SELECT status FROM tables_table WHERE id=?", table_id)[0][0]
            == "closed"
        ),
    )
    ben.wait_for_function(
        "() => document.getElementById('table-heading').textContent.includes('Closed')",
        timeout=steps.ms(15_000),
    )
    ben.locator("#table-controls a.game-result-link").wait_for(timeout=steps.ms(15_000))
    assert ben.locator("form.sit-down").count() == 0

    # item 9: reloaded, the closed game shows its result and settle-up, no sit-down nor chat
    open_table(ben, server.url, table_id)
    result = ben.locator("#game-result")
    assert result.is_visible()
    nets = {
        row.get_attribute("data-player"): int(row.locator(".net").inner_text())
        for row in result.locator("tr[data-player]").all()
    }
    assert set(nets) == {"ana", "ben"} and sum(nets.values()) == 0, nets
    settlement = result.locator("#settlement").inner_text()
    if nets["ana"]:
        loser = "ana" if nets["ana"] < 0 else "ben"
        assert f"{loser} pays" in settlement, settlement
    assert ben.locator("form.sit-down, input[name=buy_in], #table-chat, #chat-form").count() == 0
    ben.screenshot(path=str(ARTIFACTS / "night-closed-result.png"), full_page=True)
    assert axe_violations(ben) == []  # item 17: a closed game's result

    # reachable from the lobby's and the profile's recent games
    for path in ("/", "/accounts/profile/"):
        ben.goto(server.url + path)
        link = ben.locator(f"#recent-games a[href='/tables/{table_id}/']")
        assert link.inner_text() == "Ana's night", path
        assert axe_violations(ben) == [], path
    ben.locator(f"#recent-games a[href='/tables/{table_id}/ledger/']").click()
    deals = ben.inner_text("#deals-secret")
    assert "until the host closes" not in deals
    assert "not private when it closed" in deals
    assert axe_violations(ben) == []
    for page in pages:
        page.context.close()
