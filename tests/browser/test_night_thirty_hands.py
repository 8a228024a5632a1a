"""Issue 31's floor: a night of friends without a stumble, in three browsers (real daphne).

ana hosts a private no-limit hold'em game that runs it twice; ben signs up and joins by the
invite link; gus opens it logged out and joins as a guest with a name alone. All three sit
down and play 30+ hands by clicking: one hand in five checked and called down, the others
folded to the big blind (quick ones). While hands are being played the host uses the panel:

- *Set stack* of the biggest stack: nothing moves during the hand; at its end the stack is
  what the hand left plus the difference asked (asked - shown), a ``correction`` in the ledger;
- *Sit out* gus while he is to act: he still acts in that hand (his buttons, his clock), is
  dealt out of the next one, and comes back with "I'm back";
- *Remove* ben: his "I'm back" after sitting out cannot undo it; he is cashed out at the end.

ana and gus then go all in and both choose "Run it twice" (two boards); the host closes the
game. After every step bankrolls + stacks + chips in the running hand equal the grants, and
at the close the result's nets (and the settle-up's transfers) equal each player's hand nets.
"""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path

import pytest

from tests.browser import steps
from tests.browser.conftest import running_server

SEEDED = Path(__file__).parent / "seeded"

pytestmark = pytest.mark.browser

WAIT = 30_000  # ms: every browser wait is bounded (CI's loaded 2-core machine)
BUY_IN = 200
HANDS = 30
#: ms: a click on a bar that went away (the hand moved on under it) is given up this soon.
CLICK = 5_000
#: s: a bar clicked and still shown with the same version after this long is clicked again.
AGAIN = 5.0
#: The action bar the page shows, if any: its version, the hand's id and the buttons it has.
BAR = """() => {
  const form = document.querySelector('form.act');
  if (!form) return null;
  return {
    version: document.getElementById('table-actions')?.dataset.version || '',
    hand: document.getElementById('table-seats')?.dataset.hand || '',
    fold: !!form.querySelector('button.fold'),
    check: !!form.querySelector('button.check'),
  };
}"""
#: The bar each page clicked last: (its version, when).
CLICKED: dict = {}

#: Chips everywhere, read in one statement (one snapshot of the database): bankrolls, seat
#: stacks and the chips bet in running hands (their starting stacks less the seats' now), and
#: every chip ever granted.
CHIPS = """
SELECT
  (SELECT COALESCE(SUM(bankroll), 0) FROM tables_player)
  + (SELECT COALESCE(SUM(stack), 0) FROM tables_seat)
  + (SELECT COALESCE(SUM(json_extract(j.value, '$.stack')), 0)
     FROM tables_hand h, json_each(h.seats) j WHERE h.status = 'running')
  - (SELECT COALESCE(SUM(s.stack), 0)
     FROM tables_hand h, json_each(h.seats) j
     JOIN tables_seat s ON s.table_id = h.table_id
       AND s.player_id = json_extract(j.value, '$.player_id')
     WHERE h.status = 'running'),
  (SELECT COALESCE(SUM(amount), 0) FROM tables_ledgerentry
   WHERE kind IN ('grant', 'admin_grant'))
"""
#: Notes in the page when the run-out's second board appears (``window.sawTwoBoards``).
SAW_TWO_BOARDS = """
window.sawTwoBoards = false;
new MutationObserver(() => {
  if (document.querySelector('#table-board .board.second-run')) window.sawTwoBoards = true;
}).observe(document.body, {childList: true, subtree: true});
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_server(
        tmp_path_factory,
        PYTHONPATH=str(SEEDED),  # fixed decks: hand k is dealt from seed 3300 + k
        POKER_TEST_FIRST_SEED="3300",
        POKER_HAND_PAUSE_SECONDS="0.4",
        POKER_RUNOUT_PAUSE_SECONDS="0.5",
    ) as running:
        yield running


def new_page(browser):
    page = browser.new_context(viewport={"width": 1280, "height": 1000}).new_page()
    page.on("dialog", lambda dialog: dialog.accept())  # hx-confirm: the host means it
    return steps.count_frames(page)


class Night:
    """The table as the database has it, read from the server's SQLite file."""

    def __init__(self, server, table_id: int, page):
        self.server = server
        self.table_id = table_id
        self.page = page  # the host's: its frames tell when the table changed

    def rows(self, sql, *args):
        return steps.db_rows(self.server, sql, *args)

    def player_id(self, name: str) -> int:
        return self.rows(
            "SELECT p.id FROM tables_player p JOIN auth_user u ON u.id = p.user_id "
            "WHERE u.username = ?",
            name,
        )[0][0]

    def finished(self) -> int:
        return self.rows(
            "SELECT COUNT(*) FROM tables_hand WHERE table_id = ? AND status = 'finished'",
            self.table_id,
        )[0][0]

    def running(self):
        """(hand id, number, the dealt players' ids) of the running hand, or None."""
        row = self.rows(
            "SELECT id, number, seats FROM tables_hand WHERE table_id = ? AND status = 'running'",
            self.table_id,
        )
        if not row:
            return None
        hand_id, number, seats = row[0]
        return hand_id, number, [seat["player_id"] for seat in json.loads(seats)]

    def hand(self, hand_id: int):
        """(status, starting stacks by player id, nets by player id) of one hand."""
        status, seats = self.rows("SELECT status, seats FROM tables_hand WHERE id = ?", hand_id)[0]
        nets = dict(
            self.rows("SELECT player_id, net FROM tables_playerhand WHERE hand_id = ?", hand_id)
        )
        return status, {s["player_id"]: s["stack"] for s in json.loads(seats)}, nets

    def stack(self, player_id: int):
        row = self.rows(
            "SELECT stack, sitting_out FROM tables_seat WHERE table_id = ? AND player_id = ?",
            self.table_id,
            player_id,
        )
        return row[0] if row else None

    def pending(self) -> dict:
        raw = self.rows("SELECT pending_changes FROM tables_table WHERE id = ?", self.table_id)
        return json.loads(raw[0][0] or "{}")

    def status(self) -> str:
        return self.rows("SELECT status FROM tables_table WHERE id = ?", self.table_id)[0][0]

    def story(self) -> str:
        """Where the table was (said when a wait or a check fails)."""
        hands = self.rows(
            "SELECT number, status, seats FROM tables_hand WHERE table_id = ? "
            "ORDER BY number DESC LIMIT 3",
            self.table_id,
        )
        seats = self.rows(
            "SELECT player_id, number, stack, sitting_out, leave_after_hand FROM tables_seat "
            "WHERE table_id = ?",
            self.table_id,
        )
        return (
            f"table {self.status()}, {self.finished()} hands finished, last hands {hands}, "
            f"seats {seats}, pending {self.pending()}"
        )

    def assert_conserved(self, when: str) -> None:
        total, granted = self.rows(CHIPS)[0]
        assert total == granted, f"{when}: {total} chips for {granted} granted; {self.story()}"


def act(pages, quick: bool = True) -> bool:
    """Whoever has the action bar clicks once: in four hands of five (by id), ``quick``, fold
    whenever there is something to call (the big blind's hand); otherwise check or call. A bar
    clicked already (the same version) is left alone while its answer comes: clicking it again
    would wait on a button that goes away. True if anyone clicked."""
    clicked = False
    seen = steps.frames_seen(pages[0])  # before looking: a frame that comes meanwhile ends the wait
    for page in pages:
        with contextlib.suppress(Exception):  # the hand moved on under the click: look again
            bar = page.evaluate(BAR)
            if not bar:
                continue
            seen = CLICKED.get(page)
            if seen and seen[0] == bar["version"] and time.monotonic() - seen[1] < AGAIN:
                continue
            fold = quick and bar["fold"] and not bar["check"] and int(bar["hand"] or 0) % 5
            button = "button.fold" if fold else "button.check, form.act button.call"
            CLICKED[page] = (bar["version"], time.monotonic())
            page.locator(f"form.act {button}").first.click(timeout=CLICK)
            clicked = True
    if not clicked:  # nobody's turn yet: look again at the table's next change
        steps.next_frame(pages[0], seen)
    return clicked


def play_until(night: Night, pages, done, limit: float = 300.0, quick: bool = True):
    deadline = steps.deadline(limit)
    while not done():
        assert time.monotonic() < deadline, f"the night did not get there: {night.story()}"
        act(pages, quick)


def wait_for(night: Night, done, what: str, limit: float = 90.0):
    """Wait, without anyone acting, until ``done()`` (looked at again after each change of the
    table, as the host's page sees it)."""
    return steps.until(night.page, done, limit, lambda: f"no {what} in time: {night.story()}")


def host_click(host, row_player: str, selector: str) -> str:
    """Click a control of a player's row in the host panel; the panel's answer."""
    control = host.locator(f".host-players tr[data-player={row_player}] {selector}")
    return steps.host_answer(host, control, WAIT)


def set_stack(host, player: str, stack: int) -> str:
    """The host's *Set stack* (a frame may replace the form between fill and check: again)."""
    field = host.locator(f".host-players tr[data-player={player}] form.correct input[name=stack]")
    for _ in range(5):
        field.fill(str(stack), timeout=WAIT)
        if field.input_value() == str(stack):
            break
    return host_click(host, player, "form.correct button[type=submit]")


def test_a_night_of_thirty_hands_with_a_guest_and_the_host_controls(server, browser):
    # ana hosts: a private no-limit hold'em game that runs it twice, a long clock
    ana = new_page(browser)
    steps.sign_up(ana, server.url, "ana")
    ana.click("header a.new-game")
    ana.fill("#id_name", "Thirty hands at ana's")
    ana.fill("#id_action_seconds", "90")
    ana.check("#id_run_it_twice")
    ana.click("form.new-game button[type=submit]")
    ana.wait_for_selector("#conn[data-state=open]", timeout=WAIT)
    table_id = int(ana.url.rstrip("/").split("/")[-1])
    night = Night(server, table_id, ana)
    invite = ana.input_value(".host-panel input.invite-url")
    steps.sit_down(ana, BUY_IN)

    ben = new_page(browser)
    steps.sign_up(ben, server.url, "ben")
    ben.goto(invite)
    ben.wait_for_selector("#conn[data-state=open]", timeout=WAIT)
    steps.sit_down(ben, BUY_IN)

    gus = new_page(browser)  # logged out: a guest with a name alone
    gus.goto(invite)
    gus.fill("#id_name", "gus")
    gus.click("button:has-text('Join as guest')")
    gus.wait_for_url(f"**/tables/{table_id}/", timeout=WAIT)
    gus.wait_for_selector("#conn[data-state=open]", timeout=WAIT)
    steps.sit_down(gus, BUY_IN)
    ids = {name: night.player_id(name) for name in ("ana", "ben", "gus")}
    pages = [ana, ben, gus]
    night.assert_conserved("everyone seated")

    play_until(night, pages, lambda: night.finished() >= 8)
    night.assert_conserved("after 8 hands")

    # --- Set stack mid-hand: a difference at the hand's end, the hand's result kept ----------
    hand_id, _, dealt = wait_for(night, night.running, "hand dealt")
    shown = {pid: night.stack(pid)[0] for pid in dealt}
    target = max(dealt, key=shown.__getitem__)
    name = next(n for n, pid in ids.items() if pid == target)
    asked = min(BUY_IN, shown[target] - 20)  # a host may take chips off, within the buy-ins
    assert asked >= 40, night.story()
    for _ in range(3):  # a refresh that came under the click sent the stack it showed: again
        answer = set_stack(ana, name, asked)
        if [c["stack"] for c in night.pending().get("corrections", [])] == [asked]:
            break
    assert "is in this hand" in answer, answer
    change = asked - shown[target]
    assert night.running() is not None and night.running()[0] == hand_id, night.story()
    assert night.stack(target)[0] == shown[target], "the stack changed mid-hand"
    assert [c["change"] for c in night.pending()["corrections"]] == [change]
    night.assert_conserved("a stack set mid-hand")
    play_until(night, pages, lambda: night.hand(hand_id)[0] == "finished")
    _, starts, nets = night.hand(hand_id)
    # the next hand he is dealt into starts from the hand's result plus the difference
    next_hand = wait_for(
        night,
        lambda: (h := night.running()) and h[0] != hand_id and h,
        "next hand",
    )
    _, next_starts, _ = night.hand(next_hand[0])
    assert next_starts[target] == starts[target] + nets[target] + change, night.story()
    corrections = night.rows(
        "SELECT amount, reason FROM tables_ledgerentry WHERE player_id = ? "
        "AND kind = 'correction' AND table_id = ?",
        target,
        table_id,
    )
    assert [amount for amount, _ in corrections] == [-change], corrections
    assert "during a hand" in corrections[0][1]
    night.assert_conserved("the stack set at the hand's end")

    # --- Sit out gus while he is to act: he plays this hand out, then is away ---------------
    others = [ana, ben]
    play_until(night, others, lambda: gus.locator("form.act").count() > 0, quick=False)
    hand_id = night.running()[0]
    answer = host_click(ana, "gus", "button.sit-out-player")
    assert "play this hand out and sit out" in answer, answer
    assert ids["gus"] in night.pending()["sit_out"], night.story()
    assert night.stack(ids["gus"])[1] == 0, "sat out mid-hand"
    gus.locator("form.act button.check, form.act button.call").first.click(timeout=WAIT)
    play_until(night, pages, lambda: night.hand(hand_id)[0] == "finished")
    actions = night.rows(
        "SELECT source FROM tables_handaction WHERE hand_id = ? AND seat = "
        "(SELECT j.key FROM tables_hand h, json_each(h.seats) j WHERE h.id = ? "
        "AND json_extract(j.value, '$.player_id') = ?)",
        hand_id,
        hand_id,
        ids["gus"],
    )
    assert "player" in {source for (source,) in actions}, actions
    assert "timeout" not in {source for (source,) in actions}, actions
    away = wait_for(night, lambda: (h := night.running()) and h[0] != hand_id and h, "hand")
    assert ids["gus"] not in away[2] and night.stack(ids["gus"])[1] == 1, night.story()
    gus.locator("button.sit-in").click(timeout=WAIT)
    wait_for(night, lambda: night.stack(ids["gus"])[1] == 0, "gus back")
    play_until(night, pages, lambda: (h := night.running()) and ids["gus"] in h[2])
    night.assert_conserved("gus back")

    play_until(night, pages, lambda: night.finished() >= HANDS - 6)

    # --- Remove ben mid-hand: he cannot stay; cashed out when the hand ends ----------------
    running = wait_for(night, lambda: (h := night.running()) and ids["ben"] in h[2] and h, "hand")
    hand_id = running[0]
    answer = host_click(ana, "ben", "button.remove-player")
    assert "cashed out when it ends" in answer, answer
    assert night.pending()["remove"] == [ids["ben"]], night.story()
    assert night.stack(ids["ben"]) is not None, "removed mid-hand"
    ben.locator("button.sit-out").click(timeout=WAIT)
    ben.locator("button.sit-in").click(timeout=WAIT)  # "I'm back": refused
    ben.get_by_text("host removed you").first.wait_for(timeout=WAIT)
    assert night.pending()["remove"] == [ids["ben"]], night.story()
    play_until(night, pages, lambda: night.hand(hand_id)[0] == "finished")
    wait_for(night, lambda: night.stack(ids["ben"]) is None, "ben cashed out")
    cash_out = night.rows(
        "SELECT reason FROM tables_ledgerentry WHERE player_id = ? AND kind = 'cash_out'",
        ids["ben"],
    )
    assert len(cash_out) == 1 and "by the host" in cash_out[0][0], cash_out
    ben.wait_for_selector("form.sit-down", state="attached", timeout=WAIT)  # under its wait
    night.assert_conserved("ben removed")

    # --- heads-up to the 30th hand, then all in and run it twice ---------------------------
    pages = [ana, gus]
    play_until(night, pages, lambda: night.finished() >= HANDS - 1)
    hand_id = wait_for(night, night.running, "hand")[0]
    shover = wait_for(
        night, lambda: [p for p in pages if p.locator("form.act").count()], "first action"
    )[0]
    for page in pages:  # the second board shows for a moment only: note it when it comes
        page.evaluate(SAW_TWO_BOARDS)
    shover.locator("form.act button.size", has_text="All-in").click(timeout=WAIT)
    shover.click("form.act button.raise", timeout=WAIT)
    caller = gus if shover is ana else ana
    caller.locator("form.act button.call").click(timeout=WAIT)
    for page in pages:
        page.locator("form.runs button.run-twice").click(timeout=WAIT)
    wait_for(night, lambda: night.hand(hand_id)[0] == "finished", "the run-outs", limit=120)
    runout = json.loads(night.rows("SELECT runout FROM tables_hand WHERE id = ?", hand_id)[0][0])
    assert len(runout["runs"]) == 2, runout
    for page in pages:
        page.wait_for_function("() => window.sawTwoBoards", timeout=WAIT)
    night.assert_conserved("run twice")

    # --- the host closes the game (when the hand being played ends, if one is) --------------
    ana.evaluate("document.querySelector('.host-messages')?.remove()")
    ana.locator(".host-panel button.close-game").click(timeout=WAIT)
    play_until(night, pages, lambda: night.status() == "closed", limit=120)
    assert not night.rows("SELECT 1 FROM tables_seat WHERE table_id = ?", table_id)
    night.assert_conserved("closed")
    assert night.finished() >= HANDS, night.story()
    assert not night.rows(
        "SELECT 1 FROM tables_hand WHERE table_id = ? AND status != 'finished'", table_id
    ), night.story()

    # every hand's nets add up to zero, and each player's night is the sum of their hands
    by_hand = night.rows(
        "SELECT hand_id, SUM(net) FROM tables_playerhand WHERE table_id = ? GROUP BY hand_id",
        table_id,
    )
    assert len(by_hand) == night.finished() and all(total == 0 for _, total in by_hand)
    hand_nets = {
        name: night.rows(
            "SELECT COALESCE(SUM(net), 0) FROM tables_playerhand WHERE table_id = ? "
            "AND player_id = ?",
            table_id,
            pid,
        )[0][0]
        for name, pid in ids.items()
    }
    # ...and what each took away less what each brought (the ledger's own count)
    for name, pid in ids.items():
        moved = night.rows(
            "SELECT COALESCE(SUM(amount), 0) FROM tables_ledgerentry WHERE table_id = ? "
            "AND player_id = ? AND kind IN ('buy_in', 'top_up', 'cash_out', 'correction')",
            table_id,
            pid,
        )[0][0]
        assert moved == hand_nets[name], (name, moved, hand_nets)

    # the result and settle-up on the closed game's page: the same nets
    steps.open_table(gus, server.url, table_id)
    result = gus.locator("#game-result")
    result.wait_for(timeout=WAIT)
    shown_nets = {
        row.get_attribute("data-player"): int(row.locator(".net").inner_text())
        for row in result.locator("tr[data-player]").all()
    }
    assert shown_nets == hand_nets, (shown_nets, hand_nets)
    # beside each net, the all-in EV and how far the player ran from it
    ev_rows = {
        row.get_attribute("data-ev-player"): row.locator("td").all_inner_texts()
        for row in result.locator("#night-ev tr[data-ev-player]").all()
    }
    assert {name: int(cells[1]) for name, cells in ev_rows.items()} == hand_nets, ev_rows
    assert all(cells[4].startswith("ran ") for cells in ev_rows.values()), ev_rows
    squared = dict.fromkeys(hand_nets, 0)
    for line in result.locator("#settlement li").all():
        payer, payee = (s.inner_text() for s in line.locator("strong").all())
        amount = int(line.locator(".chips").inner_text())
        squared[payer] -= amount
        squared[payee] += amount
    assert squared == hand_nets, (squared, hand_nets)
    for page in (ana, ben, gus):
        page.context.close()
