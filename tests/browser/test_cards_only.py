"""Issue 53, phones as card devices: the table page's "cards only" mode on a phone (390x844),
against a real daphne server whose decks are fixed (``tests/browser/seeded``).

alice sits in the room with her phone; bob plays from his own browser. alice switches to
cards only: her cards large and face down until she peeks (a button with aria-pressed), the
pot, her stack and her actions, and nothing else of the table (the room screen shows it).
She acts through the mode's buttons and the action reaches the table (the database and
bob's socket); the mode is remembered by her browser; she switches back. A draw game's draw
is picked in the mode; stud's up-cards stay face up beside the masked down-cards. axe-core
finds nothing; no other player's hidden card is in her page.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

import pytest

from tests.browser import steps
from tests.browser.conftest import ARTIFACTS, running_server

pytestmark = pytest.mark.browser

SEEDED = Path(__file__).parent / "seeded"
WAIT = 20_000  # ms: every wait is bounded
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

SEAT_THEM = """
import json
from tables.models import Player, Table
from tables.services import seat_take, table_save
t = table_save(table=Table(name="Room game {tag}", max_seats=6, action_seconds=120, {game}))
for number, name in enumerate(("alice-{tag}", "bob-{tag}")):
    seat_take(table=t, player=Player.objects.get(user__username=name), buy_in=200,
              seat_number=number)
print(json.dumps(t.pk))
"""
GAMES = {
    "holdem": 'game="holdem"',
    "draw": 'game="five-card-draw"',
    "stud": 'game="stud", betting="fixed-limit", ante=1, bring_in=2, small_bet=4, big_bet=8',
    "omaha": 'game="omaha", betting="pot-limit"',
}

#: Whatever the phone shows lies across its screen, none past its right edge (no sideways
#: scroll): the own cards, the plate, the pot and the action bar.
FITS = """() => document.documentElement.scrollWidth <= innerWidth
  && [...document.querySelectorAll('.seat.me .pc, .seat.me .plate, #table-pots, #table-actions')]
     .filter(e => e.checkVisibility()).every(e => e.getBoundingClientRect().right <= innerWidth)"""

#: Each seat's hole cards in the running hand, by name.
HOLES = """
import json
from tables.models import Hand
from tables.selectors.hands import hand_state
hand = Hand.objects.filter(table_id={table_id}).order_by("-number").first()
state = hand_state(hand)
print(json.dumps({{seat["name"]: [str(c) for c in state.hole[i]]
                  for i, seat in enumerate(hand.seats)}}))
"""

#: What a neighbour could read on the phone: the faces of the cards on screen, by place.
FACES = """() => {
  const shown = (el) => el.checkVisibility({visibilityProperty: true})
    && [...el.querySelectorAll('.r, .s')].some(s => s.checkVisibility({visibilityProperty: true}));
  const faces = (sel) => [...document.querySelectorAll(sel)].filter(shown)
    .map(c => c.dataset.card);
  return {hole: faces('.seat.me .hole:not(.stud) .pc, .seat.me .down-cards .pc'),
          up: faces('.seat.me .up-cards .pc'), draw: faces('form.act.draw .pc'),
          others: faces('.seat:not(.me) .pc'), board: faces('#table-board .board .pc')};
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    path = os.pathsep.join(filter(None, (str(SEEDED), os.environ.get("PYTHONPATH"))))
    with running_server(
        tmp_path_factory,
        PYTHONPATH=path,
        POKER_TEST_FIRST_SEED="5330",
        POKER_HAND_PAUSE_SECONDS="3",
    ) as running:
        yield running


def seated_pair(browser, server, game):
    """alice on a phone and bob on a laptop, seated at a new table of ``game``, both pages
    open and live."""
    alice = browser.new_context(**PHONE).new_page()
    bob = steps.count_frames(
        browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
    )
    steps.sign_up(alice, server.url, f"alice-{game}")
    steps.sign_up(bob, server.url, f"bob-{game}")
    table_id = server.shell(SEAT_THEM.format(game=GAMES[game], tag=game))
    for page in (alice, bob):
        steps.open_table(page, server.url, table_id)
    return alice, bob, table_id


def switch(page, on: bool) -> None:
    page.click("#cards-only-switch")
    page.wait_for_selector(f"#cards-only-switch[aria-pressed={'true' if on else 'false'}]")


def peek(page, on: bool) -> None:
    page.click("#peek-switch")
    page.wait_for_selector(f"#peek-switch[aria-pressed={'true' if on else 'false'}]")


def bob_plays_until(bob, done, limit=60.0) -> None:
    """bob checks, calls or stands pat whenever it is his turn, until ``done()``."""

    def step():
        if done():
            return True
        button = bob.locator(
            "form.act button.check, form.act button.call, form.act button.stand-pat"
        ).first
        with contextlib.suppress(Exception):  # not his turn, or the hand moved on
            button.click(timeout=300)
        return False

    steps.until(bob, step, limit, lambda: "the hand never came to alice")


def alices_actions(server, table_id, name):
    """Every action alice took at the table (kind, cards), from the database."""
    rows = steps.db_rows(
        server,
        "SELECT a.kind, a.cards, h.seats, a.seat FROM tables_handaction a"
        " JOIN tables_hand h ON a.hand_id = h.id WHERE h.table_id=? AND a.source='player'"
        " ORDER BY a.id",
        table_id,
    )
    return [
        (kind, cards)
        for kind, cards, seats, seat in rows
        if json.loads(seats)[seat]["name"] == name
    ]


def no_hidden_card_of(server, table_id, page, name, down=None) -> None:
    """None of ``name``'s hole cards (``down``: the first so many, stud's down-cards) is in
    ``page``."""
    holes = server.shell(HOLES.format(table_id=table_id))
    html = page.content()
    theirs = [card for card in holes[name][:down] if f'data-card="{card}"' in html]
    assert theirs == [], f"{name}'s hidden cards in the phone's page: {theirs}"


def test_cards_only_on_a_phone_holdem(browser, server):
    alice, bob, table_id = seated_pair(browser, server, "holdem")
    alice.wait_for_selector(".seat.me .hole .pc:not(.back)", timeout=WAIT)
    assert alice.locator("#peek-switch").is_hidden()  # the full table: no peek to make

    # Cards only: her two cards large and face down, the pot, nothing else of the table.
    switch(alice, on=True)
    assert alice.evaluate(FACES)["hole"] == []
    assert alice.get_attribute("#peek-switch", "aria-pressed") == "false"
    cards = alice.locator(".seat.me .hole .pc")
    assert cards.count() == 2 and all(
        (cards.nth(k).bounding_box() or {}).get("width", 0) >= 64 for k in range(2)
    )
    # the cards keep their words for a screen reader
    assert all(cards.nth(k).get_attribute("aria-label") for k in range(2))
    assert alice.locator("#table-pots").is_visible()
    assert alice.locator(".seat.me .plate .stack").is_visible()
    assert alice.evaluate(FITS)
    for elsewhere in (
        ".seat:not(.me)",
        "#table-board .board",
        "#table-log",
        ".site-header",
        "#table-controls",
    ):
        assert alice.locator(elsewhere).first.is_hidden(), elsewhere
    assert steps.axe_violations(alice) == []

    # Peek, and hide again.
    peek(alice, on=True)
    mine = alice.evaluate(FACES)["hole"]
    assert len(mine) == 2
    alice.screenshot(path=str(ARTIFACTS / "cards-only-peek.png"))
    assert steps.axe_violations(alice) == []
    peek(alice, on=False)
    assert alice.evaluate(FACES)["hole"] == []
    no_hidden_card_of(server, table_id, alice, "bob-holdem")
    assert alice.evaluate(FACES)["others"] == []

    # Remembered by her browser: a reload comes back to cards only, the cards face down.
    steps.open_table(alice, server.url, table_id)
    alice.wait_for_selector("#cards-only-switch[aria-pressed=true]")
    assert alice.evaluate(FACES)["hole"] == []
    assert alice.locator(".seat:not(.me)").first.is_hidden()

    # Her turn: she checks or calls with the mode's button, and the table has it.
    bob_plays_until(bob, lambda: alice.locator("form.act").count() > 0)
    alice.screenshot(path=str(ARTIFACTS / "cards-only-turn.png"))
    assert steps.axe_violations(alice) == []
    button = alice.locator("form.act button.check, form.act button.call").first
    assert button.is_visible()
    kind = button.get_attribute("value")
    seen = steps.frames_seen(bob)
    button.click()
    steps.until(
        bob,
        lambda: alices_actions(server, table_id, "alice-holdem"),
        30,
        lambda: "alice's action never reached the table",
    )
    assert alices_actions(server, table_id, "alice-holdem")[0] == (kind, "")
    steps.next_frame(bob, seen)  # bob's socket brings it: his log says so
    bob.wait_for_function(
        "w => [...document.querySelectorAll('#table-log li')].some(l => l.textContent.includes(w))",
        arg="alice-holdem " + ("checks" if kind == "check" else "calls"),
        timeout=WAIT,
    )

    # Her next turn: she peeks, then folds if she may (else checks), in the mode.
    bob_plays_until(bob, lambda: alice.locator("form.act").count() > 0)
    hand = alice.get_attribute("#table-seats", "data-hand")
    peek(alice, on=True)
    fold = alice.locator("form.act button.fold, form.act button.check").first
    kind = fold.get_attribute("value")
    fold.click()
    steps.until(
        bob,
        lambda: len(alices_actions(server, table_id, "alice-holdem")) >= 2,
        30,
        lambda: "alice's second action never reached the table",
    )
    assert alices_actions(server, table_id, "alice-holdem")[1][0] == kind

    # The next hand's cards come face down (she checks or calls on to it if she did not fold).
    def next_hand():
        if alice.get_attribute("#table-seats", "data-hand") not in (hand, ""):
            return True
        with contextlib.suppress(Exception):  # not her turn, or the hand moved on
            alice.locator("form.act button.check, form.act button.call").first.click(timeout=300)
        return False

    bob_plays_until(bob, next_hand)
    alice.wait_for_selector(".seat.me .hole .pc:not(.back)", timeout=WAIT)
    assert alice.get_attribute("#peek-switch", "aria-pressed") == "false"
    assert alice.evaluate(FACES)["hole"] == []

    # Back to the full table: the felt, the other seat, her cards face up.
    switch(alice, on=False)
    assert alice.locator(".seat:not(.me)").first.is_visible()
    assert alice.locator(".felt").is_visible() and alice.locator("#peek-switch").is_hidden()
    steps.open_table(alice, server.url, table_id)
    assert alice.get_attribute("#cards-only-switch", "aria-pressed") == "false"
    assert alice.locator(".seat:not(.me)").first.is_visible()


def test_a_draw_is_picked_in_cards_only(browser, server):
    alice, bob, table_id = seated_pair(browser, server, "draw")
    alice.wait_for_selector(".seat.me .hole .pc:not(.back)", timeout=WAIT)
    switch(alice, on=True)

    def alices_draw():
        """alice's draw is on her screen (she checks or calls before it, in the mode)."""
        if alice.locator("form.act.draw").count():
            return True
        with contextlib.suppress(Exception):  # not her turn, or the hand moved on
            alice.locator("form.act button.check, form.act button.call").first.click(timeout=300)
        return False

    bob_plays_until(bob, alices_draw, limit=90)
    # the draw's five cards are the big ones, face down until she peeks
    assert alice.locator(".seat.me .hole").is_hidden()
    faces = alice.evaluate(FACES)
    assert faces["draw"] == [] and faces["hole"] == []
    assert (
        alice.locator(".hand-words strong").evaluate("e => getComputedStyle(e).visibility")
        == "hidden"
    )
    # a card is picked face down as face up (a tap on its place), and shows so once she peeks
    first = alice.locator("form.act.draw .draw-card").first
    thrown = first.locator("input").get_attribute("value")
    first.click()
    assert alice.inner_text("form.act.draw .draw-count") == "1"
    peek(alice, on=True)
    assert len(alice.evaluate(FACES)["draw"]) == 5
    assert "thrown" in (first.get_attribute("class") or "")
    assert steps.axe_violations(alice) == []
    alice.screenshot(path=str(ARTIFACTS / "cards-only-draw.png"))
    assert alice.evaluate(FITS)
    alice.click("form.act.draw button.discard")
    steps.until(
        bob,
        lambda: any(
            kind == "discard" for kind, _ in alices_actions(server, table_id, "alice-draw")
        ),
        30,
        lambda: "alice's draw never reached the table",
    )
    draws = [
        cards for kind, cards in alices_actions(server, table_id, "alice-draw") if kind == "discard"
    ]
    assert draws == [thrown]
    no_hidden_card_of(server, table_id, alice, "bob-draw")


def test_stud_up_cards_stay_face_up_in_cards_only(browser, server):
    alice, bob, table_id = seated_pair(browser, server, "stud")
    alice.wait_for_selector(".seat.me .hole.stud .up-cards .pc", timeout=WAIT)
    switch(alice, on=True)
    faces = alice.evaluate(FACES)
    # her down-cards masked, her up-card (everyone sees it) face up
    assert faces["hole"] == [] and len(faces["up"]) == 1, faces
    assert alice.locator(".seat.me .down-cards .pc").count() == 2
    peek(alice, on=True)
    assert len(alice.evaluate(FACES)["hole"]) == 2
    assert steps.axe_violations(alice) == []
    alice.screenshot(path=str(ARTIFACTS / "cards-only-stud.png"))
    assert alice.evaluate(FITS)
    no_hidden_card_of(server, table_id, alice, "bob-stud", down=2)


def test_omaha_four_cards_in_a_row_in_cards_only(browser, server):
    alice, bob, table_id = seated_pair(browser, server, "omaha")
    alice.wait_for_selector(".seat.me .hole .pc:not(.back)", timeout=WAIT)
    switch(alice, on=True)
    assert alice.evaluate(FACES)["hole"] == []
    peek(alice, on=True)
    assert len(alice.evaluate(FACES)["hole"]) == 4
    tops = alice.eval_on_selector_all(
        ".seat.me .hole .pc", "cards => cards.map(c => Math.round(c.getBoundingClientRect().top))"
    )
    assert len(set(tops)) == 1, tops  # one row, each card as wide as a thumb can tell apart
    assert alice.locator(".seat.me .hole .pc").first.bounding_box()["width"] >= 64
    assert alice.evaluate(FITS)
    assert steps.axe_violations(alice) == []
    alice.screenshot(path=str(ARTIFACTS / "cards-only-omaha.png"))
    no_hidden_card_of(server, table_id, alice, "bob-omaha")
