"""A table socket opens only from the site's own pages: the request's own origin (scheme,
host and port) or ``CSRF_TRUSTED_ORIGINS``; anything else is refused at the handshake, with
the user's cookie or without (issue 15, item 9)."""

import pytest

from tests.tables.wsclient import communicator, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False


@pytest.fixture
def cookie(players):
    return session_cookie(players[0].user)


async def opens(table, cookie, **headers) -> bool:
    comm = communicator(table.pk, cookie, **headers)
    connected, _ = await comm.connect()
    if connected:
        await comm.disconnect()
    return connected


async def test_the_sites_own_origin_opens(table, cookie):
    assert await opens(table, cookie, origin="http://testserver")
    assert await opens(table, cookie, origin="http://127.0.0.1:8000", host="127.0.0.1:8000")
    assert await opens(table, cookie, origin="http://[::1]:8000", host="[::1]:8000")
    # a default port written out on one side only is the same place
    assert await opens(table, cookie, origin="http://testserver", host="testserver:80")


@pytest.mark.parametrize(
    "origin, host",
    [
        ("http://127.0.0.1:9999", "127.0.0.1:8000"),  # the issue's: another port, same machine
        ("http://testserver:9999", "testserver"),
        ("https://testserver", "testserver"),  # another scheme: a wss page is not this ws one
        ("http://evil.example", "testserver"),
        ("http://testserver.evil.example", "testserver"),
        ("null", "testserver"),
        ("http://testserver/page", "testserver"),
        ("http://evil.example", "evil.example"),  # a host the site does not serve (rebinding)
    ],
)
async def test_any_other_origin_is_refused_at_the_handshake(table, cookie, origin, host):
    assert not await opens(table, cookie, origin=origin, host=host)


async def test_no_origin_is_refused(table, cookie):
    assert not await opens(table, cookie, origin=None)


async def test_behind_a_tls_proxy_the_forwarded_scheme_counts(table, cookie, settings):
    """nginx ends TLS and daphne sees ws: with SECURE_PROXY_SSL_HEADER (production) the
    forwarded scheme is the socket's, as for Django's ``request.is_secure()``."""
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    tls = {"X-Forwarded-Proto": "https"}
    assert await opens(table, cookie, origin="https://testserver", headers=tls)
    assert not await opens(table, cookie, origin="http://testserver", headers=tls)
    assert not await opens(table, cookie, origin="https://testserver:8443", headers=tls)
    plain = {"X-Forwarded-Proto": "http"}
    assert await opens(table, cookie, origin="http://testserver", headers=plain)
    assert not await opens(table, cookie, origin="https://testserver", headers=plain)


async def test_without_the_proxy_setting_a_forwarded_scheme_is_not_trusted(table, cookie, settings):
    settings.SECURE_PROXY_SSL_HEADER = None
    assert not await opens(
        table, cookie, origin="https://testserver", headers={"X-Forwarded-Proto": "https"}
    )


async def test_csrf_trusted_origins_open_too(table, cookie, settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.example.com", "https://*.friends.example"]
    assert await opens(table, cookie, origin="https://play.example.com")
    assert await opens(table, cookie, origin="https://cards.friends.example")
    assert not await opens(table, cookie, origin="http://play.example.com")  # scheme
    assert not await opens(table, cookie, origin="https://other.example.com")
    assert not await opens(table, cookie, origin="https://friends.example.evil.example")
