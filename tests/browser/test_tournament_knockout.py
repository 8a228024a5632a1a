"""Issue 52's floor: a six-player progressive-knockout sit & go, four bots and two people in
two browsers, against a real daphne server with fixed decks (``tests/browser/seeded``).

alice organises it on the form (100 a head, 40 of it on the head, PKO; rebuys during level 1
and an add-on of 3,000 chips for 50; four bots; starting when full), both register from its
page (the last entry starts it) and play from the table by clicking (check, or fold to a bet).
Level 1, the last of the rebuys, is the add-on's window; alice takes it by clicking the table
banner's button, which shows between her hands (the banner is asked again as each hand ends and
the next is dealt; a press that meets the next hand is refused, changing nothing, and made
again at the next gap; level 1 lasts eight hands for that). Play goes on until two players are
out and the rebuys are over; then whoever of the people is still in proposes an ICM deal on
the tournament's page and everyone left accepts (the croupier's bots agree at once), which ends
it. The results page shows each entrant's prize, the bounties won, the add-on and the deal;
read from the database, the entry fees and the add-on are the prizes plus the bounties paid, to
the chip, and every chip is accounted for. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path

import pytest

from tests.browser import steps
from tests.browser.conftest import ARTIFACTS, running_server

pytestmark = pytest.mark.browser

SEEDED = Path(__file__).parent / "seeded"
PEOPLE = ("alice", "bob")
SETUP = """
import json
from tables.services import player_sign_up
print(json.dumps([player_sign_up(username=n, password="pw-%s-Secret1" % n).pk
                  for n in ("alice", "bob")]))
"""
CHIPS = """
import json
from django.db import transaction
from tables.selectors.chips import chips_conserved, chips_total
with transaction.atomic():
    totals = chips_total()
print(json.dumps({"totals": totals, "conserved": chips_conserved(totals)}))
"""
ENTRIES = """
SELECT u.username, e.fee_paid, e.prize, e.bounties_won, e.bounty, e.deal_share, e.place,
e.addon_taken, e.rebuys FROM tournaments_entry e JOIN tables_player p ON p.id = e.player_id
JOIN auth_user u ON u.id = p.user_id WHERE e.tournament_id = ?
"""
ISSUED = """
import json
from tables.tournaments.models import Tournament
from tables.tournaments.selectors import chips_issued
tournament = Tournament.objects.get(pk=%d)
print(json.dumps({"issued": chips_issued(tournament), "pool": tournament.prize_pool}))
"""
ADDON_TAKEN = """
SELECT e.addon_taken FROM tournaments_entry e JOIN tables_player p ON p.id = e.player_id
JOIN auth_user u ON u.id = p.user_id WHERE e.tournament_id = ? AND u.username = ?
"""
SEATED = """
SELECT u.username FROM tables_seat s JOIN tournaments_tournamenttable tt ON tt.table_id = s.table_id
JOIN tables_player p ON p.id = s.player_id JOIN auth_user u ON u.id = p.user_id
WHERE tt.tournament_id = ?
"""
#: Blinds doubling every two hands from 25/50 with 3,000 chips: the people, folding, last a
#: dozen hands; the bots' all-ins knock each other out well before. Level 1 (the rebuys' and
#: the add-on's) lasts eight hands: eight gaps between hands to take the add-on in, however
#: slow the machine (the pause between hands is a second).
LEVELS = "\n".join(["25 50 0 8", *(f"{25 << n} {50 << n} 0 2" for n in range(1, 10))])
ADDON_CHIPS, ADDON_PRICE = 3000, 50
WAIT = 20_000  # ms: every wait is bounded


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """Fixed decks (the bots' choices follow from them), short pauses between hands and quick
    bots: what is checked (bounties, prizes, the deal, the chips) does not depend on pace."""
    with running_server(
        tmp_path_factory,
        PYTHONPATH=str(SEEDED),
        POKER_TEST_FIRST_SEED="5252",
        POKER_HAND_PAUSE_SECONDS="3",  # the add-on is taken between hands
        POKER_BOT_DELAY="0.05,0.15",
    ) as running:
        yield running


def status_of(server, tournament_id) -> str:
    ((status,),) = steps.db_rows(
        server, "SELECT status FROM tournaments_tournament WHERE id=?", tournament_id
    )
    return status


def rebuys_open(server, tournament_id) -> bool:
    ((open_,),) = steps.db_rows(
        server, "SELECT rebuys_open FROM tournaments_tournament WHERE id=?", tournament_id
    )
    return bool(open_)


def addon_taken(server, tournament_id, name) -> bool:
    ((taken,),) = steps.db_rows(server, ADDON_TAKEN, tournament_id, name)
    return bool(taken)


def seated(server, tournament_id) -> set[str]:
    return {name for (name,) in steps.db_rows(server, SEATED, tournament_id)}


def logged_in_page(browser, server, name):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(server.url + "/accounts/login/")
    page.fill("#id_username", name)
    page.fill("#id_password", f"pw-{name}-Secret1")
    page.click("form button[type=submit]")
    page.wait_for_load_state()
    return page


def play_a_little(pages):
    """Whoever of the people is to act checks, or folds to a bet, by clicking (waiting briefly
    for each one's turn): the bots knock each other out while the people keep their chips but
    for the blinds, so a person is still in to propose the deal, however quick the machine
    (a person who is slow to click is folded by the clock, which changes nothing)."""
    for page in pages:
        with contextlib.suppress(Exception):
            page.wait_for_selector("form.act", timeout=200)
            check = page.locator("form.act button.check")
            (check if check.count() else page.locator("form.act button.fold")).click(timeout=2000)


def cell(row, name: str) -> int:
    return int(row.locator(f".{name}").inner_text().replace(",", "").replace("–", "0"))


def test_a_progressive_knockout_sit_and_go_with_bots_and_a_deal(server, browser):
    ARTIFACTS.mkdir(exist_ok=True)
    server.shell(SETUP)
    pages = {name: logged_in_page(browser, server, name) for name in PEOPLE}
    alice = pages["alice"]

    alice.goto(server.url + "/tournaments/new/")
    alice.fill("#id_name", "Knockout sit & go")
    alice.fill("#id_entry_fee", "100")
    alice.select_option("#id_bounty_kind", "pko")
    alice.fill("#id_bounty", "40")
    alice.fill("#id_starting_stack", "3000")
    alice.select_option("#id_structure", "custom")
    alice.fill("#id_levels", LEVELS)
    alice.select_option("#id_level_unit", "hands")
    alice.fill("#id_rebuy_levels", "1")
    alice.fill("#id_addon_chips", str(ADDON_CHIPS))
    alice.fill("#id_addon_price", str(ADDON_PRICE))
    alice.fill("#id_bot_entrants", "4")
    alice.select_option("#id_start", "when-full")
    alice.fill("#id_action_seconds", "5")
    alice.click("form.new-tournament button[type=submit]")
    alice.wait_for_selector("#tournament[data-status=registering]")
    tournament_id = int(alice.url.rstrip("/").split("/")[-1])
    url = f"{server.url}/tournaments/{tournament_id}/"
    assert "40 of it a progressive knockout bounty" in alice.inner_text("#tournament")
    assert "an add-on of 3,000 chips for 50" in alice.inner_text("#addon-option")

    for name in PEOPLE:  # the second entry fills the six seats: it starts
        page = pages[name]
        page.goto(url)
        page.click("#register")
        page.wait_for_selector("#you-are-in")
    assert status_of(server, tournament_id) == "running"

    for page in pages.values():  # to the table, from the page
        page.goto(url)
        page.click("a.watch")
        page.wait_for_selector("#conn[data-state=open]")

    # The add-on, from the table's banner: its button shows between alice's hands.
    deadline = steps.deadline(300)  # a bound: a busy machine plays slowly
    while not addon_taken(server, tournament_id, "alice"):
        assert rebuys_open(server, tournament_id), "level 1 ended before the add-on was taken"
        assert time.monotonic() < deadline, "the add-on was not taken in time"
        with contextlib.suppress(Exception):  # shown as a hand ends; pressed while it shows
            alice.click("#tournament-level #addon", timeout=1500)
        play_a_little(list(pages.values()))
    issued = server.shell(ISSUED % tournament_id)
    assert issued["issued"] == 6 * 3000 + ADDON_CHIPS  # its chips are on alice's stack
    assert issued["pool"] == 6 * 60 + ADDON_PRICE  # its price is in the prize pool
    alice.wait_for_selector("#conn[data-state=open]")

    # Played until two are out (their heads paid to whoever knocked them out) and the rebuys
    # are over (a deal waits for that).
    deadline = steps.deadline(300)  # a bound: a busy machine plays slowly
    while (
        len(seated(server, tournament_id)) > 4 or rebuys_open(server, tournament_id)
    ) and status_of(server, tournament_id) != "finished":
        assert time.monotonic() < deadline, "two players were not knocked out in time"
        play_a_little(list(pages.values()))
    left = seated(server, tournament_id)
    people_in = [name for name in PEOPLE if name in left]
    assert people_in, "with these decks a person is still in after two knockouts"
    alice.screenshot(path=str(ARTIFACTS / "tournament-knockout-table.png"), full_page=True)

    # The deal: proposed by a person still in (ICM, nothing kept), accepted by everyone left.
    proposer = pages[people_in[0]]
    proposer.goto(url)
    proposer.select_option("#deal-method", "icm")
    proposer.click("#propose-deal")
    proposer.wait_for_selector("#deal[data-status]", timeout=WAIT)
    deadline = steps.deadline(120)
    while status_of(server, tournament_id) != "finished":
        assert time.monotonic() < deadline, "the deal was not made in time"
        for name in people_in:  # each answers from their own screen once the shares show
            page = pages[name]
            page.goto(url)
            with contextlib.suppress(Exception):
                page.click("#deal-accept", timeout=1000)

    results = {}
    for name, page in pages.items():
        page.goto(url)
        page.wait_for_selector("#tournament[data-status=finished]")
        page.screenshot(path=str(ARTIFACTS / f"tournament-knockout-{name}.png"), full_page=True)
    assert alice.locator("#deal[data-status=made]").count() == 1
    for row in alice.locator("tr.entrant").all():
        name = row.get_attribute("data-player")
        results[name] = (cell(row, "prize"), cell(row, "bounties-won"), cell(row, "bounty"))
        assert (row.locator(".addon").inner_text() == "yes") == (name == "alice"), name

    rows = steps.db_rows(server, ENTRIES, tournament_id)
    assert len(rows) == 6
    fees = sum(fee for _, fee, *_ in rows)
    prizes = sum(prize for _, _, prize, *_ in rows)
    bounties = sum(won for _, _, _, won, *_ in rows)
    entries = 6 + sum(rebuys for *_, rebuys in rows)  # the bots never rebuy; folding, nor do we
    assert fees == entries * 100 + ADDON_PRICE  # the entries and the add-on
    assert fees == prizes + bounties  # every fee paid out, to the chip
    assert prizes == entries * 60 + ADDON_PRICE  # the prize pool: less the heads, with the add-on
    assert bounties == entries * 40  # every head paid: to knockers, and back to those left
    for name, fee, prize, won, head, _share, place, addon, rebuys in rows:
        assert head == 0  # no head is left unpaid
        assert place is not None
        assert results[name] == (prize, won, 0), name  # the page shows what was paid
        assert bool(addon) == (name == "alice"), name
        assert fee == 100 * (1 + rebuys) + (ADDON_PRICE if addon else 0), name
    # The deal's players (those left when its shares were worked out) have their share, as
    # the page shows it, and hold the top places.
    dealt = {name: share for name, *_, share, _place, _addon, _rebuys in rows if share is not None}
    shown = {
        row.get_attribute("data-player"): int(row.locator(".share").inner_text().replace(",", ""))
        for row in alice.locator("tr.deal-share").all()
    }
    assert shown == dealt and 2 <= len(dealt) <= len(left)
    assert sorted(place for name, *_, place, _addon, _rebuys in rows if name in dealt) == list(
        range(1, len(dealt) + 1)
    )
    # Two knocked out: someone won more than their own 40 back.
    assert max(won for _, _, _, won, *_ in rows) > 40
    chips = server.shell(CHIPS)
    assert chips["conserved"], chips["totals"]
    assert chips["totals"]["prize_pools"] == 0  # every pool and head is paid out
    for page in pages.values():
        page.context.close()
