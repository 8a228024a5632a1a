"""Each library internal the site overrides or reads (pokersite/library_overrides.py) still is
what our code expects, on the installed library; and pyproject.toml pins each library to the
versions the registry says were checked. An upgrade that breaks one fails here, by name."""

import asyncio
import inspect
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
from channels.consumer import AsyncConsumer, get_handler_name
from django.contrib.auth import get_user_model
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

from pokersite import library_overrides
from pokersite.library_overrides import OVERRIDES
from tables.live.consumer import TableConsumer

ROOT = Path(__file__).resolve().parents[2]


def pins() -> dict[str, SpecifierSet]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = [Requirement(line) for line in project["dependencies"]]
    return {r.name.lower(): r.specifier for r in requirements}


@pytest.mark.parametrize("override", OVERRIDES, ids=lambda o: f"{o.library}:{o.where}")
def test_each_override_is_pinned_to_the_versions_it_was_checked_against(override):
    assert pins()[override.library.lower()] == SpecifierSet(override.checked)
    assert version(override.library) in SpecifierSet(override.checked)


def test_every_override_is_listed_and_every_listed_one_tested_here():
    named = {
        name
        for name, value in vars(library_overrides).items()
        if isinstance(value, library_overrides.Override)
    }
    assert len(named) == len(OVERRIDES)
    tests = {name.removeprefix("test_").upper() for name in globals() if name.startswith("test_")}
    assert named <= tests


# --- one test per override, named after it ------------------------------------------------


async def test_channels_dispatch():
    """What ``TableConsumer.dispatch`` leaves out of the library's is still only the
    ``aclose_old_connections`` hop: same handler lookup, same error for an unknown type."""
    source = inspect.getsource(AsyncConsumer.dispatch)
    assert "getattr(self, get_handler_name(message), None)" in source
    assert "await aclose_old_connections()" in source
    assert get_handler_name({"type": "table.changed"}) == "table_changed"
    consumer = TableConsumer()
    with pytest.raises(ValueError, match="No handler for message type nothing.here"):
        await consumer.dispatch({"type": "nothing.here"})
    seen = []
    consumer.probe_sent = lambda message: asyncio.sleep(0, seen.append(message["n"]))
    await consumer.dispatch({"type": "probe.sent", "n": 7})
    assert seen == [7]


def test_django_password_changed():
    user = get_user_model()(username="quinn")
    assert getattr(user, "_password", None) is None
    user.set_password("a-new-one-1")
    assert user._password == "a-new-one-1"  # a change: the raw password until saved
    source = inspect.getsource(get_user_model().check_password)
    assert "self._password = None" in source  # a re-hash at log-in is not a change


def test_daphne_web_request():
    """daphne still builds each request from its module's ``WebRequest`` and passes Twisted's
    keyword arguments on; Twisted still has the switch; the site's entry point installs ours.
    (tests/pokersite/test_http_bodies.py sends the bodies to a real daphne.)"""
    from daphne import http_protocol
    from twisted.web import http

    import pokersite.asgi  # noqa: F401 - installs the override, as daphne's start does
    from pokersite.http_bodies import WebRequest

    assert "requestFactory = WebRequest" in inspect.getsource(http_protocol.HTTPFactory)
    assert "**kwargs" in inspect.getsource(http_protocol.WebRequest.__init__)
    assert "parsePOSTFormSubmission" in inspect.signature(http.Request.__init__).parameters
    assert http_protocol.WebRequest is WebRequest
