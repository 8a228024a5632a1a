"""Issue 49, items 10, 11 and 13: what a third night's host saw on the screen, against a real
daphne server.

At 1280×800: the host's drawer, opened on the host's turn at no-limit hold'em, leaves the
Bet/Raise button in view and clickable; at a dealer's choice of badugi and razz, badugi
dealt, the heading names only the badugi's stakes (no bring-in), the key hints name the
draw's keys, and while the first draw is being made the felt says so (not "After the first
draw"). A closed game shows its result
first, on screen, with no empty felt nor key hints. On a phone (390×844): the page makes no
sound context before a tap (the browser refuses one, three warnings a load); the dealer's
choice line over a draw hand covers no seat; the club page's cash-game settings fit the
screen.
"""

from __future__ import annotations

import pytest

from tests.browser import steps
from tests.browser.conftest import ARTIFACTS

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}

SETUP = """
import json
from tables.clubs import services as clubs
from tables.selectors.hands import hand_state
from tables.services import player_sign_up, seat_take
from tables.services.hosting import table_create, table_host_close
from tests.browser.steps import password_for
from tests.tables.helpers import play_until
hana, ivo = (player_sign_up(username=n, password=password_for(n)) for n in ("hana", "ivo"))
slow = {"action_seconds": 600, "time_bank_seconds": 0}
# dealer's choice of badugi and razz, badugi dealt (the list's first): hana to bet or raise
draw = table_create(host=hana, name="Draw night", game="dealers-choice", small_bet=2, max_seats=6,
    bring_in=1, choice_games=["badugi/fixed-limit", "razz/fixed-limit"], **slow)
for player in (hana, ivo):
    seat_take(table=draw, player=player, buy_in=100)
def hana_may_raise(hand):
    state = hand_state(hand)
    return (state.actor is not None and hand.seats[state.actor]["name"] == "hana"
            and state.legal.min_raise_to is not None)
play_until(draw, hana_may_raise)
# no-limit hold'em: hana to bet or raise, the sizes and slider before the button
holdem = table_create(host=hana, name="Hold'em night", **slow)
for player in (hana, ivo):
    seat_take(table=holdem, player=player, buy_in=100)
play_until(holdem, hana_may_raise)
# a game played and closed
closed = table_create(host=hana, name="Closed night", **slow)
for player in (hana, ivo):
    seat_take(table=closed, player=player, buy_in=100)
table_host_close(table=closed, by=hana.user)
club = clubs.club_create(owner=hana, name="Hana's club")
print(json.dumps([draw.pk, holdem.pk, closed.pk, club.pk]))
"""

#: The first draw being made, hana to draw (ivo stands pat if he is first).
TO_THE_FIRST_DRAW = """
import json
from tables.models import Table
from tables.selectors.hands import hand_state
from tests.tables.helpers import passive_action, play_until
def hana_draws(hand):
    state = hand_state(hand)
    return state.street == "draw1" and hand.seats[state.actor]["name"] == "hana"
def pat_or_call(hand):
    pat = {"kind": "discard", "cards": []}
    return pat if hand_state(hand).legal.discard else passive_action(hand)
hand = play_until(Table.objects.get(pk=%d), hana_draws, pat_or_call)
print(json.dumps(hand_state(hand).street))
"""

#: Whether an element's box covers another's (by more than a pixel's area).
COVERS = """([a, b]) => {
  const one = document.querySelector(a).getBoundingClientRect();
  const two = document.querySelector(b).getBoundingClientRect();
  const w = Math.min(one.right, two.right) - Math.max(one.left, two.left);
  const h = Math.min(one.bottom, two.bottom) - Math.max(one.top, two.top);
  return w > 1 && h > 1;
}"""
#: Whether the element is the one a click at its middle reaches.
ON_TOP = """sel => {
  const el = document.querySelector(sel), r = el.getBoundingClientRect();
  return el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
}"""
#: The seats (free ones included) the dealer's choice line covers.
LINE_COVERS = """() => {
  const line = document.querySelector('#table-board .game-line').getBoundingClientRect();
  return [...document.querySelectorAll('.seat')].filter((seat) => {
    const r = (seat.querySelector('.plate, .seat-free') || seat).getBoundingClientRect();
    return Math.min(r.right, line.right) - Math.max(r.left, line.left) > 1
      && Math.min(r.bottom, line.bottom) - Math.max(r.top, line.top) > 1;
  }).map((seat) => seat.id);
}"""
#: Counts the audio contexts the page makes (``window.audioContexts``).
COUNT_AUDIO = """
window.audioContexts = 0;
const Made = window.AudioContext;
window.AudioContext = class extends Made {
  constructor(...args) { super(...args); window.audioContexts += 1; }
};
"""


def log_in(browser, server, name, device):
    context = browser.new_context(**device)
    context.add_init_script(COUNT_AUDIO)
    page = context.new_page()
    page.goto(server.url + "/accounts/login/")
    page.fill("#id_username", name)
    page.fill("#id_password", steps.password_for(name))
    page.click("form button[type=submit]")
    page.wait_for_load_state()
    return page


def test_the_host_s_screens_at_1280x800_and_on_a_phone(browser, server):
    ARTIFACTS.mkdir(exist_ok=True)
    draw, holdem, closed, club = server.shell(SETUP)

    # 1280×800, no-limit hold'em: the drawer leaves the host's Bet/Raise in view, clickable
    page = log_in(browser, server, "hana", DESKTOP)
    steps.open_table(page, server.url, holdem)
    raise_button = "#table-actions form.act button.raise"
    page.wait_for_selector(raise_button)
    page.click("a.host-open")
    page.wait_for_selector(".host-panel form.change-settings")
    page.screenshot(path=str(ARTIFACTS / "layout-host-drawer-raise.png"))
    assert not page.evaluate(COVERS, [raise_button, "#hosting"])
    assert page.evaluate(ON_TOP, raise_button)

    # the draw game: hana to bet or raise before the draw
    steps.open_table(page, server.url, draw)
    page.wait_for_selector(raise_button)
    heading = page.inner_text("#table-heading")
    assert "Badugi" in heading and "bring-in" not in heading, heading
    keys = page.inner_text(".keys")
    assert all(key in keys for key in ("1–5", "D draw", "P stand pat")), keys
    # the first draw being made: the felt says so
    assert server.shell(TO_THE_FIRST_DRAW % draw) == "draw1"
    steps.open_table(page, server.url, draw)
    assert page.inner_text("#table-board .street-name") == "The first draw"

    # a closed game: its result first, on screen; no felt, no key hints
    steps.open_table(page, server.url, closed)
    page.wait_for_selector("#game-result")
    result = page.locator("#game-result .result-nets").bounding_box()
    assert result is not None and result["y"] + result["height"] <= 800, result
    assert not page.locator(".felt-wrap").is_visible()
    assert page.locator(".keys").count() == 0
    page.screenshot(path=str(ARTIFACTS / "layout-closed-game.png"))
    page.context.close()

    # a phone: no audio context before a tap (the player's turn at load asks for a sound)
    phone = log_in(browser, server, "hana", PHONE)
    warnings = []
    phone.on("console", lambda message: warnings.append(message.text))
    steps.open_table(phone, server.url, draw)
    phone.wait_for_selector("#table-actions form.act")
    phone.wait_for_timeout(1_000)  # signals.js looks for the turn every half second
    assert phone.evaluate("window.audioContexts") == 0
    assert not [text for text in warnings if "AudioContext" in text], warnings
    phone.tap("#table-heading")
    assert phone.evaluate("window.audioContexts") == 1
    # the dealer's choice line covers no seat, free or taken
    assert "Badugi" in phone.inner_text("#table-board .game-line")
    phone.screenshot(path=str(ARTIFACTS / "layout-phone-choice.png"))
    assert phone.evaluate(LINE_COVERS) == []

    # the club page: its cash game's settings within the screen
    phone.goto(f"{server.url}/clubs/{club}/")
    fieldset = phone.locator("#schedule-form fieldset.cash-settings")
    box = fieldset.bounding_box()
    width = phone.evaluate("() => document.documentElement.clientWidth")
    phone.screenshot(path=str(ARTIFACTS / "layout-phone-club.png"), full_page=True)
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, box
    card = phone.evaluate(
        "() => { const c = document.querySelector('#club');"
        " return [c.scrollWidth, c.clientWidth]; }"
    )
    assert card[0] <= card[1], card
    phone.context.close()
