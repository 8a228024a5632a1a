"""The table page's socket reconnects like every client of the project (``static/js/table.js``
over htmx's websocket extension): after the server's "try again" closes (4013 busy in a
connect rush, 4011 its channel layer failed) it opens the socket again after a jittered pause
that doubles up to 15 s. A real Chromium, the extension the site ships and a real websocket
server that closes the first socket with the code."""

from __future__ import annotations

import itertools
import threading
import time
from pathlib import Path

import django_htmx
import pytest

from tests.browser import steps
from tests.browser.conftest import CHROMIUM_ARGS, ROOT

pytestmark = pytest.mark.browser

HTMX = Path(django_htmx.__file__).parent / "static" / "django_htmx"
PAGE = """<!doctype html><html><body>
<div id="table-page" hx-ext="ws" ws-connect="ws://127.0.0.1:{port}/ws">
  <span id="conn">connecting</span><div id="region">waiting</div>
</div>
<script src="/htmx.js" defer></script><script src="/ws.js" defer></script>
<script src="/table.js" defer></script>
</body></html>"""
FILES = {
    "/htmx.js": HTMX / "htmx-2.min.js",
    "/ws.js": HTMX / "ext" / "hx-ws-2.js",
    "/table.js": ROOT / "static" / "js" / "table.js",
}


class ClosingServer:
    """A websocket server (on ``/ws``, the page and its scripts on the other paths) that accepts
    every socket and closes the first ``closes`` with ``code``; the next one gets a region
    swapped in by id, as the site's frames are."""

    def __init__(self, code: int, closes: int = 1) -> None:
        from websockets.sync.server import serve

        self.code = code
        self.closes = closes  # how many sockets in a row it closes
        self.sockets = 0
        self.opened: list[float] = []  # when each socket came (monotonic seconds)
        self.server = serve(self._handle, "127.0.0.1", 0, process_request=self._page)
        self.port = self.server.socket.getsockname()[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def _page(self, connection, request):
        if request.path == "/ws":
            return None  # the socket
        from websockets.datastructures import Headers
        from websockets.http11 import Response

        if request.path in FILES:
            body, kind = FILES[request.path].read_bytes(), "text/javascript"
        else:
            body, kind = PAGE.format(port=self.port).encode(), "text/html"
        return Response(200, "OK", Headers([("Content-Type", kind)]), body)

    def _handle(self, connection) -> None:
        self.opened.append(time.monotonic())
        self.sockets += 1
        if self.sockets <= self.closes:
            connection.close(code=self.code, reason="try again")
            return
        connection.send('<div id="region" hx-swap-oob="true">back</div>')
        for _ in connection:  # keep it open until the page goes
            pass

    def close(self) -> None:
        self.server.shutdown()


@pytest.fixture(scope="module")
def chromium():
    from playwright.sync_api import sync_playwright

    from tests.conftest import chromium_executable

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def open_page(chromium, server: ClosingServer):
    page = chromium.new_page()
    page.goto(server.url)
    return page


@pytest.mark.parametrize("code", [4013, 4011])
def test_the_page_reconnects_after_a_close_that_asks_for_it(chromium, code):
    server = ClosingServer(code)
    page = open_page(chromium, server)
    try:
        page.wait_for_function(
            "document.getElementById('region').textContent === 'back'", timeout=steps.ms(20_000)
        )
        assert server.sockets == 2
        assert page.text_content("#conn") == "live"
    finally:
        page.close()
        server.close()


def test_the_reconnect_pause_doubles_up_to_15_s_and_is_jittered(chromium):
    server = ClosingServer(4013)
    page = open_page(chromium, server)
    try:
        page.wait_for_function(
            "window.htmx && htmx.config.wsReconnectDelay", timeout=steps.ms(20_000)
        )
        pauses = page.evaluate(
            """() => [0, 1, 2, 3, 5, 10, 30].map(n =>
                 Array.from({length: 200}, () => htmx.config.wsReconnectDelay(n)))"""
        )
        bounds = [500, 1000, 2000, 4000, 15000, 15000, 15000]
        for bound, drawn in zip(bounds, pauses, strict=True):
            assert all(bound / 2 <= p <= bound for p in drawn)
            assert len(set(drawn)) > 100  # jittered, not one pause for everyone
    finally:
        page.close()
        server.close()


def test_the_pause_goes_on_growing_while_the_server_sheds_every_socket_it_accepts(chromium):
    """The server accepts each handshake at once and sheds the socket before sending anything
    (a connect rush): the page does not start its pauses over at each open, they double
    (a random half to all of 0.5, 1, 2, 4 s) until a socket gives the table."""
    server = ClosingServer(4013, closes=4)
    page = open_page(chromium, server)
    try:
        page.wait_for_function(
            "document.getElementById('region').textContent === 'back'", timeout=steps.ms(30_000)
        )
        gaps = [b - a for a, b in itertools.pairwise(server.opened)]
        assert len(gaps) == 4, gaps
        for gap, bound in zip(gaps, [0.5, 1.0, 2.0, 4.0], strict=True):
            assert gap >= bound / 2, gaps  # at each open the extension counted from 0 again
        assert page.text_content("#conn") == "live"
    finally:
        page.close()
        server.close()
