"""Two friends at a private game in two browsers (real daphne, Chromium): they chat, a message
``<img src=x onerror=alert(1)>`` shows as text on both screens and no dialog fires, a reload
brings the chat back, the tab title says "Your turn" to the player to act; once the host closes
the game, the ledger page shows nets summing to zero, the settle-up and every hand's seed
checked against its commitment. Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

import pytest

from tests.browser import steps
from tests.browser.conftest import ARTIFACTS

pytestmark = pytest.mark.browser

XSS = "<img src=x onerror=alert(1)>"
#: Whether a chat line with exactly this text is on the page (as text).
SHOWN = (
    "text => [...document.querySelectorAll('#chat-lines .said')].some(e => e.textContent === text)"
)

SETUP = """
import json
from tables.models import Player, Table, TableGuest
from tables.services import table_save
alice = Player.objects.get(user__username="alice_n")
bob = Player.objects.get(user__username="bob_n")
t = table_save(table=Table(name="Friday night", host=alice, private=True, max_seats=6,
    action_seconds=30, time_bank_seconds=0, min_buy_in=20, max_buy_in=400))
TableGuest.objects.create(table=t, player=bob)  # bob opened the invite link
print(json.dumps(t.pk))
"""
CLOSE = """
import json
from tables.models import Table
from tables.services import table_close
table_close(table=Table.objects.get(pk={pk}))
print(json.dumps(Table.objects.get(pk={pk}).hands.count()))
"""


def sign_up(browser, server, name):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    steps.sign_up(page, server.url, name)
    return page, dialogs


def open_and_sit(page, server, table_id, buy_in):
    steps.open_table(page, server.url, table_id)
    steps.sit_down(page, buy_in)


def say(page, text):
    page.fill("#chat-form input[name=text]", text)
    page.click("#chat-form button[type=submit]")


def chat_texts(page) -> list[str]:
    return page.eval_on_selector_all(
        "#chat-lines li[data-chat-id] .said", "els => els.map(e => e.textContent)"
    )


def test_two_friends_chat_safely_and_the_ledger_squares(browser, server):
    alice, alice_dialogs = sign_up(browser, server, "alice_n")
    bob, bob_dialogs = sign_up(browser, server, "bob_n")
    table_id = server.shell(SETUP)
    open_and_sit(alice, server, table_id, 100)
    open_and_sit(bob, server, table_id, 60)

    say(alice, XSS)
    for page in (alice, bob):
        page.wait_for_function(SHOWN, arg=XSS)
        assert page.locator("#chat-lines img").count() == 0  # text, not an element
    say(bob, "nice try")
    for page in (alice, bob):  # each page shows it when its own frame comes
        page.wait_for_function(SHOWN, arg="nice try")
    assert chat_texts(alice) == chat_texts(bob) == [XSS, "nice try"]
    assert alice.input_value("#chat-form input[name=text]") == ""  # the box is cleared
    # The host sees a mute button by bob's line; bob sees none.
    assert alice.locator("#chat-lines button.mute").count() == 1
    assert bob.locator("#chat-lines button.mute").count() == 0

    bob.reload()  # the last lines come back with the socket
    bob.wait_for_selector("#conn[data-state=open]")
    bob.wait_for_function(
        "() => document.querySelectorAll('#chat-lines li[data-chat-id]').length === 2"
    )
    assert chat_texts(bob) == [XSS, "nice try"]

    # A hand deals itself: the player to act sees "Your turn" in the tab title.
    alice.wait_for_selector("#table-actions .clock", timeout=steps.ms(20_000))
    acting = alice if alice.locator("#table-actions form.act").count() else bob
    acting.wait_for_function(
        "() => document.title.startsWith('Your turn')", timeout=steps.ms(10_000)
    )
    alice.screenshot(path=str(ARTIFACTS / "chat-alice.png"), full_page=True)
    bob.screenshot(path=str(ARTIFACTS / "chat-bob.png"), full_page=True)
    assert alice_dialogs == [] and bob_dialogs == []

    # The sound switch is remembered across reloads.
    alice.click("#sound-switch")
    assert "off" in alice.text_content("#sound-switch")
    alice.reload()
    assert "off" in alice.text_content("#sound-switch")

    hands = server.shell(CLOSE.format(pk=table_id))
    assert hands >= 1
    alice.goto(f"{server.url}/tables/{table_id}/ledger/")
    assert alice.text_content("#ledger-total").strip() == "0"
    nets = alice.eval_on_selector_all(
        "#ledger-table tbody tr[data-player] td.net", "els => els.map(e => Number(e.textContent))"
    )
    assert len(nets) == 2 and sum(nets) == 0
    settlement = alice.text_content("#settlement")
    assert (" pays " in settlement) == any(nets)
    assert alice.locator("#deals .check-ok").count() == hands
    assert alice.locator("#deals .check-bad").count() == 0
    alice.screenshot(path=str(ARTIFACTS / "ledger.png"), full_page=True)
    assert alice_dialogs == [] and bob_dialogs == []
