"""A club in three browsers against a real daphne server: alice creates a club that asks for
approval, bob and carol join by its invitation link and alice approves them, alice opens a
season (the square-root rule) and schedules a fixed-hands tournament a few seconds ahead; the
three register, it starts by itself at its time (the croupier), bots and the three play it out
by clicking, and the club page's standings show each one's points by the season's rule. Every
chip is accounted for."""

from __future__ import annotations

import contextlib
import math
import time
from datetime import UTC, datetime, timedelta

import pytest

from tests.browser import steps
from tests.browser.conftest import running_server
from tests.browser.test_tournament import CHIPS, SETUP, logged_in_page, status_of

pytestmark = pytest.mark.browser

PEOPLE = ("alice", "bob", "carol")
#: Seconds ahead the tournament is scheduled: enough for three registrations on a busy machine.
AHEAD = 30


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """Short pauses between hands and quick bots: a 3-hand tournament ends fast, and what is
    checked (places, points, chips) does not depend on the pace."""
    with running_server(
        tmp_path_factory, POKER_HAND_PAUSE_SECONDS="1", POKER_BOT_DELAY="0.05,0.15"
    ) as running:
        yield running


def play_a_little(pages):
    for page in pages:
        button = page.locator("form.act button.check, form.act button.call").first
        with contextlib.suppress(Exception):
            button.wait_for(state="visible", timeout=200)
            button.click(timeout=2000)


def places_of(server, tournament_id) -> tuple[dict[str, int], int]:
    rows = steps.db_rows(
        server,
        "SELECT u.username, e.place FROM tournaments_entry e"
        " JOIN tables_player p ON p.id = e.player_id"
        " JOIN auth_user u ON u.id = p.user_id WHERE e.tournament_id=?",
        tournament_id,
    )
    ((entrants,),) = steps.db_rows(
        server, "SELECT COUNT(*) FROM tournaments_entry WHERE tournament_id=?", tournament_id
    )
    return dict(rows), entrants


def test_a_club_night_from_invitation_to_standings(server, browser):
    server.shell(SETUP)
    pages = {name: logged_in_page(browser, server, name) for name in PEOPLE}
    alice = pages["alice"]

    alice.goto(server.url + "/clubs/")
    alice.fill("#club-create input[name=name]", "Thursday Club")
    alice.click("#club-create button[type=submit]")
    alice.wait_for_selector("#invite-url")
    invite = alice.inner_text("#invite-url")
    club_url = alice.url

    for name in ("bob", "carol"):
        page = pages[name]
        page.goto(invite)
        page.click("#club-join button[type=submit]")
        page.wait_for_selector("#join-pending")
    alice.goto(club_url)
    for name in ("bob", "carol"):
        alice.click(f"#members li[data-player={name}] button.approve")
        alice.wait_for_load_state()
    for name in ("bob", "carol"):
        pages[name].goto(club_url)
        pages[name].wait_for_selector("#club")

    today = datetime.now(UTC).date()
    alice.fill("#season-form input[name=name]", "Autumn")
    alice.fill("#season-form input[name=starts_on]", today.isoformat())
    alice.fill("#season-form input[name=ends_on]", (today + timedelta(days=30)).isoformat())
    alice.click("#season-form button[type=submit]")
    alice.wait_for_selector("#standings")

    # the server's time zone is UTC; AHEAD is for a usual machine (the registrations come first)
    starts = datetime.now(UTC) + timedelta(seconds=steps.bound(AHEAD))
    alice.fill("#schedule-form input[name=name]", "Club cup")
    alice.fill("#schedule-form input[name=starts_at]", starts.strftime("%Y-%m-%dT%H:%M:%S"))
    alice.select_option("#schedule-form select[name=structure]", "regular")
    alice.fill("#schedule-form input[name=hands]", "3")
    alice.click("#schedule-form button[type=submit]")
    alice.wait_for_selector("#scheduled li:text('Club cup')")
    link = alice.locator("#club-games a:text('Club cup')")
    tournament_url = server.url + link.get_attribute("href")
    tournament_id = int(tournament_url.rstrip("/").split("/")[-1])

    for page in pages.values():
        page.goto(tournament_url)
        page.click("#register")
        page.wait_for_selector("#you-are-in")
    assert status_of(server, tournament_id) == "registering"

    deadline = steps.deadline(180)  # a bound: it starts by itself AHEAD seconds on
    while status_of(server, tournament_id) == "registering":
        assert time.monotonic() < deadline, "the scheduled tournament did not start"
        alice.wait_for_timeout(500)  # a look twice a second: reloading without a pause
        alice.goto(tournament_url)  # kept Chromium and the server busy for the half-minute
    for page in pages.values():
        page.goto(tournament_url)
        page.click("a.watch")
        page.wait_for_selector("#conn[data-state=open]")

    deadline = steps.deadline(600)  # a bound: a busy machine plays slowly
    while status_of(server, tournament_id) != "finished":
        assert time.monotonic() < deadline, "the tournament did not finish in time"
        play_a_little(list(pages.values()))

    places, entrants = places_of(server, tournament_id)
    alice.goto(club_url)
    shown = {
        name: float(alice.inner_text(f"#standings tr[data-player={name}] .points"))
        for name in PEOPLE
    }
    expected = {
        name: round(10 * math.sqrt(entrants) / math.sqrt(places[name]), 2) for name in PEOPLE
    }
    assert shown == expected
    chips = server.shell(CHIPS)
    assert chips["conserved"], chips["totals"]
    for page in pages.values():
        page.context.close()
