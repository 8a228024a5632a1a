"""The turn nudge (issue 50): a player who chose it gets a vibration when it becomes their
turn and, while the tab is not in front, a notification shown through the site's service
worker; nothing while they look at the table.

The browser's own APIs are wrapped only to record their calls (they still run): the
notification's ``showNotification``, ``navigator.vibrate``, and ``document.hidden``, which a
headless browser cannot make true by putting another tab in front.
"""

from __future__ import annotations

import contextlib
import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser import steps

pytestmark = pytest.mark.browser

SETUP = """
import json
from tables.models import Table
from tables.services import table_save
t = table_save(table=Table(name="Nudge table", max_seats=3, bots_allowed=True, bot_seats=1,
    action_seconds=60, time_bank_seconds=0, min_buy_in=20, max_buy_in=400))
print(json.dumps(t.pk))
"""
RECORD_CALLS = """
window.nudges = []; window.vibrations = []; window.tabHidden = false;
Object.defineProperty(Document.prototype, "hidden", {
  configurable: true, get() { return window.tabHidden; } });
Object.defineProperty(Document.prototype, "visibilityState", {
  configurable: true, get() { return window.tabHidden ? "hidden" : "visible"; } });
const show = ServiceWorkerRegistration.prototype.showNotification;
ServiceWorkerRegistration.prototype.showNotification = function (title, options) {
  window.nudges.push({title, body: options && options.body, tag: options && options.tag});
  return show.call(this, title, options);
};
const vibrate = navigator.vibrate && navigator.vibrate.bind(navigator);
navigator.vibrate = function (pattern) {
  window.vibrations.push(pattern);
  return vibrate ? vibrate(pattern) : false;
};
"""
#: ms: a bound on waiting for the bot's move and the next hand (the server deals at random).
TURN_WAIT = 60_000
MY_TURN = "() => document.title.startsWith('Your turn')"


def play_until_nudged(page) -> None:
    """Check or call at each turn until a notification is recorded (bounded)."""
    deadline = time.monotonic() + TURN_WAIT / 1000
    while not page.evaluate("() => window.nudges.length"):
        assert time.monotonic() < deadline, "no notification at a turn while the tab was hidden"
        version = steps.table_version(page)
        button = page.locator("form.act button.check, form.act button.call").first
        if button.count():
            with contextlib.suppress(PlaywrightTimeout):  # the bar went with a frame meanwhile
                button.click(timeout=5_000)
        with contextlib.suppress(PlaywrightTimeout):  # a notification, not a frame, may end it
            steps.next_version(page, version, 5_000)


def test_a_notification_comes_when_it_is_your_turn_and_the_tab_is_not_in_front(browser, server):
    table_id = server.shell(SETUP)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.grant_permissions(["notifications"], origin=server.url)
    context.add_init_script(RECORD_CALLS)
    page = context.new_page()
    try:
        steps.sign_up(page, server.url, "nadia")
        page.goto(server.url + "/accounts/preferences/")
        assert page.get_attribute("body", "data-nudge") == "off"
        page.check("#id_turn_nudge")
        page.click("#preferences-form button[type=submit]")
        page.wait_for_load_state()
        assert page.get_attribute("body", "data-nudge") == "on"
        assert page.evaluate("() => Notification.permission") == "granted"
        # the worker is in place before the table opens (a first visit registers it)
        assert page.evaluate("() => navigator.serviceWorker.ready.then(r => r.scope)") == (
            server.url + "/"
        )

        steps.open_table(page, server.url, table_id)
        steps.sit_down(page, 100)
        # in front: the turn comes with a vibration and no notification
        page.wait_for_function(MY_TURN, timeout=TURN_WAIT)
        assert page.evaluate("() => window.vibrations.length") >= 1
        assert page.evaluate("() => window.nudges") == []

        # behind another tab: play on, and the next turn brings a notification (heads-up the
        # big blind acts twice running, preflop then first on the flop: no new turn between)
        page.evaluate("() => { window.tabHidden = true; }")
        play_until_nudged(page)
        nudge = page.evaluate("() => window.nudges[0]")
        assert nudge["title"].startswith("Your turn · Nudge table"), nudge
        assert nudge["body"].startswith("Your turn:"), nudge
        assert nudge["tag"] == f"turn-/tables/{table_id}/"
        assert page.evaluate("() => window.vibrations.length") >= 2
    finally:
        context.close()


def test_without_a_connection_a_page_says_the_table_will_come_back(browser, server):
    """The installed site's offline page: the service worker keeps it for a page that cannot
    load."""
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(server.url + "/")
        page.evaluate("() => navigator.serviceWorker.ready")
        context.set_offline(True)
        page.goto(server.url + "/tables/1/")
        assert "the table will come back" in page.inner_text("#offline")
        context.set_offline(False)
        page.reload()
        assert page.locator("#offline").count() == 0, "back online: the page itself"
    finally:
        context.close()


HEADS_UP = """
import json
from tables.models import Table
from tables.services import table_save
t = table_save(table=Table(name="Two of us", max_seats=2, bots_allowed=False, bot_seats=0,
    action_seconds=60, time_bank_seconds=0, min_buy_in=20, max_buy_in=400))
print(json.dumps(t.pk))
"""
BAR = "form.act button.check, form.act button.call"


def test_the_nudge_repeats_when_the_turn_comes_back_at_once(browser, server):
    """Heads-up, the big blind checks preflop and is first on the flop: the action bar never
    leaves their screen, yet that is a new turn, and with the tab hidden it nudges again."""
    table_id = server.shell(HEADS_UP)
    nadia_context = browser.new_context(viewport={"width": 1280, "height": 900})
    nadia_context.grant_permissions(["notifications"], origin=server.url)
    nadia_context.add_init_script(RECORD_CALLS)
    otto_context = browser.new_context(viewport={"width": 1280, "height": 900})
    nadia, otto = nadia_context.new_page(), otto_context.new_page()
    try:
        steps.sign_up(nadia, server.url, "nell")
        nadia.goto(server.url + "/accounts/preferences/")
        nadia.check("#id_turn_nudge")
        nadia.click("#preferences-form button[type=submit]")
        nadia.wait_for_load_state()
        steps.sign_up(otto, server.url, "otis")
        for page in (nadia, otto):
            steps.open_table(page, server.url, table_id)
            steps.sit_down(page, 100)
        nadia.evaluate("() => { window.tabHidden = true; }")

        # otto checks or calls at once; nadia too, until one of her actions leaves her to act
        deadline = time.monotonic() + TURN_WAIT / 1000
        while True:
            assert time.monotonic() < deadline, "nadia never had two turns running"
            if nadia.locator(BAR).count():
                nudged, version = (
                    nadia.evaluate("() => window.nudges.length"),
                    steps.table_version(nadia),
                )
                nadia.locator(BAR).first.click(timeout=5_000)
                steps.next_version(nadia, version, 10_000)
                if nadia.locator(BAR).count():  # nobody else acted: her turn again at once
                    nadia.wait_for_function(f"() => window.nudges.length > {nudged}", timeout=5_000)
                    break
            elif otto.locator(BAR).count():
                with contextlib.suppress(PlaywrightTimeout):
                    otto.locator(BAR).first.click(timeout=5_000)
            else:
                with contextlib.suppress(PlaywrightTimeout):  # between hands: the next deal
                    steps.next_version(nadia, steps.table_version(nadia), 5_000)
    finally:
        nadia_context.close()
        otto_context.close()


def test_a_push_message_is_shown_unless_the_tables_tab_is_in_front(browser, server):
    """The service worker's side of Web Push (the server's: tests/tables/test_push.py): the
    nudge a push message brings, run in the worker itself (a page cannot make a trusted push
    event), is shown only while no tab of that table is in front."""
    table_id = server.shell(SETUP.replace('"Nudge table"', '"Push table"'))
    context = browser.new_context()
    context.grant_permissions(["notifications"], origin=server.url)
    page = context.new_page()
    message = {
        "title": "Your turn · Push table",
        "body": "It is your turn to act at Push table.",
        "url": f"/tables/{table_id}/",
        "tag": f"turn-/tables/{table_id}/",
    }
    shown = """m => turnNudge(m).then(() => self.registration.getNotifications())
        .then(all => all.map(n => ({title: n.title, tag: n.tag, url: n.data.url})))"""
    try:
        page.goto(f"{server.url}/tables/{table_id}/")
        page.evaluate("() => navigator.serviceWorker.ready")
        worker = (
            context.service_workers[0]
            if context.service_workers
            else (context.wait_for_event("serviceworker"))
        )
        assert worker.evaluate(shown, message) == [], "the table is in front: its page nudges"
        page.goto(server.url + "/")
        assert worker.evaluate(shown, message) == [
            {"title": message["title"], "tag": message["tag"], "url": message["url"]}
        ]
    finally:
        context.close()
