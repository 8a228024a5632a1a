"""Issue 49's floor: a dealer's-choice orbit with the 2♣, a switch to no-limit hold'em from
Settings, and Set stack on the panel's number, in two browsers against a real daphne server.

hostess hosts a heads-up dealer's-choice game with bea (fixed decks, ``tests/browser/seeded``:
bea is dealt the 2♣ in the first hand). The button picks hold'em for the orbit; in its first
hand hostess folds and bea, winning uncontested, shows the 2♣: hostess sees it. After the
orbit hostess switches the game to no-limit hold'em from the panel's Settings (the stud
bring-in and bets of the dealer's-choice game, hidden for hold'em, no longer hold it back),
and sets bea's stack to 10 below the number her panel shows: exactly 10 chips move. Then
she removes bea, whose sit-down form counts the reseat wait down and comes when it ends.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser import steps
from tests.browser.conftest import ARTIFACTS, running_server

pytestmark = pytest.mark.browser

SEEDED = Path(__file__).parent / "seeded"
WAIT = 20_000  # ms: every wait is bounded

TABLE = """
import json
from tables.models import Player
from tables.services.hosting import table_create
t = table_create(host=Player.objects.get(user__username="hostess"), name="Choice night",
    private=False, game="dealers-choice", max_seats=6, small_bet=2, big_bet=4, bring_in=1,
    choice_games=["holdem/no-limit", "razz/fixed-limit"], choice_seconds=30)
print(json.dumps(t.pk))
"""
HOLE = """
import json
from tables.models import Hand
from tables.selectors.hands import hand_state, with_deck
hand = with_deck(Hand.objects.filter(table_id={table_id}, number={number})).get()
print(json.dumps({{s["name"]: [str(c) for c in cards]
    for s, cards in zip(hand.seats, hand_state(hand).hole)}}))
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    # hand 1 from seed 4955 (the big blind, seat 2, holds 2c Jd); the pause is the time to show
    with running_server(
        tmp_path_factory,
        PYTHONPATH=str(SEEDED),
        POKER_TEST_FIRST_SEED="4955",
        POKER_HAND_PAUSE_SECONDS="6",
        POKER_RESEAT_WAIT_SECONDS="10",  # the countdown after a removal, short
    ) as running:
        yield running


def table_row(server, table_id, column):
    return steps.db_rows(server, f"SELECT {column} FROM tables_table WHERE id=?", table_id)[0][0]


def finished(server, table_id) -> int:
    rows = steps.db_rows(
        server,
        "SELECT count(*) FROM tables_hand WHERE table_id=? AND status='finished'",
        table_id,
    )
    return rows[0][0]


def act_when_asked(page, buttons) -> None:
    """Click the first of ``buttons`` (selectors) the page offers now, if any."""
    for selector in buttons:
        button = page.locator(selector).first
        if button.count():
            with contextlib.suppress(Exception):
                button.click(timeout=1000)
            return


def test_a_choice_orbit_with_the_two_of_clubs_then_holdem_and_a_stack_set(server, browser):
    pages = {}
    for name in ("hostess", "bea"):
        page = browser.new_context(viewport={"width": 1280, "height": 1000}).new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        steps.sign_up(page, server.url, name)
        pages[name] = steps.count_frames(page)
    host, bea = pages["hostess"], pages["bea"]
    table_id = server.shell(TABLE)
    for page in (host, bea):  # hostess sits first: seat 1, the first button
        steps.open_table(page, server.url, table_id)
        steps.sit_down(page, 100)

    # the button picks hold'em for the orbit (asked again when a frame moved the choice, e.g.
    # to the other page as the second player sat down, between finding it and picking)
    for _ in range(5):
        chooser = steps.until(
            host,
            lambda: next((p for p in (host, bea) if p.locator("form.choose-game").count()), None),
            30,
            lambda: "nobody was asked to pick the game",
        )
        try:
            chooser.select_option(
                "form.choose-game select[name=game]", "holdem/no-limit", timeout=5_000
            )
            chooser.click("form.choose-game button.choose", timeout=5_000)
            break
        except PlaywrightTimeout:
            continue
    else:
        raise AssertionError("the game could not be picked")

    # hand 1: whoever does not hold the 2c folds; bea, who does, wins uncontested and shows it
    host.wait_for_selector("#table-seats[data-hand]:not([data-hand=''])", timeout=WAIT)
    holes = server.shell(HOLE.format(table_id=table_id, number=1))
    assert "2c" in holes["bea"], holes
    deadline = steps.deadline(60)
    while not bea.locator("form.show-cards button.show-card[value='2c']").count():
        assert time.monotonic() < deadline, "bea was never offered to show the 2c"
        seen = steps.frames_seen(bea)
        act_when_asked(host, ["form.act button.fold"])
        act_when_asked(bea, ["form.act button.check", "form.act button.call"])
        steps.next_frame(bea, seen)
    assert bea.locator("form.show-cards button.show-all").count() == 1  # "All": two to show
    bea.click("form.show-cards button.show-card[value='2c']")
    host.wait_for_selector("#table-log li:has-text('bea shows')", timeout=WAIT)
    assert host.locator("#table-seats [data-card='2c']").count() == 1
    assert not host.locator(f"#table-seats [data-card='{holes['bea'][1]}']").count()

    # hand 2 ends the orbit: the first to act folds
    steps.until(
        host,
        lambda: (
            finished(server, table_id) >= 2
            or act_when_asked(host, ["form.act button.fold"])
            or act_when_asked(bea, ["form.act button.fold"])
        ),
        60,
        lambda: "the orbit's second hand did not end",
    )

    # the host switches to no-limit hold'em from Settings (from the next hand, or now)
    settings = host.locator("form.change-settings")
    for _ in range(5):  # a live frame may replace the form between two steps: again
        settings.locator("select[name=game]").select_option("holdem")
        settings.locator("select[name=betting]").select_option("no-limit")
        if settings.locator("input[name=bring_in]").is_hidden():
            break
    answer = steps.host_answer(host, settings.locator("button[type=submit]"), WAIT)
    assert "From the next hand" in answer or "Changed" in answer, answer  # not "Nothing changed"
    steps.until(
        host,
        lambda: (
            table_row(server, table_id, "game") == "holdem"
            or act_when_asked(host, ["form.act button.fold"])
            or act_when_asked(bea, ["form.act button.fold"])
        ),
        60,
        lambda: "the game never became no-limit hold'em",
    )
    # said in a player's words (now: "The host set ...", or at the hand's end "From this hand")
    host.wait_for_selector('#table-log li.notice:has-text("No-limit Hold\'em 1/2")', timeout=WAIT)
    assert "holdem" not in host.inner_text("#table-log")

    # Set stack on the panel's number: exactly that change, now or when bea's hand ends
    row = host.locator(".host-players tr[data-player=bea]")
    for _ in range(5):  # typing holds the panel still; a refresh just before: read it again
        shown = int(row.locator("input[name=shown]").get_attribute("value"))
        assert row.locator("td").nth(2).inner_text().startswith(str(shown))  # the number shown
        row.locator("input[name=stack]").fill(str(shown - 10))
        if int(row.locator("input[name=shown]").get_attribute("value")) == shown:
            break
    # A refresh of the panel that comes while the host types leaves what they typed.
    host.evaluate(
        "url => htmx.ajax('GET', url, {source: '#hosting', target: '#hosting'})",
        f"/tables/{table_id}/hosting/",
    )
    assert row.locator("input[name=stack]").input_value() == str(shown - 10)
    answer = steps.host_answer(host, row.locator("form.correct button[type=submit]"), WAIT)
    assert f"bea's stack is now {shown - 10}" in answer or "changes by -10" in answer, answer
    host.screenshot(path=str(ARTIFACTS / "choice-switch-set-stack.png"), full_page=True)
    steps.until(
        host,
        lambda: (
            steps.db_rows(
                server,
                "SELECT amount FROM tables_ledgerentry e JOIN tables_player p ON p.id = "
                "e.player_id JOIN auth_user u ON u.id = p.user_id "
                "WHERE u.username='bea' AND e.kind='correction'",
            )
            or act_when_asked(host, ["form.act button.fold"])
            or act_when_asked(bea, ["form.act button.fold"])
        ),
        60,
        lambda: "the correction never applied",
    )
    corrections = steps.db_rows(
        server,
        "SELECT amount FROM tables_ledgerentry e JOIN tables_player p ON p.id = e.player_id "
        "JOIN auth_user u ON u.id = p.user_id WHERE u.username='bea' AND e.kind='correction'",
    )
    assert corrections == [(10,)], corrections  # 10 chips back to her bankroll, no more

    # the host removes bea: her form waits out the reseat wait in the open, counting down,
    # and comes when it ends, its buy-in at the chips she left with
    host.locator(".host-players tr[data-player=bea] button.remove-player").click()
    steps.until(
        bea,
        lambda: (
            bea.locator(".reseat-wait .countdown").count()
            or act_when_asked(host, ["form.act button.fold"])
            or act_when_asked(bea, ["form.act button.fold"])
        ),
        60,
        lambda: "bea was never shown the wait",
    )
    assert bea.locator("form.sit-down").is_hidden()
    bea.wait_for_function(
        "() => /^\\d+ seconds?$/.test(document.querySelector('.reseat-wait .countdown')"
        "?.textContent || '')",
        timeout=WAIT,
    )
    bea.wait_for_selector("form.sit-down", state="visible", timeout=WAIT)
    assert bea.locator(".reseat-wait").count() == 0
    ((left_with,),) = steps.db_rows(
        server,
        "SELECT amount FROM tables_ledgerentry e JOIN tables_player p ON p.id = e.player_id "
        "JOIN auth_user u ON u.id = p.user_id WHERE u.username='bea' AND e.kind='cash_out'",
    )
    assert left_with > 40  # above the table's least buy-in: the form starts there
    assert bea.input_value("form.sit-down input[name=buy_in]") == str(left_with)
    for page in (host, bea):
        page.context.close()
