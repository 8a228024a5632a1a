"""The table page's socket (htmx) speaks the published protocol too: its requests (form
fields and htmx's HEADERS) and the HTML it receives (out-of-band swaps by id) validate against
``/api/asyncapi.json`` (``pageRequest``, ``pageUpdate``), and the published schemas refuse
frames that break it. The browser's own frames over 50 hands: ``tests/client/test_end_to_end``.
"""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from jsonschema import ValidationError

from tables.services import hand_start, seat_take
from tests.frames import PageFrameChecker
from tests.tables.wsclient import HAND, VERSION, communicator, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False
    settings.POKER_RESEAT_WAIT_SECONDS = 0


@pytest.fixture
def document(db):
    response = Client().get("/api/asyncapi.json")
    assert response.status_code == 200
    return response.json()


def htmx_frame(trigger: str | None, **fields) -> str:
    """A frame as htmx's ws extension sends it: the form's fields as text, and HEADERS."""
    headers = {
        "HX-Request": "true",
        "HX-Trigger": trigger,
        "HX-Trigger-Name": None,
        "HX-Target": trigger,
        "HX-Current-URL": "http://testserver/tables/1/",
    }
    return json.dumps({**fields, "HEADERS": headers})


class Page:
    """A logged-in page's socket that checks every frame both ways."""

    def __init__(self, comm, checker: PageFrameChecker):
        self.comm, self.checker = comm, checker
        self.html = ""  # the last regions frame

    async def send(self, trigger: str | None, **fields) -> None:
        frame = htmx_frame(trigger, **fields)
        self.checker.sent_frame(frame)
        await self.comm.send_to(text_data=frame)

    async def until(self, kind: str, text: str = "") -> str:
        """Frames (each checked) until one of ``kind`` holding ``text``."""
        for _ in range(50):
            frame = await self.comm.receive_from(timeout=5)
            got = self.checker.received_frame(frame)
            if got == "regionsHtml":
                self.html = frame
            if got == kind and text in frame:
                return frame
        raise AssertionError(f"no {kind} frame with {text!r}")


async def test_the_page_socket_speaks_the_published_protocol(document, players, table):
    checker = PageFrameChecker(document)
    alice, bob, _ = players
    await sync_to_async(seat_take)(table=table, player=bob, buy_in=200, seat_number=1)
    comm = communicator(table.pk, await sync_to_async(session_cookie)(alice.user))
    assert (await comm.connect())[0]
    page = Page(comm, checker)
    await page.until("regionsHtml", 'id="table-controls"')

    await page.send(None, op="take_seat", seat="1", buy_in="100")
    await page.until("messageHtml", "You sat down")
    await page.send("chat-form", op="chat", text="gl <b>all</b>")
    assert "&lt;b&gt;" in await page.until("chatLinesHtml", "gl ")
    await page.send(None, op="sit_out")
    await page.until("messageHtml", "You are sitting out")
    await page.send(None, op="sit_in")
    await page.until("messageHtml", "Welcome back")

    await sync_to_async(hand_start)(table=table)
    await page.until("regionsHtml", 'data-street="preflop"')
    version, hand = VERSION.search(page.html).group(1), HAND.search(page.html).group(1)
    await page.send(None, op="act", kind="raise", amount="1", hand=hand, version=version)
    await page.until("messageHtml", "error")  # refused: an illegal raise is one line
    await page.send(None, op="top_up", amount="50")
    await page.until("messageHtml", "Top up between hands")
    await comm.send_to(text_data="{not json")
    await page.until("messageHtml", "Malformed request")
    await page.send(None, op="leave")
    await page.until("messageHtml", "leave when this hand ends")
    await comm.disconnect()

    assert checker.kinds["<regionsHtml"] >= 3 and checker.kinds["<messageHtml"] >= 7
    assert checker.kinds["<chatLinesHtml"] >= 1
    assert {">take_seat", ">chat", ">sit_out", ">sit_in", ">act", ">top_up", ">leave"} <= set(
        checker.kinds
    )


REGION = '<div id="table-log" class="log-area" hx-swap-oob="true"><p>x</p></div>'


@pytest.mark.parametrize(
    "frame",
    [
        '<div id="table-log" class="log-area"><p>x</p></div>',  # not an out-of-band swap
        '<div id="table-secrets" hx-swap-oob="true"></div>',  # no such region
        REGION + "stray text",
        REGION + REGION,  # one region twice
        REGION + '<div id="table-message" hx-swap-oob="true"></div>',  # two kinds in one frame
        '<ol id="chat-lines" hx-swap-oob="afterbegin"></ol>',
        '{"type": "state"}',
    ],
)
def test_the_published_schemas_refuse_malformed_page_frames(document, frame):
    with pytest.raises((ValidationError, AssertionError)):
        PageFrameChecker(document).received_frame(frame)


@pytest.mark.parametrize(
    "frame",
    [
        json.dumps({"op": "chat", "text": "hi"}),  # no HEADERS: not from htmx
        htmx_frame(None, op="act", kind="bet", hand="1", version="3"),
        htmx_frame(None, op="take_seat", buy_in="1e3"),
        htmx_frame(None, op="auth", token="x"),  # a page logs in by its cookie
    ],
)
def test_the_published_schemas_refuse_malformed_page_requests(document, frame):
    with pytest.raises(ValidationError):
        PageFrameChecker(document).sent_frame(frame)
