"""Issue 20's games in the browser, against a real daphne server: for each of Omaha hi-lo,
stud, stud hi-lo and razz a host starts the game from the picker (the form shows the
settings that apply: stud's bring-in and bets, no blinds), a friend joins by the invite link,
both sit down and play by clicking until a hand reaches a showdown. The screens show stud's
up-cards to both players and each one's own down-cards; the showdown shows the pots (a hi-lo
pot's halves). Screenshots go to ``test-artifacts/games-*.png``.
"""

from __future__ import annotations

import contextlib
import json
import re
import time

import pytest

from tests.browser import steps
from tests.browser.conftest import ARTIFACTS, running_server

pytestmark = pytest.mark.browser

#: Each game: what the form gets beyond the game itself.
GAMES = {
    "omaha-hilo": {"#id_betting": "pot-limit"},
    "stud": {"#id_bring_in": "2", "#id_small_bet": "5"},
    "stud-hilo": {"#id_bring_in": "2", "#id_small_bet": "5"},
    "razz": {"#id_bring_in": "1", "#id_small_bet": "4"},
}
#: Long enough between hands for the screens to be looked at after a showdown.
PAUSE = "8"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_server(tmp_path_factory, POKER_HAND_PAUSE_SECONDS=PAUSE) as running:
        yield running


def new_page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    return steps.count_frames(context.new_page())


def sign_up(page, server, name):
    # not like the name: long names fail Django's similarity check with the usual password
    steps.sign_up(page, server.url, name, password="Felt-Chips-4821!")


def showdowns(server, table_id) -> list[int]:
    """The finished hands of the table that reached a showdown (hands were shown)."""
    rows = steps.db_rows(
        server,
        "SELECT number, result FROM tables_hand WHERE table_id=? AND status='finished'",
        table_id,
    )
    return [number for number, result in rows if json.loads(result or "{}").get("shown")]


def click_check_or_call(pages) -> None:
    for page in pages:
        button = page.locator("form.act button.check, form.act button.call").first
        with contextlib.suppress(Exception):  # not this player's turn, or the hand moved on
            button.wait_for(state="visible", timeout=150)
            button.click(timeout=2000)


#: A stud table on a page, read at once: whether the hand's pots were awarded, the face-up
#: down-cards of the viewer's seat, and the other seat's face-up up-cards, face-up down-cards
#: and down-cards shown as backs; the board's text.
STUD_SEATS_ON_PAGE = """() => {
    const other = document.querySelector('.seat:not(.me) .hole.stud');
    const count = (root, selector) => root ? root.querySelectorAll(selector).length : 0;
    return [
        count(document, '#table-board .pot.awarded'),
        count(document, '.seat.me .hole.stud .down-cards .pc[data-card]'),
        count(other, '.up-cards .pc[data-card]'),
        count(other, '.down-cards .pc[data-card]'),
        count(other, '.down-cards .pc.back'),
        document.querySelector('#table-board')?.innerText || '',
    ];
}"""


@pytest.mark.parametrize("game", list(GAMES))
def test_two_players_play_a_new_game_to_a_showdown(server, browser, game):
    ARTIFACTS.mkdir(exist_ok=True)
    stud = game != "omaha-hilo"
    host = new_page(browser)
    sign_up(host, server, f"host-{game}")
    host.goto(server.url + "/tables/new/")
    host.fill("#id_name", f"{game} night")
    host.select_option("#id_game", game)
    # the picker shows what applies to the game: stud has a bring-in, no blinds
    assert host.is_visible("#id_bring_in") == stud
    assert host.is_visible("#id_big_blind") != stud
    assert host.is_visible("#id_straddle") != stud
    assert host.is_visible("#id_run_it_twice") != stud  # run-outs and bomb pots: flop games
    assert host.is_visible("#id_bomb_pot_ante") != stud
    if stud:
        assert host.input_value("#id_betting") == "fixed-limit"
        assert host.input_value("#id_max_seats") == "8", "stud seats at most 8"
    for selector, value in GAMES[game].items():
        if selector == "#id_betting":
            host.select_option(selector, value)
        else:
            host.fill(selector, value)
    host.screenshot(path=str(ARTIFACTS / f"games-{game}-form.png"), full_page=True)
    host.click("form.new-game button[type=submit]")
    host.wait_for_selector("#conn[data-state=open]")
    table_id = int(host.url.rstrip("/").split("/")[-1])
    invite = host.input_value(".host-panel input.invite-url")
    friend = new_page(browser)
    sign_up(friend, server, f"friend-{game}")
    friend.goto(invite)
    friend.wait_for_selector("#conn[data-state=open]")
    pages = [host, friend]
    for page in pages:
        steps.sit_down(page, 100)  # the friend's form can be a frame behind the host's seat

    saw_up_cards = False
    deadline = steps.deadline(180)
    while not showdowns(server, table_id):
        assert time.monotonic() < deadline, "no showdown in time"
        if stud:
            # while the hand is played (its pots not awarded: the showdown turns the down-cards
            # up), every seat's up-cards face up for both; my own down-cards face up, the
            # other's down-cards as backs, never faces: read at once, and at every look
            awarded, mine, others_up, others_down, others_backs, board = host.evaluate(
                STUD_SEATS_ON_PAGE
            )
            if not awarded and mine and others_up:
                assert others_down == 0, "the other player's down-cards were shown face up"
                assert others_backs >= 2, others_backs
                if not saw_up_cards:
                    assert "street" in board, board
                    host.screenshot(path=str(ARTIFACTS / f"games-{game}-play.png"), full_page=True)
                    saw_up_cards = True
        click_check_or_call(pages)
    assert saw_up_cards or not stud, "the stud screens never showed up-cards"
    # the showdown on screen (the next hand waits PAUSE seconds): the pots and who won them
    host.wait_for_selector(".pot.awarded", timeout=steps.ms(15_000))
    board = host.inner_text("#table-board")
    log = host.inner_text("#table-log")
    if game in ("omaha-hilo", "stud-hilo"):
        assert "· high" in board, board  # "· high" and "· low", or "· high, no low"
        assert "for high" in log or "(no low)" in log, log
    if game == "razz":
        # razz names the winning low: "8-6-4-3-2 low", or a paired one with the low's
        # kickers, "Pair of Aces (T-7-3)" (a high hand's name has no kickers in brackets)
        assert re.search(r" low\b|\([2-9TJQKA](-[2-9TJQKA])*\)", board), board
    for name, page in (("host", host), ("friend", friend)):
        page.screenshot(path=str(ARTIFACTS / f"games-{game}-showdown-{name}.png"), full_page=True)
    for page in pages:
        page.context.close()


# --- issue 30: dealer's choice with a triple-draw hand, and a HORSE rotation ------------------
@pytest.fixture(scope="module")
def quick_server(tmp_path_factory):
    """A server that deals the next hand soon after one ends (the mixed games' tests play
    several hands)."""
    with running_server(tmp_path_factory, POKER_HAND_PAUSE_SECONDS="1") as running:
        yield running


def start_game(server, browser, names, game, fields, boxes=()):
    """The first of ``names`` starts ``game`` from the form (``fields``: selector -> value;
    ``boxes``: check boxes to tick), the others join by the invite; all sit down. Returns the
    pages in seat order and the table's id."""
    host = new_page(browser)
    sign_up(host, server, names[0])
    host.goto(server.url + "/tables/new/")
    host.fill("#id_name", f"{game} night")
    host.select_option("#id_game", game)
    for selector, value in fields.items():
        host.fill(selector, value)
    for box in boxes:
        host.check(box)
    host.click("form.new-game button[type=submit]")
    host.wait_for_selector("#conn[data-state=open]")
    table_id = int(host.url.rstrip("/").split("/")[-1])
    invite = host.input_value(".host-panel input.invite-url")
    pages = [host]
    for name in names[1:]:
        page = new_page(browser)
        sign_up(page, server, name)
        page.goto(invite)
        page.wait_for_selector("#conn[data-state=open]")
        pages.append(page)
    for page in pages:
        steps.sit_down(page, 100)
    return pages, table_id


def hands_of(server, table_id):
    rows = steps.db_rows(
        server,
        "SELECT number, status, config FROM tables_hand WHERE table_id=? ORDER BY number",
        table_id,
    )
    return [(number, status, json.loads(config)) for number, status, config in rows]


def click_first(page, selectors, timeout=100) -> bool:
    for selector in selectors:
        button = page.locator(selector).first
        with contextlib.suppress(Exception):
            button.wait_for(state="visible", timeout=timeout)
            button.click(timeout=1000)
            return True
    return False


HAND_ON_PAGE = """() => [
    document.querySelector('#table-board .hand-no')?.textContent || '',
    document.querySelectorAll('#table-board .pot.awarded').length,
    [...document.querySelectorAll('[data-card]')].map(e => e.dataset.card),
]"""


def first_hand_on_page(page) -> tuple[bool, bool, set[str]]:
    """Whether ``page`` still shows the first hand, whether its pots were awarded (the
    showdown), and every face-up card on it: read at once, so that a frame of the next hand
    (dealt from a fresh deck, where a card thrown away in the first may come back) is never
    mistaken for the first hand's."""
    hand, awarded, cards = page.evaluate(HAND_ON_PAGE)
    return re.match(r"\s*Hand #1\b", hand) is not None, bool(awarded), set(cards)


def test_a_dealers_choice_orbit_with_a_triple_draw_hand(quick_server, browser):
    server = quick_server
    names = ["dc-host", "dc-bea", "dc-cy"]
    pages, table_id = start_game(
        server,
        browser,
        names,
        "dealers-choice",
        {"#id_small_bet": "2"},
        boxes=[
            "input[name=choice_games][value='27-triple-draw/fixed-limit']",
            "input[name=choice_games][value='holdem/no-limit']",
        ],
    )
    # the next button picks the orbit's game on their page
    chooser = steps.until(
        pages[0],
        lambda: next((p for p in pages if p.locator("form.choose-game").count()), None),
        30,
        lambda: "nobody was asked to pick the game",
    )
    assert "is picking the game" in pages[1 if chooser is pages[0] else 0].inner_text(
        "#table-board"
    )
    # the picker counts down the time left to pick
    chooser.wait_for_function(
        "() => /^\\d+s$/.test(document.querySelector('form.choose-game .countdown')?.textContent)",
        timeout=steps.ms(10_000),
    )
    chooser.select_option("form.choose-game select[name=game]", "27-triple-draw/fixed-limit")
    chooser.click("form.choose-game button.choose")
    pages[0].wait_for_selector("#table-board .game-line:has-text('2-7 Triple Draw')")

    # the first hand: check and call to each draw; the first to draw throws two cards away
    # (clicked), the others stand pat (key P); nobody else ever sees the two or what came
    drawer, thrown, held, dealt_to_drawer = None, [], set(), set()
    looked = 0  # how often another's page was looked at in the first hand, after the draw
    deadline = steps.deadline(240)  # a bound: a slow machine plays slowly
    while not any(status == "finished" for _, status, _ in hands_of(server, table_id)):
        assert time.monotonic() < deadline, "the triple-draw hand did not finish"
        seen = steps.frames_seen(pages[0])
        for page in pages:
            if page.locator("form.act.draw").count():
                if drawer is None:
                    drawer = page
                    cards = page.locator("form.act.draw .draw-card")
                    thrown = [cards.nth(i).locator("input").get_attribute("value") for i in (0, 1)]
                    cards.nth(0).click()
                    page.keyboard.press("2")  # the second card by its key
                    assert page.inner_text("form.act.draw .draw-count") == "2"
                    held = {
                        c.get_attribute("value") for c in page.locator("input[name=cards]").all()
                    }
                    page.click("form.act.draw button.discard")
                    page.wait_for_selector(".seat.me .drew:has-text('draws 2')")
                else:
                    page.keyboard.press("p")
            else:
                click_first(page, ["form.act button.check", "form.act button.call"])
        if drawer is not None and not dealt_to_drawer:
            mine = set(
                drawer.eval_on_selector_all(
                    ".seat.me .hole .pc[data-card]", "els => els.map(e => e.dataset.card)"
                )
            )
            if len(mine) == 5:  # the draw was dealt: two new cards for the two thrown away
                dealt_to_drawer = mine - held
                assert len(dealt_to_drawer) == 2 and not mine & set(thrown)
        if drawer is not None and dealt_to_drawer:
            for other in (p for p in pages if p is not drawer):
                first_hand, shown, cards_seen = first_hand_on_page(other)
                if not first_hand:  # the next hand is dealt: its cards come from a new deck
                    continue
                looked += 1
                assert not cards_seen & set(thrown), "another player saw the discards"
                assert shown or not cards_seen & dealt_to_drawer, "another saw the cards drawn"
        steps.next_frame(pages[0], seen)  # what was clicked, or the clock, changes the table
    assert drawer is not None and dealt_to_drawer, "nobody drew"
    assert looked, "no other page was looked at after the draw"
    discards = steps.db_rows(
        server,
        "SELECT cards FROM tables_handaction WHERE kind='discard' AND cards != ''",
    )
    assert ["".join(thrown)] in [list(row) for row in discards]
    # the hand's history says who drew and who stood pat (the table's own log is the next
    # hand's once it is dealt, which a busy machine may do before the page is looked at)
    history = pages[0].context.new_page()
    history.goto(f"{server.url}/tables/{table_id}/hands/1/")
    told = history.text_content("body") or ""
    assert "draws 2" in told and "stands pat" in told, told
    history.close()

    # the rest of the orbit: everyone folds what they can; then the next button picks
    deadline = steps.deadline(240)  # a bound: a slow machine plays slowly
    while len(hands_of(server, table_id)) < 3 or hands_of(server, table_id)[-1][1] == "running":
        assert time.monotonic() < deadline, "the orbit did not end"
        seen = steps.frames_seen(pages[0])
        for page in pages:
            if page.locator("form.act.draw").count():
                page.keyboard.press("p")
            else:
                click_first(page, ["form.act button.fold", "form.act button.check"])
        steps.next_frame(pages[0], seen)
    games = [config["game"] for _, _, config in hands_of(server, table_id)]
    assert games == ["27-triple-draw"] * 3, games
    second = steps.until(
        pages[0],
        lambda: next((p for p in pages if p.locator("form.choose-game").count()), None),
        30,
        lambda: "the next button was not asked to pick",
    )
    assert second is not chooser, "the button moved on: the next player picks"
    second.select_option("form.choose-game select[name=game]", "holdem/no-limit")
    second.click("form.choose-game button.choose")
    steps.until(
        pages[0],
        lambda: len(hands_of(server, table_id)) >= 4,
        20,
        lambda: "the chosen game was not dealt",
    )
    assert hands_of(server, table_id)[3][2]["game"] == "holdem"
    pages[0].screenshot(path=str(ARTIFACTS / "games-dealers-choice.png"), full_page=True)
    for page in pages:
        page.context.close()


def test_a_horse_rotation_changes_game_on_schedule(quick_server, browser):
    server = quick_server
    pages, table_id = start_game(
        server,
        browser,
        ["horse-host", "horse-bo"],
        "horse",
        {"#id_small_bet": "2", "#id_bring_in": "1", "#id_rotation_hands": "1"},
    )
    lines = set()
    deadline = steps.deadline(180)  # a bound, not a measure: four hands on a busy machine
    while len(hands_of(server, table_id)) < 4:
        if time.monotonic() > deadline:
            pages[0].screenshot(path=str(ARTIFACTS / "games-horse-stuck.png"), full_page=True)
            raise AssertionError(f"the rotation stopped: {hands_of(server, table_id)}")
        with contextlib.suppress(Exception):
            lines.add(pages[0].inner_text("#table-board .game-line", timeout=200))
        for page in pages:
            # fold where one may, else check; a stud bring-in is posted by calling
            moves = ["form.act button.fold", "form.act button.check", "form.act button.call"]
            click_first(page, moves, timeout=50)
    games = [config["game"] for _, _, config in hands_of(server, table_id)]
    assert games[:4] == ["holdem", "omaha-hilo", "razz", "stud"], games
    assert any("next: Fixed-limit Omaha Hi/Lo" in line for line in lines), lines
    assert any(line.startswith("HORSE: Fixed-limit Razz") for line in lines), lines
    for page in pages:
        page.context.close()
