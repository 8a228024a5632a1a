"""What every test of the live tables needs before its body runs."""

import pytest

from tables.services import seat_take
from tests.tables.wsclient import session_cookie


@pytest.fixture(scope="session", autouse=True)
def _asgi_loaded():
    """The ASGI application, loaded before the first test's body: loading it sets Django up
    again, and that logging set-up drops the handler ``caplog`` listens with, so a test that
    loaded it first (its first socket) and then looked at its logs heard nothing."""
    import pokersite.asgi  # noqa: F401


@pytest.fixture
def cookies(players, table):
    """The first player seated at seat 0 of ``table`` (200 chips), and every player's session
    cookie, in the order of ``players``."""
    seat_take(table=table, player=players[0], buy_in=200, seat_number=0)
    return [session_cookie(p.user) for p in players]
