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
from django.db import connection, transaction
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

from pokersite import library_overrides
from pokersite.library_overrides import OVERRIDES
from tables.db import statements
from tables.live.consumer import TableConsumer
from tables.models import Table
from tables.presenters.render import render

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


def test_jinja_root_render(db):
    """``render`` gives exactly what Jinja's own ``Template.render`` gives, escaping included."""
    from tables.presenters.render import _template

    compiled = _template("tables/_message.html")
    context = {"message": "<b>hi</b> & bye", "oob": True, "error": True}
    assert str(render("tables/_message.html", **context)) == compiled.render(**context)
    assert "&lt;b&gt;" in str(render("tables/_message.html", **context))
    assert set(inspect.signature(compiled.new_context).parameters) >= {"vars", "shared"}


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


def test_django_sql_compiler(make_table):
    """The compiler's parts ``statements`` reads keep their shapes, and the compiled row lock
    reads the row the ORM reads (more in tests/tables/db/test_statements.py)."""
    table = make_table()
    compiler = Table.objects.filter(pk=table.pk).query.get_compiler(connection=connection)
    sql, params = compiler.as_sql()
    assert isinstance(sql, str) and tuple(params) == (table.pk,)
    assert all(len(column) == 3 for column in compiler.select)
    assert isinstance(compiler.get_converters([c for c, _, _ in compiler.select]), dict)
    assert isinstance(compiler.annotation_col_map, dict)
    with transaction.atomic():
        locked = statements.lock_row(Table, table.pk)
    assert (locked.pk, locked.name, locked.version, locked.created_at) == (
        table.pk,
        table.name,
        table.version,
        table.created_at,
    )


@pytest.mark.django_db
def test_django_prefetch_cache():
    user = get_user_model().objects.create_user("pat", password="pw-pw-pw-1")
    (found,) = get_user_model().objects.filter(pk=user.pk).prefetch_related("groups")
    assert found._prefetched_objects_cache["groups"] is not None
    assert getattr(get_user_model().objects.get(pk=user.pk), "_prefetched_objects_cache", {}) == {}


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
