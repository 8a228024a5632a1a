"""The room screen (issue 53) with what hold'em does not have, against a real daphne server
whose bots play on their own:

- a seven-seat stud table of bots (and two people sitting out): the seats' rows of cards,
  seven a seat by the last street, on the screen and over nothing else, at 1080p and 720p;
  no text under 28 px;
- a triple-draw table: the draw counts shown beside the seats, everything on the screen;
- a tournament table: the level moves on by itself on a screen that is never reloaded.

``tests/browser/test_room_screen.py`` has the hold'em hand, the hole-card checks and the
restart.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import ARTIFACTS, running_server
from tests.browser.test_room_screen import OFF_SCREEN, SMALL_TEXT

pytestmark = pytest.mark.browser

WAIT = 60_000  # ms: the bots play the hands that are waited for
# ms: until a hand reaches stud's last street or a draw (bots and the clock fold now and then)
SEVENTH_STREET = 180_000

# Bots in every seat but the two a table keeps for people; two people sit there and let the
# clock act for them (3 s, the least a table gives, and no time bank: a table of bots alone
# is not dealt).
BOT_TABLE = """
import json
from tables.models import Table
from tables.services import player_sign_up, seat_take, table_save
t = table_save(table=Table(name="{name}", game="{game}", betting="fixed-limit", {bets}
    max_seats={seats}, min_buy_in=40, max_buy_in=400, action_seconds=3, time_bank_seconds=0,
    bots_allowed=True, bot_seats={seats} - 2))
for number in range(2):
    player = player_sign_up(username=f"{game}-person-{{number}}", password="pw-Secret-1x")
    seat_take(table=t, player=player, buy_in=400, seat_number={seats} - 1 - number)
print(json.dumps(t.pk))
"""
STUD_BETS = "ante=1, bring_in=2, small_bet=4, big_bet=8,"
DRAW_BETS = "small_blind=2, big_blind=4, small_bet=4, big_bet=8,"

TOURNAMENT = """
import json, random
from tables.tournaments.models import Tournament
from tables.tournaments.services.create import tournament_create
from tables.tournaments.services.setup import tournament_start
from tables.tournaments.selectors import table_counts
from tables.services import player_sign_up
organiser = player_sign_up(username="organiser", password="pw-Organiser-1x")
levels = [{"small_blind": 10 * 2**n, "big_blind": 20 * 2**n, "hands": 1} for n in range(8)]
t = tournament_create(organiser=organiser, name="Level night", seats_per_table=4,
    starting_stack=5000, levels=levels, bot_entrants=4, action_seconds=60)
tournament_start(tournament=t, by=organiser, rng=random.Random(1))
print(json.dumps(sorted(table_counts(t))[0]))
"""

# The most cards a stud seat shows (its down and up cards), and the draw counts shown.
MOST_STUD_CARDS = (
    "() => Math.max(0, ...[...document.querySelectorAll('.seat .hole.stud')]"
    ".map(row => row.querySelectorAll('.pc').length))"
)
DRAW_COUNTS = "document.querySelectorAll('.seat .plate .drew').length"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_server(
        tmp_path_factory, POKER_HAND_PAUSE_SECONDS="1", POKER_BOT_DELAY="0.05,0.15"
    ) as running:
        yield running


def screens(browser, server, table_id):
    """A 1080p and a 720p screen, both open on the table from the start."""
    opened = []
    for width, height in ((1920, 1080), (1280, 720)):
        page = browser.new_context(viewport={"width": width, "height": height}).new_page()
        page.goto(f"{server.url}/tables/{table_id}/tv/")
        page.wait_for_selector("#conn[data-state=open]", timeout=WAIT)
        opened.append((width, height, page))
    return opened


# The down-cards face up on the screen at one moment (one look, so that no frame comes in
# between): none but those of a hand shown at the showdown (its plate says what it made) or
# of an all-in run-out (the seats face up: every live hand is shown).
DOWN_CARDS_SHOWN = """() => {
  const seats = document.querySelector('#table-seats');
  if (seats.dataset.faceUp) return [];
  return [...seats.querySelectorAll('.seat')]
    .filter(seat => !seat.querySelector('.made'))
    .flatMap(seat => [...seat.querySelectorAll('.down-cards .pc:not(.back)')])
    .map(card => seats.dataset.street + ' ' + card.outerHTML);
}"""


def test_a_seven_seat_stud_table_fits_the_screen_to_seventh_street(browser, server):
    table_id = server.shell(
        BOT_TABLE.format(name="Stud on the wall", game="stud", bets=STUD_BETS, seats=7)
    )
    for width, height, tv in screens(browser, server, table_id):
        # Seven cards at a seat: the last street.
        tv.wait_for_function(f"({MOST_STUD_CARDS})() === 7", timeout=SEVENTH_STREET)
        tv.screenshot(path=str(ARTIFACTS / f"room-screen-stud-{height}p.png"))
        # the five bots at least (a person the clock acted for too often may be stood up)
        assert tv.locator("#table-seats .seat:not(.empty)").count() >= 5
        assert tv.evaluate(OFF_SCREEN) == [], f"at {width}x{height}"
        if width == 1920:
            assert tv.evaluate(SMALL_TEXT) == []
        # no hole card: a down-card is a card back on the room screen until the showdown
        assert tv.evaluate(DOWN_CARDS_SHOWN) == []


def test_a_draw_table_shows_its_draw_counts_on_the_screen(browser, server):
    table_id = server.shell(
        BOT_TABLE.format(name="Draw on the wall", game="27-triple-draw", bets=DRAW_BETS, seats=6)
    )
    for width, height, tv in screens(browser, server, table_id):
        tv.wait_for_function(f"{DRAW_COUNTS} > 0", timeout=SEVENTH_STREET)
        tv.screenshot(path=str(ARTIFACTS / f"room-screen-draw-{height}p.png"))
        assert tv.evaluate(OFF_SCREEN) == [], f"at {width}x{height}"
        if width == 1920:
            assert tv.evaluate(SMALL_TEXT) == []


def test_the_level_moves_on_by_itself_on_a_screen_never_reloaded(browser, server):
    table_id = server.shell(TOURNAMENT)
    tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.goto(f"{server.url}/tables/{table_id}/tv/")
    tv.wait_for_selector("#tournament-level", timeout=WAIT)
    first = tv.inner_text("#tournament-level")
    assert "Level" in first
    # One hand a level, played by bots: the screen's level line follows without a reload.
    tv.wait_for_function(
        "first => { const l = document.querySelector('#tournament-level');"
        " return l && l.innerText !== first && /Level [2-9]/.test(l.innerText); }",
        arg=first,
        timeout=WAIT,
    )
    assert tv.evaluate("performance.getEntriesByType('navigation').length") == 1
    assert tv.evaluate(SMALL_TEXT) == []
