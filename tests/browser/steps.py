"""Steps a person takes in the browser tests (and the docs' screenshot), written once."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time

from playwright.sync_api import Locator, Page, TimeoutError as PlaywrightTimeout

#: Counts the frames a page has taken in (``window.framesSeen``): every change of a table
#: brings one, so a test waits for the next rather than looking again after a pause.
COUNT_FRAMES = """
window.framesSeen = 0;
document.addEventListener('htmx:wsAfterMessage', () => { window.framesSeen += 1; });
"""
#: Resolves at the page's first frame past ``seen`` or after ``limit`` ms (while only a clock
#: runs, no frame comes).
NEXT_FRAME = """([seen, limit]) => new Promise(resolve => {
  if (window.framesSeen > seen) return resolve();
  document.addEventListener('htmx:wsAfterMessage', () => resolve(), {once: true});
  setTimeout(resolve, limit);
})"""
#: ms: the longest wait for a frame before looking again.
FRAME_WAIT = 2_000


def _pace() -> float:
    """How many times slower than a usual development machine this one runs (1 to 3):
    ``TEST_PACE`` where set, else measured once per test process (the quickest of a few
    short loops, so that the other workers starting at the same moment do not count)."""
    if os.environ.get("TEST_PACE"):
        return max(1.0, float(os.environ["TEST_PACE"]))
    quickest = min(_loop_seconds() for _ in range(7))
    return min(3.0, max(1.0, quickest / USUAL_LOOP_SECONDS))


def _loop_seconds() -> float:
    start = time.perf_counter()
    sum(range(10**6))
    return time.perf_counter() - start


#: s: ``_loop_seconds`` on the slower of the usual development machines (a quick one takes
#: about 0.011 s; the slowest seen, 2.5 times slower a core, 0.03).
USUAL_LOOP_SECONDS = 0.015
#: Every bound a browser test waits within (``bound``, ``deadline``, ``ms``), and the game
#: clocks a test races (a seat's clock, a tournament's start), are stretched by this: on a
#: slow machine the players' clicks and the pages come slower, the server's clocks do not.
PACE = _pace()


def bound(seconds: float) -> float:
    """A limit of ``seconds`` (on a usual machine) for this machine's pace."""
    return seconds * PACE


def deadline(seconds: float) -> float:
    """The ``time.monotonic()`` by which something a usual machine does within ``seconds``
    is done here."""
    return time.monotonic() + bound(seconds)


def ms(milliseconds: float) -> float:
    """A Playwright timeout of ``milliseconds`` (on a usual machine) for this machine's pace."""
    return milliseconds * PACE


def count_frames(page: Page) -> Page:
    """Have ``page`` count its frames from its next load on (``frames_seen``)."""
    page.add_init_script(COUNT_FRAMES)
    return page


def frames_seen(page: Page) -> int:
    """How many frames ``page`` has taken in (0 while it loads)."""
    try:
        return int(page.evaluate("() => window.framesSeen || 0"))
    except Exception:  # navigating: its count starts again
        return 0


def next_frame(page: Page, seen: int) -> None:
    """Wait until ``page`` takes in a frame past ``seen`` (bounded: ``FRAME_WAIT``): take
    ``seen`` before looking at the page, so a frame that comes meanwhile ends the wait."""
    with contextlib.suppress(Exception):  # navigating: look again at once
        page.evaluate(NEXT_FRAME, [seen, FRAME_WAIT])


def count_frames_from_now(page: Page) -> None:
    """Have a page already loaded count its frames from now on (``frames_seen``)."""
    page.evaluate(COUNT_FRAMES)


def table_version(page: Page) -> str | None:
    """The version of the table the page shows (``#table-actions[data-version]``)."""
    return page.get_attribute("#table-actions", "data-version")


def next_version(page: Page, version: str | None, timeout: float) -> None:
    """Wait (at most ``timeout`` ms) until the page shows a table version other than
    ``version`` (``table_version``, taken before the click or key that should move it)."""
    page.wait_for_function(
        "v => document.querySelector('#table-actions').dataset.version !== v",
        arg=version,
        timeout=timeout,
    )


def until(page: Page, done, limit: float, failed) -> object:
    """``done()``'s first true value, looked at again after each frame ``page`` takes in;
    past ``limit`` seconds (``bound``) the test fails with ``failed()``'s words."""
    until_then = deadline(limit)
    while True:
        seen = frames_seen(page)
        if found := done():
            return found
        assert time.monotonic() < until_then, failed()
        next_frame(page, seen)


def password_for(name: str) -> str:
    """A password Django's validators accept and that is not like the name."""
    return f"pw-{name}-Secret1"


def fill_sign_up(page: Page, name: str, password: str | None = None) -> None:
    """Fill and send the sign-up form the page shows (wherever it was reached from);
    ``password`` defaults to ``password_for(name)``."""
    password = password or password_for(name)
    page.fill("#id_username", name)
    page.fill("#id_password1", password)
    page.fill("#id_password2", password)
    page.click("form button[type=submit]")
    page.wait_for_load_state()


def sign_up(page: Page, base_url: str, name: str, password: str | None = None) -> None:
    """Open the sign-up page and sign up as ``name``; fail with the page's text if refused."""
    page.goto(base_url + "/accounts/signup/")
    fill_sign_up(page, name, password)
    assert "/accounts/signup/" not in page.url, page.inner_text("main")


def open_table(page: Page, base_url: str, table_id: int) -> None:
    """Open a table's page and wait for its live connection."""
    page.goto(f"{base_url}/tables/{table_id}/")
    page.wait_for_selector("#conn[data-state=open]")


def sit_down(page: Page, buy_in: int, tries: int = 3) -> None:
    """Buy in from the table page's sit-down form and wait for the own seat.

    The form's seat list can be a frame behind another player who just sat (under load):
    the server then refuses the taken seat and the form comes back with the seats still
    free, so the player tries again, as a person would."""
    for attempt in range(tries):
        page.fill("form.sit-down input[name=buy_in]", str(buy_in))
        page.click("form.sit-down button[type=submit]")
        try:
            page.wait_for_selector(".seat.me", timeout=ms(15_000))
            return
        except PlaywrightTimeout:
            if attempt == tries - 1 or page.locator(".seat.me").count():
                break
            page.wait_for_selector("form.sit-down", timeout=ms(15_000))
    page.wait_for_selector(".seat.me", timeout=ms(5_000))


def host_answer(host: Page, control: Locator, timeout: float | None = None) -> str:
    """Click ``control`` of the hosting panel; the panel's answer, whatever it says. Its last
    answer goes first (a refresh of the panel keeps it), so that the one read is this
    control's own, read as it comes."""
    host.evaluate("document.querySelector('.host-messages')?.remove()")
    control.click(timeout=timeout)
    answer = host.wait_for_function(
        "() => document.querySelector('.host-messages')?.innerText", timeout=timeout
    )
    return answer.json_value()


def db_rows(server, sql, *args):
    """Rows of ``sql`` read from the browser server's SQLite file (read-only)."""
    with sqlite3.connect(f"file:{server.db}?mode=ro", uri=True, timeout=20) as db:
        return db.execute(sql, args).fetchall()


def play_a_little(pages, seconds=1.0):
    """Everyone who is to act checks or calls (by clicking), for ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for page in pages:
            button = page.locator("form.act button.check, form.act button.call").first
            # Wait briefly for this player's turn; the hand may also move on under the click:
            # either way, look at the next page and come back.
            with contextlib.suppress(Exception):
                button.wait_for(state="visible", timeout=100)
                button.click(timeout=2000)


def play_until(pages, done, limit=150.0):
    """Everyone to act checks or calls until ``done()``; past ``limit`` seconds (``bound``)
    the test fails."""
    until_then = deadline(limit)
    while not done():
        assert time.monotonic() < until_then, "the game did not get there in time"
        play_a_little(pages)


def axe_violations(page: Page) -> list[str]:
    """Every axe-core finding on ``page`` as Chromium renders it now, of any impact, each
    named with the elements it found (axe-core's own script, from ``axe-playwright-python``)."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + "; ".join(" ".join(node["target"]) for node in v["nodes"])
        for v in results.response["violations"]
    ]
