"""The table's page (``/tables/<id>/``) and its room screen are made from the table as the
runtime that owns it in this process holds it (``tables.selectors.held.made_from_table``, in
its turn: what its sockets were sent), through the real ASGI application: no load and no
replay, and the same page a read of the database makes, for a player in the hand and a
visitor; without a runtime here it is read, as before."""

import re

import pytest
from channels.testing import HttpCommunicator

from tables.live.runtime import TableRuntime
from tables.selectors import held as held_reads
from tables.selectors.held import held_runners
from tables.services import hands
from tests.tables.helpers import Calls
from tests.tables.wsclient import owned_hand

pytestmark = pytest.mark.django_db(transaction=True)

#: What differs between two loads of one page: the form's CSRF token (masked anew each time).
CSRF = re.compile(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False


async def page(table_id: int, cookie: str | None, path: str = "") -> str:
    """``/tables/<id>/`` (``path``: a page under it, ``tv/`` the room screen's)."""
    from pokersite.asgi import application

    headers = [(b"host", b"testserver")]
    if cookie is not None:
        headers.append((b"cookie", cookie.encode()))
    http = HttpCommunicator(application, "GET", f"/tables/{table_id}/{path}", headers=headers)
    response = await http.get_response(timeout=30)
    await http.wait(timeout=30)
    assert response["status"] == 200, response["body"][:300]
    return CSRF.sub(r"\1", response["body"].decode())


async def read_page(table_id: int, cookie: str | None, path: str = "") -> str:
    """The page as a read of the database makes it (no runtime asked)."""
    runners = list(held_runners)
    held_runners.clear()
    try:
        return await page(table_id, cookie, path)
    finally:
        held_runners.extend(runners)


async def test_the_page_is_made_from_the_runtimes_table(table, players, cookies, monkeypatch):
    socket, runtime, snapshot, _ = await owned_hand(table, players, cookies)
    version = snapshot.version
    try:
        loads = Calls(monkeypatch, held_reads, "load_snapshot")
        replays = Calls(monkeypatch, hands, "hand_state")
        held = Calls(monkeypatch, TableRuntime, "held")
        for cookie in (cookies[0], cookies[1], None):  # in the hand, the other, a visitor
            made = await page(table.pk, cookie)
            assert (loads.count, replays.count) == (0, 0), "the page read the table"
            assert f'data-version="{version}"' in made
            assert made == await read_page(table.pk, cookie)
            loads.count = replays.count = 0  # (the read page's own)
        assert held.count == 3
        tv = await page(table.pk, None, "tv/")  # the room screen, likewise
        assert (loads.count, replays.count, held.count) == (0, 0, 4)
        assert tv == await read_page(table.pk, None, "tv/")
    finally:
        await socket.close()


async def test_without_a_runtime_here_the_page_is_read(table, players, cookies, monkeypatch):
    assert TableRuntime.following(table.pk) is None
    loads = Calls(monkeypatch, held_reads, "load_snapshot")
    await page(table.pk, cookies[0])
    assert loads.count == 1
