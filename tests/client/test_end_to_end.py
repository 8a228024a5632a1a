"""Two ``poker bot`` processes and a player in Chromium play 50 hands on a real daphne server:
every chip accounted for, and every frame over the socket valid against the published
protocol (``/api/asyncapi.json``): the bots' JSON frames both ways, and the browser's (htmx
JSON requests out, HTML swaps in, captured from Chromium's own socket)."""

from __future__ import annotations

import json
import subprocess
import time
import urllib.request

import pytest

from tests.browser import steps
from tests.browser.conftest import ROOT
from tests.client.conftest import POKER, chips_conserved, client_env, make_players, make_table
from tests.frames import FrameChecker, PageFrameChecker

pytestmark = pytest.mark.browser

HANDS = 50
REBUY = """() => {
    const form = document.querySelector("form.sit-down");
    if (form) { form.querySelector("input[name=buy_in]").value = "400"; form.requestSubmit(); }
}"""


def finished_hands(server, table: int) -> int:
    """Read straight from the server's database file (a shell per look would be slow)."""
    query = "SELECT count(*) FROM tables_hand WHERE table_id=? AND status='finished'"
    ((count,),) = steps.db_rows(server, query, table)
    return count


def test_two_bots_and_a_browser_play_fifty_hands(server, browser, tmp_path):
    table = make_table(server, "Three ways")
    keys = make_players(server, "bot-one", "bot-two")
    bots = []
    for number, name in enumerate(keys, 1):
        home = tmp_path / name
        home.mkdir()
        bots.append(
            (
                home / "trace.jsonl",
                subprocess.Popen(
                    [
                        POKER,
                        "bot",
                        str(table),
                        "--policy",
                        "sensible" if number == 1 else "random",
                        "--seed",
                        str(number),
                        "--buy-in",
                        "400",
                        "--hands",
                        str(HANDS),
                        "--trace",
                        str(home / "trace.jsonl"),
                    ],
                    cwd=ROOT,
                    env=client_env(home, server, keys[name]),
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    text=True,
                ),
            )
        )
    page = steps.count_frames(browser.new_context().new_page())
    page_frames: list[tuple[str, str | bytes]] = []  # (">" sent or "<" received, the frame)

    def capture(socket) -> None:
        if "/ws/tables/" in socket.url:
            socket.on("framesent", lambda frame: page_frames.append((">", frame)))
            socket.on("framereceived", lambda frame: page_frames.append(("<", frame)))

    page.on("websocket", capture)
    steps.sign_up(page, server.url, "human")
    steps.open_table(page, server.url, table)
    steps.sit_down(page, 400)
    page.fill("#chat-form input[name=text]", "good luck all")
    page.press("#chat-form input[name=text]", "Enter")
    page.wait_for_selector("#chat-lines li:has-text('good luck all')", timeout=90_000)
    page.locator("#chat-form input[name=text]").blur()  # the keys below are for the table

    # The human plays (and buys in again) until both bots have left: a bot counts the hands
    # it was dealt into, so one that sat down a hand late needs the table's 51st, and a
    # human who stopped at the table's 50th could leave it alone at an empty table.
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline and any(process.poll() is None for _, process in bots):
        seen = steps.frames_seen(page)
        if page.locator("form.act").count():
            page.keyboard.press("c")  # the human checks or calls, by keyboard
        if page.locator("form.sit-down").count():  # went broke: buys in again
            # In one go: every table change swaps the controls region in anew, so a fill
            # then a click may each meet another copy of the form (the fill waited for a
            # stable element for 30 s and failed while hands went on).
            page.evaluate(REBUY)
        steps.next_frame(page, seen)  # the table's next change
    finished = finished_hands(server, table)
    assert finished >= HANDS, f"only {finished} hands in 10 minutes"

    for _, process in bots:
        output, _ = process.communicate(timeout=120)
        assert process.returncode == 0, output
        assert f"Played {HANDS} hands." in output
    chips_conserved(server)

    document = json.loads(urllib.request.urlopen(server.url + "/api/asyncapi.json").read())
    checker = FrameChecker(document)
    inline_answers = 0
    for trace, _ in bots:
        for line in trace.read_text().splitlines():
            entry = json.loads(line)
            if entry["direction"] == ">":
                checker.sent_frame(entry["frame"])
            else:
                inline_answers += "answer" in checker.received_frame(entry["frame"])
    # the bots follow the table by updates on the state they hold (frames=diff)
    updates = checker.kinds.get("update", 0)
    assert updates > HANDS * 2 and updates > checker.kinds.get("state", 0) and checker.sent > HANDS
    # their actions' answers come inside those updates (answers=inline), not as frames alone
    assert inline_answers > HANDS and inline_answers > checker.kinds.get("answer:ok", 0)

    page_checker = PageFrameChecker(document)
    for direction, frame in page_frames:
        assert isinstance(frame, str), "the page sends and gets text frames only"
        if direction == ">":
            page_checker.sent_frame(frame)
        else:
            page_checker.received_frame(frame)
    kinds = page_checker.kinds
    print(f"bot frames checked: {checker.sent} sent, {checker.received} received; page: {kinds}")
    assert kinds.get(">act", 0) > 10 and kinds.get(">take_seat", 0) >= 1, kinds
    assert kinds.get(">chat") == 1 and kinds.get("<chatLinesHtml", 0) >= 1, kinds
    assert kinds.get("<regionsHtml", 0) > HANDS * 2 and kinds.get("<messageHtml", 0) >= 1, kinds
