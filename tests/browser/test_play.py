"""Three people play in three browsers against a real daphne server with bots.

They sign up, sit down, play complete hands (including an all-in with a side pot and a
showdown), each seeing only their own cards; one reloads mid-hand and carries on; one stops
acting, times out and is sat out; afterwards every chip is accounted for. Screenshots of the
table go to ``test-artifacts/`` and are checked through the DOM they were taken of.
"""

from __future__ import annotations

import json
import time

import pytest

from tests.browser import steps
from tests.browser.conftest import ARTIFACTS

pytestmark = pytest.mark.browser

SETUP = """
import json
from tables.models import Table
from tables.services import table_save
t = table_save(table=Table(name="Browser table", max_seats=6, bots_allowed=True, bot_seats=2,
    action_seconds=6, time_bank_seconds=0, min_buy_in=20, max_buy_in=400))
print(json.dumps(t.pk))
"""
CHIPS = """
import json
from django.db import transaction
from tables.selectors.chips import chips_total
with transaction.atomic():
    print(json.dumps(chips_total()))
"""
BUY_IN = {"alice": 40, "bob": 150, "carol": 300}
#: A bound on the play, not a measure: a showdown with a side pot comes by chance (the server
#: shuffles at random), fewer hands fit a minute on a busy machine, and a pass ends sooner.
PLAY_SECONDS = 420


def finished_results(server, table_id):
    rows = steps.db_rows(
        server, "SELECT result FROM tables_hand WHERE table_id=? AND status='finished'", table_id
    )
    return [json.loads(r[0]) for r in rows]


def sign_up_and_sit(browser, server, table_id, name):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    steps.sign_up(page, server.url, name)
    steps.open_table(page, server.url, table_id)
    sit(page, name)
    return page


def sit(page, name):
    # the clock seats the bots and the others sit meanwhile: the form can be a frame behind
    steps.sit_down(page, BUY_IN[name])


def check_only_own_cards(page, name):
    """Nobody else's face-up card while a hand runs (but in an all-in run-out, where the
    seats say so); own cards face up when dealt in."""
    state = page.evaluate("""() => {
        const seats = document.querySelector('#table-seats');
        return {
          street: seats.dataset.street,
          faceUp: seats.dataset.faceUp === '1',
          others: [...document.querySelectorAll('.seat:not(.me) .hole .pc:not(.back)')]
                    .map(c => c.dataset.card),
          mine: [...document.querySelectorAll('.seat.me .hole .pc')]
                    .map(c => c.dataset.card || 'back'),
        };
    }""")
    if state["street"] and state["street"] != "over":
        if not state["faceUp"]:  # all in, nobody can bet: every live hand is face up
            assert state["others"] == [], (name, state)
        assert "back" not in state["mine"], (name, state)
    return state


def act(page, name, *, idle=False):
    """Act if it is this player's turn: alice shoves, carol raises bets, bob calls."""
    if idle:
        return False
    sit_in = page.locator("#table-controls button.sit-in")
    if sit_in.count():  # their clock ran out while the others were looked at: back in
        sit_in.click()
        return False
    form = page.locator("form.act")
    if form.count() == 0:
        return False
    version = steps.table_version(page)
    raise_button = page.locator("form.act button.raise")
    call_button = page.locator("form.act button.call")
    try:
        if name == "alice" and raise_button.count():
            page.locator("form.act button.size", has_text="All-in").click()
            raise_button.click()
        elif name == "carol" and raise_button.count() and call_button.count():
            raise_button.click()  # a min-raise over a bet: builds a side pot behind an all-in
        else:
            page.keyboard.press("c")  # check or call, by keyboard shortcut
        steps.next_version(page, version, timeout=steps.ms(10_000))
    except Exception:  # the table moved on under the click (e.g. the hand ended): look again
        return False
    return True


def seated_at_the_same_moment(pages) -> bool:
    """Every page shows the same table state (``data-version`` of ``#table-actions``), a hand
    that is over, and its
    player in a seat (``.seat.me``, no sit-down form).

    Seats change only when a hand ends (a busted player's seat is freed then), so once every
    page has caught up with the same "over" state nobody can lose their seat before the next
    hand is played out: the screenshots taken now all show a seated player.
    """
    seen = [
        p.evaluate("""() => {
        const seats = document.querySelector('#table-seats');
        const actions = document.querySelector('#table-actions');
        return {
          version: actions ? actions.dataset.version : null,
          street: seats ? seats.dataset.street : null,
          me: document.querySelectorAll('.seat.me').length,
          sitDown: document.querySelectorAll('form.sit-down').length,
        };
    }""")
        for p in pages.values()
    ]
    return (
        len({s["version"] for s in seen}) == 1
        and seen[0]["version"] is not None
        and all(s["street"] == "over" and s["me"] == 1 and s["sitDown"] == 0 for s in seen)
    )


def screenshot_checked(page, name):
    """Save the table and check the DOM it shows holds what a player needs."""
    path = ARTIFACTS / f"table-{name}.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 10_000
    facts = page.evaluate("""() => ({
        seats: document.querySelectorAll('.seat').length,
        named: document.querySelectorAll('.seat .plate .name').length,
        me: document.querySelectorAll('.seat.me .stack').length,
        board: !!document.querySelector('#table-board'),
        pots: document.querySelectorAll('#table-board .pot').length,
        log: document.querySelectorAll('#table-log .log li').length,
        controls: !!document.querySelector('#table-controls button, #table-controls form'),
        // Where the seats are drawn (the stylesheet places them): centres relative to the felt.
        felt: (() => { const r = document.querySelector('.felt').getBoundingClientRect();
                       return {x: r.x + r.width / 2, y: r.y + r.height / 2,
                               w: r.width, h: r.height}; })(),
        centres: [...document.querySelectorAll('.seat')].map(s => {
            const r = s.getBoundingClientRect();
            return {me: s.classList.contains('me'),
                    x: r.x + r.width / 2, y: r.y + r.height / 2}; }),
    })""")
    assert facts["seats"] == 6 and facts["named"] >= 4 and facts["me"] == 1, facts
    # The player's own seat is at the bottom middle of the oval; the others are spread round it.
    felt, centres = facts["felt"], facts["centres"]
    mine = next(c for c in centres if c["me"])
    assert (
        abs(mine["x"] - felt["x"]) < felt["w"] * 0.05 and mine["y"] > felt["y"] + felt["h"] * 0.3
    ), facts
    assert all(c["y"] < mine["y"] - 1 for c in centres if not c["me"]), facts
    spots = {(round(c["x"]), round(c["y"])) for c in centres}
    assert len(spots) == 6, facts  # no two seats drawn on the same spot
    assert facts["board"] and facts["log"] >= 1 and facts["controls"], facts
    return facts


def test_three_players_play_with_bots_reload_and_time_out(server, browser):
    table_id = server.shell(SETUP)
    pages = {n: sign_up_and_sit(browser, server, table_id, n) for n in ("alice", "bob", "carol")}
    reloaded = False
    side_pot_showdown = False
    shots = False
    carol_idle = False
    deadline = steps.deadline(PLAY_SECONDS)
    while time.monotonic() < deadline:
        results = finished_results(server, table_id)
        side_pot_showdown = any(len(r["awards"]) > 1 and r["shown"] for r in results)
        if side_pot_showdown and len(results) >= 3:
            carol_idle = True  # now carol stops acting: the clock must sit her out
            if (
                shots
                and reloaded
                and pages["carol"].locator("#table-controls button.sit-in").count()
            ):
                break
        for name, page in pages.items():
            state = check_only_own_cards(page, name)
            if page.locator("form.sit-down").count():  # busted: buy in again
                sit(page, name)
                continue
            if (
                not reloaded
                and name == "bob"
                and results
                and state["street"] not in ("", "over")
                and state["mine"]
            ):
                hand = page.get_attribute("#table-seats", "data-hand")
                page.reload()
                page.wait_for_selector("#conn[data-state=open]")
                after = check_only_own_cards(page, name)
                if page.get_attribute("#table-seats", "data-hand") == hand:
                    assert after["mine"] == state["mine"]  # the same live hand, same cards
                reloaded = True
            # Screenshots at the end of a hand, once every page shows it and everyone is still
            # seated (a player who just busted has no seat until she buys in again: try later).
            if (
                state["street"] == "over"
                and results
                and not shots
                and seated_at_the_same_moment(pages)
            ):
                for n, p in pages.items():
                    screenshot_checked(p, n)
                shots = True
            act(page, name, idle=(carol_idle and name == "carol"))
    else:
        pytest.fail(
            f"not done in {PLAY_SECONDS}s: side pot showdown {side_pot_showdown}, "
            f"reloaded {reloaded}, screenshots {shots}, carol idle {carol_idle}"
        )
    assert reloaded and shots
    # carol timed out: the clock acted for her and sat her out; she comes back
    carol_id = steps.db_rows(
        server,
        "SELECT p.id FROM tables_player p JOIN auth_user u "
        "ON u.id = p.user_id WHERE u.username='carol'",
    )[0][0]
    timeouts = steps.db_rows(
        server,
        "SELECT COUNT(*) FROM tables_handaction a JOIN tables_hand h ON "
        "h.id = a.hand_id WHERE a.source='timeout' AND h.table_id=?",
        table_id,
    )
    assert timeouts[0][0] >= 1
    sitting_out = "SELECT sitting_out FROM tables_seat WHERE player_id=?"
    assert steps.db_rows(server, sitting_out, carol_id)[0][0] == 1
    pages["carol"].click("#table-controls button.sit-in")
    pages["carol"].wait_for_selector("#table-controls button.sit-out")
    # a phone-sized screenshot too
    pages["bob"].set_viewport_size({"width": 390, "height": 844})
    pages["bob"].screenshot(path=str(ARTIFACTS / "table-bob-mobile.png"), full_page=True)
    assert pages["bob"].evaluate(
        "() => document.querySelector('.felt').getBoundingClientRect().width <= 390"
    )
    # every chip is accounted for: bankrolls + stacks + chips in the running hand == grants
    totals = server.shell(CHIPS)
    assert totals["bankrolls"] + totals["stacks"] + totals["in_hands"] == totals["granted"], totals
    for page in pages.values():
        page.context.close()
