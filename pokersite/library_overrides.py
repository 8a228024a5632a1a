"""Every place the site overrides or relies on a library's internals, named once.

Each was measured worth it (or, for the last two, is the only way to get the behaviour);
each can break silently when the library changes. So for each: what is touched, where our
code does it, why, and the versions it was checked against. ``pyproject.toml`` pins each
library to its ``checked`` range, and ``tests/pokersite/test_library_overrides.py`` checks
every entry against the installed library (and that the pins match): an upgrade that breaks
one fails a test that names it, instead of slowing the site down or corrupting it quietly.

Upgrading a library: read its change log for the ``touches`` below, run that test, and widen
``checked`` here and the pin in ``pyproject.toml`` together.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Override:
    library: str  # the distribution, as pyproject.toml names it
    checked: str  # the versions it was checked against (a PEP 440 specifier = the pin)
    touches: str  # the library's internal
    where: str  # our code that overrides or reads it
    why: str


CHANNELS_DISPATCH = Override(
    library="channels",
    checked=">=4.3,<4.4",
    touches="channels.consumer.AsyncConsumer.dispatch (get_handler_name, "
    "aclose_old_connections before each handler)",
    where="tables.live.consumer.TableConsumer.dispatch",
    why="aclose_old_connections is a hop to the one thread shared by every write, for every "
    "table.changed of every socket; under load the writes queued behind it. Every database "
    "call of the consumer goes through tables.db.threads, which has Django look at its "
    "thread's connections there.",
)
DJANGO_PASSWORD_CHANGED = Override(
    library="Django",
    checked=">=5.2,<5.3",
    touches="AbstractBaseUser._password (the raw password set since the last save; None when "
    "check_password re-hashes it)",
    where="tables.live.sessions.on_user_saving",
    why="a password change ends the user's table sockets, but Django re-hashing a password at "
    "log-in (a hasher upgrade) is not a change.",
)

DAPHNE_WEB_REQUEST = Override(
    library="daphne",
    checked=">=4.2,<4.3",
    touches="daphne.http_protocol.WebRequest (the module global HTTPFactory.buildProtocol "
    "makes every request from) and its constructor passing Twisted's keyword arguments on",
    where="pokersite.http_bodies.install (called by pokersite.asgi)",
    why="Twisted parsed a POST's multipart body before the site and answered a malformed one "
    "with an empty 400 and no headers; with Twisted's parsePOSTFormSubmission=False the body "
    "reaches Django and the API answers it with its JSON 400.",
)

OVERRIDES: tuple[Override, ...] = (
    CHANNELS_DISPATCH,
    DJANGO_PASSWORD_CHANGED,
    DAPHNE_WEB_REQUEST,
)
