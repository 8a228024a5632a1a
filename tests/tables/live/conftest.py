"""What every test of the live tables needs before its body runs."""

import pytest


@pytest.fixture(scope="session", autouse=True)
def _asgi_loaded():
    """The ASGI application, loaded before the first test's body: loading it sets Django up
    again, and that logging set-up drops the handler ``caplog`` listens with, so a test that
    loaded it first (its first socket) and then looked at its logs heard nothing."""
    import pokersite.asgi  # noqa: F401
