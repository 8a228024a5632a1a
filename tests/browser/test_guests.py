"""Guests by name (issue 31 item 4) in browsers against a real daphne server.

A friend without an account opens a private game's invite link: the page shows the game (name,
host, game, stakes, who sits) and "Join as guest"; with a name alone she is at the table, live,
sits down with play chips (a buy-in line in her ledger) and later keeps the account with a
password. Another opens the link and signs up from the header: he comes back to the game. The
host replaces the link: the old one says so before any log-in.
"""

from __future__ import annotations

import pytest

from tests.browser import steps
from tests.browser.conftest import ARTIFACTS

pytestmark = pytest.mark.browser

SETUP = """
import json
from tables.services import player_sign_up, seat_take
from tables.services.hosting import table_create
host = player_sign_up(username="hostess", password="pw-hostess-Secret1")
t = table_create(host=host, name="Friday night", private=True, seat_approval=False)
seat_take(table=t, player=player_sign_up(username="alice", password="pw-alice-Secret1"),
    buy_in=100)
print(json.dumps([t.pk, t.invite_token, t.stakes]))
"""
REPLACE = """
import json
from django.contrib.auth.models import User
from tables.services.hosting import table_invite_replace
table_invite_replace(table={table_id}, by=User.objects.get(username="hostess"))
print(json.dumps(True))
"""
LEDGER = """
import json
from tables.models import LedgerEntry
print(json.dumps(sorted(LedgerEntry.objects.filter(player__user__username="gail")
    .values_list("kind", flat=True))))
"""
WAIT = 20_000  # ms: every wait is bounded


def new_page(browser):
    return browser.new_context(viewport={"width": 1280, "height": 900}).new_page()


def test_a_friend_joins_by_name_and_keeps_the_account(browser, server):
    table_id, token, stakes = server.shell(SETUP)
    link = f"{server.url}/join/{token}/"

    gail = new_page(browser)
    gail.goto(link)
    text = gail.inner_text("main")
    for words in ("Friday night", "hostess", stakes, "Hold'em", "alice", "Join as guest"):
        assert words in text, words
    gail.screenshot(path=str(ARTIFACTS / "guest-join.png"), full_page=True)
    gail.fill("#id_name", "alice")  # taken: said on the page, nothing made
    gail.click("text=Join as guest >> nth=-1")
    assert "taken" in gail.inner_text("main")
    gail.fill("#id_name", "gail")
    gail.click("button:has-text('Join as guest')")
    gail.wait_for_url(f"**/tables/{table_id}/", timeout=WAIT)
    gail.wait_for_selector("#conn[data-state=open]", timeout=WAIT)
    steps.sit_down(gail, 120)
    assert server.shell(LEDGER) == ["buy_in", "grant"]
    gail.click("a.keep-account")
    gail.fill("#id_new_password1", steps.password_for("gail"))
    gail.fill("#id_new_password2", steps.password_for("gail"))
    gail.click("button:has-text('Keep my account')")
    gail.wait_for_url("**/accounts/profile/", timeout=WAIT)
    assert "The account is yours" in gail.inner_text("body")
    assert gail.locator("a.keep-account").count() == 0

    # Kept: she logs in with her name and the password from another browser.
    again = new_page(browser)
    again.goto(f"{server.url}/accounts/login/?next=/tables/{table_id}/")
    again.fill("#id_username", "gail")
    again.fill("#id_password", steps.password_for("gail"))
    again.click("form button[type=submit]")
    again.wait_for_selector(".seat.me", timeout=WAIT)

    # The header's "Sign up" keeps the invite: he lands at the game, not the lobby.
    ben = new_page(browser)
    ben.goto(link)
    ben.click("header >> text=Sign up")
    steps.fill_sign_up(ben, "ben")
    ben.wait_for_url(f"**/tables/{table_id}/", timeout=WAIT)
    ben.wait_for_selector("#conn[data-state=open]", timeout=WAIT)

    # A replaced link says so, before any log-in.
    server.shell(REPLACE.format(table_id=table_id))
    late = new_page(browser)
    answer = late.goto(link)
    assert answer is not None and answer.status == 404
    assert "no longer works" in late.inner_text("main")
    assert "/accounts/login/" not in late.url
