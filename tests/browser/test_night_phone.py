"""Issue 31, item 16: a night on a phone (390×844), against a real daphne server.

The lobby's rows keep their column names (the header row is hidden on a phone); the site
header is one line (the links it has no room for open from its menu); on a full table's felt
no dealer or blind marker, bet or pot covers a plate, another seat's cards or the pot; the
night's ledger shows its Net column without scrolling. Each page passes axe-core (item 17).
"""

from __future__ import annotations

import pytest

from tests.browser import steps
from tests.browser.conftest import ARTIFACTS

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

# A full six-seat table with long names, a hand running on a long clock.
SETUP = """
import json
from tables.models import Table
from tables.selectors.hands import running_hand
from tables.services import hand_start, player_sign_up, seat_take, table_save
t = table_save(table=Table(name="Phone table", max_seats=6, action_seconds=600,
    time_bank_seconds=0, max_buy_in=5000))
for name in ("maximiliana", "dan", "erin", "bartholomew", "fay"):
    seat_take(table=t, player=player_sign_up(username=name, password="x-Secret-9"), buy_in=2500)
print(json.dumps(t.pk))
"""

# The moment the felt holds the most bets: gus in the big blind, everyone else called, gus
# to act (six bets out). Hands that cannot come to it (gus asked to call) are folded round
# quickly: the button moves one seat a hand, so one of the next six is gus's big blind.
EVERYONE_CALLED_TO_GUS = """
import json
from tables.models import Table
from tables.selectors.hands import hand_state
from tests.tables.helpers import play_until
def gus(hand):
    return next((i for i, seat in enumerate(hand.seats) if seat["name"] == "gus"), None)
def six_bets_to_gus(hand):
    state = hand_state(hand)
    return state.actor == gus(hand) and all(state.bets)
def fold_round_unless_gus_plays(hand):
    state, seat = hand_state(hand), gus(hand)
    gus_out = seat is None or state.folded[seat] or state.actor == seat
    return "fold" if gus_out and state.legal.fold else ("check" if state.legal.check else "call")
t = Table.objects.get(pk=%d)
hand = play_until(t, six_bets_to_gus, fold_round_unless_gus_plays)
print(json.dumps(len([bet for bet in hand_state(hand).bets if bet])))
"""

#: Boxes on the felt that must not cover one another: each seat's markers and bet against
#: the other seats' plates and cards, and the pot; each plate against the pot.
OVERLAPS = """() => {
  const box = (el) => el.getBoundingClientRect();
  const area = (a, b) =>
    Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) *
    Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
  const pots = document.querySelector('#table-pots');
  const seats = [...document.querySelectorAll('.seat:not(.empty)')];
  const problems = [];
  seats.forEach((seat) => {
    const own = [...seat.querySelectorAll('.markers > *, .bet')];
    seats.filter((other) => other !== seat).forEach((other) => {
      const theirs = [...other.querySelectorAll('.plate, .hole .pc')];
      own.forEach((mark) => theirs.forEach((el) => {
        if (area(box(mark), box(el)) > 1)
          problems.push(`${seat.id} ${mark.className} covers ${other.id} ${el.className}`);
      }));
    });
    [...own, seat.querySelector('.plate')].forEach((el) => {
      if (pots && pots.textContent.trim() && area(box(el), box(pots)) > 1)
        problems.push(`${seat.id} ${el.className} covers the pot`);
    });
  });
  return problems;
}"""


def test_a_night_on_a_phone(browser, server):
    table_id = server.shell(SETUP)
    context = browser.new_context(**PHONE)
    page = context.new_page()
    steps.sign_up(page, server.url, "gus")

    # the lobby: every value keeps its column's name
    page.goto(server.url + "/")
    row = page.locator(f"#table-{table_id}")
    labels = row.evaluate(
        "(tr) => [...tr.querySelectorAll('td[data-label]')]"
        ".map(td => getComputedStyle(td, '::before').content)"
    )
    assert labels == [
        '"Game: "',
        '"Stakes: "',
        '"Buy-in: "',
        '"Seats: "',
        '"Avg pot: "',
        '"Players: "',
    ], labels
    # the header: one line, nothing past the screen's edge, the rest in its menu
    header = page.evaluate(
        "() => { const h = document.querySelector('.site-header');"
        " const tops = [...h.querySelectorAll('nav > *')].filter(e => e.offsetParent)"
        ".map(e => Math.round(e.getBoundingClientRect().top + e.offsetHeight / 2));"
        " return {height: h.offsetHeight, wide: h.scrollWidth > h.clientWidth,"
        " lines: new Set(tops.map(t => Math.round(t / 8))).size}; }"
    )
    assert header["height"] <= 48 and not header["wide"] and header["lines"] == 1, header
    page.click(".nav-more summary")
    assert page.locator(".nav-more-links a", has_text="Leaderboard").is_visible()
    page.screenshot(path=str(ARTIFACTS / "night-phone-lobby.png"), full_page=True)
    assert steps.axe_violations(page) == []

    # the table: gus sits down, is dealt in, and everyone before him calls; nothing on the
    # felt covers anything
    steps.open_table(page, server.url, table_id)
    steps.sit_down(page, 100)
    assert server.shell(EVERYONE_CALLED_TO_GUS % table_id) == 6
    # the shell's actions were not the server's own: the page is opened again to show them
    steps.open_table(page, server.url, table_id)
    page.wait_for_selector(".seat.me.actor", timeout=steps.ms(30_000))
    page.wait_for_selector(".markers .dealer", timeout=steps.ms(30_000))
    assert page.locator(".seat .bet").count() == 6
    page.screenshot(path=str(ARTIFACTS / "night-phone-table.png"), full_page=True)
    assert page.evaluate(OVERLAPS) == []
    assert steps.axe_violations(page) == []

    # the ledger: the Net column in view without scrolling
    page.goto(f"{server.url}/tables/{table_id}/ledger/")
    nets = page.locator("#ledger-table td.net")
    assert nets.count() == 6
    width = page.evaluate("() => document.documentElement.clientWidth")
    for k in range(nets.count()):
        cell = nets.nth(k).bounding_box()
        assert cell is not None and cell["x"] >= 0 and cell["x"] + cell["width"] <= width, cell
    top = page.evaluate(
        "() => { const c = document.querySelector('#ledger-table td.net');"
        " const r = c.getBoundingClientRect();"
        " return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === c; }"
    )
    assert top, "the Net column is covered"
    page.screenshot(path=str(ARTIFACTS / "night-phone-ledger.png"), full_page=True)
    assert steps.axe_violations(page) == []
    context.close()
