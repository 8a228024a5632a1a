"""The hole-card broadcast's consent in browsers (issue 53), against a real daphne server:
the host (alice) proposes showing hole cards to spectators one street late, alice and bob
each agree on their own table page, and a visitor's page then shows their hole cards from the
flop of the next hand on, while neither player ever sees the other's. Bob withdraws: the
hands dealt after that show the visitor no hole card on the flop."""

from __future__ import annotations

import pytest

from tests.browser import steps
from tests.browser.conftest import running_server

pytestmark = pytest.mark.browser

WAIT = 30_000  # ms: every wait is bounded
SEAT_TWO = """
import json
from tables.models import Player, Table
from tables.services import seat_take, table_save
alice = Player.objects.get(user__username="alice")
t = table_save(table=Table(name="Stream night", max_seats=6, action_seconds=600, host=alice))
for number, name in enumerate(("alice", "bob")):
    seat_take(table=t, player=Player.objects.get(user__username=name), buy_in=200,
              seat_number=number)
print(json.dumps(t.pk))
"""
# The visitor's seats now: the hand, its street, and how many hole cards show face up.
SEATS = """() => {
  const seats = document.querySelector('#table-seats');
  return [seats.dataset.hand, seats.dataset.street,
          seats.querySelectorAll('.hole .pc:not(.back)').length];
}"""
# A player's page, watched on every change from the start (``window.leaks``): another
# seat's hole card face up while a betting street is on (the showdown's are everyone's).
WATCH_OTHERS = """() => {
  window.leaks = [];
  const check = () => {
    const seats = document.querySelector('#table-seats');
    if (!seats || !seats.dataset.hand || seats.dataset.faceUp) return;
    if (!['preflop', 'flop', 'turn', 'river'].includes(seats.dataset.street)) return;
    for (const card of seats.querySelectorAll('.seat:not(.me) .hole .pc:not(.back)'))
      window.leaks.push(seats.dataset.hand + ' ' + seats.dataset.street + ' ' + card.outerHTML);
  };
  new MutationObserver(check).observe(document.body, {subtree: true, childList: true,
    attributes: true});
  check();
}"""

# The hosting panel's refresh asked for (as a frame asks for it), and the "I agree" clicked
# while it is on its way.
REFRESH_THEN_AGREE = """() => {
  const panel = document.querySelector('#hosting');
  htmx.ajax('GET', panel.getAttribute('hx-get'), {source: panel, target: panel});
  document.querySelector('.broadcast-consent button.broadcast-agree').click();
}"""
# A refresh of the hosting panel swapped in, and "Withdraw" clicked in the very next task, as
# a player clicks a button the moment it appears (a click on a swapped-in button htmx had
# not yet wired up used to be lost: templates/includes/htmx_config.html).
REFRESH_THEN_WITHDRAW_AS_IT_APPEARS = """() => {
  const panel = document.querySelector('#hosting');
  panel.addEventListener('htmx:afterSwap', () => setTimeout(() =>
    panel.querySelector('.broadcast-consent button.broadcast-withdraw').click()), {once: true});
  htmx.ajax('GET', panel.getAttribute('hx-get'), {source: panel, target: panel});
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_server(tmp_path_factory, POKER_HAND_PAUSE_SECONDS="1") as running:
        yield running


def test_two_players_agree_and_a_visitor_sees_their_cards_then_one_withdraws(browser, server):
    pages = {}
    for name in ("alice", "bob"):
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        steps.sign_up(page, server.url, name)
        pages[name] = page
    table_id = server.shell(SEAT_TWO)
    for page in pages.values():
        steps.open_table(page, server.url, table_id)
        page.evaluate(WATCH_OTHERS)
    alice, bob = pages["alice"], pages["bob"]

    # The host proposes; each player agrees from their own page.
    alice.click("a.host-open")
    alice.click("details.broadcast-host summary")  # folded away until proposed
    alice.select_option("form.broadcast-propose select[name=delay]", "street")
    alice.click("form.broadcast-propose button[type=submit]")
    bob.wait_for_selector(".broadcast-consent button.broadcast-agree", timeout=WAIT)
    assert steps.axe_violations(bob) == []  # the question as a player gets it
    alice.click(".broadcast-consent button.broadcast-agree", timeout=WAIT)
    alice.wait_for_selector(".broadcast-consent .broadcast-agreed", timeout=WAIT)
    # bob answers while a refresh of his panel is under way (a frame asked for it): his
    # answer is not dropped, the refresh gives way to it
    bob.wait_for_selector(".broadcast-consent button.broadcast-agree", timeout=WAIT)
    bob.evaluate(REFRESH_THEN_AGREE)
    bob.wait_for_selector(".broadcast-consent .broadcast-agreed", timeout=WAIT)
    assert "Everyone agrees" in bob.inner_text(".broadcast-consent")

    visitor = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    steps.open_table(visitor, server.url, table_id)
    players = list(pages.values())

    def shown_on_a_later_street() -> bool:
        _, street, face_up = visitor.evaluate(SEATS)
        return street in ("flop", "turn", "river") and face_up == 4

    steps.play_until(players, shown_on_a_later_street, limit=60)
    assert visitor.locator("#table-seats .hole .pc.back").count() == 0
    assert [page.evaluate("window.leaks") for page in players] == [[], []]  # not to players

    # Bob withdraws: from the next hand on, nothing shows on the flop.
    hand_then = int(visitor.evaluate(SEATS)[0])
    bob.evaluate(REFRESH_THEN_WITHDRAW_AS_IT_APPEARS)
    bob.wait_for_selector(".broadcast-consent button.broadcast-agree", timeout=WAIT)

    def a_later_hand_on_the_flop() -> bool:
        hand, street, _ = visitor.evaluate(SEATS)
        return bool(hand) and int(hand) > hand_then and street in ("flop", "turn", "river")

    steps.play_until(players, a_later_hand_on_the_flop, limit=60)
    assert visitor.evaluate(SEATS)[2] == 0
    assert visitor.locator("#table-seats .hole .pc.back").count() == 4
    assert [page.evaluate("window.leaks") for page in players] == [[], []]
