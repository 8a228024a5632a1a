"""Request bodies reach the site whole: daphne's HTTP server does not parse forms itself.

Twisted's ``http.Request`` (daphne's ``WebRequest`` under it) parses a POST's
``multipart/form-data`` body into ``request.args`` before daphne hands the request on, and
answers one it cannot parse (no boundary, ``--x--``) with an empty ``400`` and no headers:
the site never saw it, and a client got no JSON error. daphne never reads ``request.args``
(it passes the raw body to the ASGI application), so that parse is only cost and risk.
Twisted's own switch, ``parsePOSTFormSubmission=False``, turns it off; daphne builds its
requests from its module's ``WebRequest`` (``HTTPFactory.buildProtocol``), which ``install``
replaces with one that passes the switch. Then Django parses the body, and the API answers
a malformed one with its JSON ``400`` (``tables.api.bodies``).

Overrides a library internal: ``pokersite.library_overrides`` (DAPHNE_WEB_REQUEST).
"""

from __future__ import annotations

from typing import Any

from daphne import http_protocol


class WebRequest(http_protocol.WebRequest):  # type: ignore[misc]  # daphne ships no types
    """daphne's request, with Twisted's own parse of form bodies turned off."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["parsePOSTFormSubmission"] = False
        super().__init__(*args, **kwargs)


def install() -> None:
    """Every request daphne builds from now on is a ``WebRequest`` of this module."""
    http_protocol.WebRequest = WebRequest
