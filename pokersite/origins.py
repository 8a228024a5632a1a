"""Which web pages may open the site's websockets: the site's own origin and
``CSRF_TRUSTED_ORIGINS``, nothing else.

A browser sends the session cookie with a websocket handshake from any page, so a socket's
``Origin`` is all that tells the site's own table page from another page on the web (or
another port of the same machine). ``SiteOriginValidator`` refuses a handshake (HTTP 403,
before anything else runs) unless

- its ``Host`` is one of ``ALLOWED_HOSTS`` (as Django checks every HTTP request), and
- its ``Origin`` is the request's own origin, the same scheme (``ws`` goes with ``http``,
  ``wss`` with ``https``), host and port, or one of ``CSRF_TRUSTED_ORIGINS`` (``*.`` for
  subdomains, as Django's CSRF check reads it).

A handshake with neither an ``Origin`` nor a cookie is not a browser's (a browser always
sends its page's origin): a program such as the ``poker`` client, which has no session to
borrow and logs in with an API token (``tables.live.auth``). It passes when its ``Host`` is
served here; with a cookie and no ``Origin`` it is refused like any other.

Behind nginx, TLS ends at the proxy and daphne sees plain ``ws``: the scheme then comes from
``SECURE_PROXY_SSL_HEADER`` (production: ``X-Forwarded-Proto``), trusted exactly as Django
trusts it for ``request.is_secure()``. Daphne (even with ``--proxy-headers``) puts no
``scheme`` in a websocket's scope; a server that does (``wss``) is honoured.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain

#: An ASGI connection scope, and an ASGI callable (an application, ``receive`` or ``send``).
Scope = dict[str, Any]
ASGICallable = Callable[..., Awaitable[Any]]

_DEFAULT_PORTS = {"http": "80", "https": "443"}


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            text: str = value.decode("latin1")
            return text
    return None


def _scheme(scope: Scope) -> str:
    """``http`` or ``https``: the page scheme that goes with this socket's own scheme."""
    proxy = settings.SECURE_PROXY_SSL_HEADER
    if proxy:
        name, secure_value = proxy
        # Django's META name (HTTP_X_FORWARDED_PROTO) as the header it came from.
        value = _header(scope, name.removeprefix("HTTP_").replace("_", "-").lower().encode())
        if value is not None:
            return "https" if value.split(",", 1)[0].strip() == secure_value else "http"
    return "https" if scope.get("scheme") in ("wss", "https") else "http"


def _allowed_hosts() -> list[str]:
    hosts = settings.ALLOWED_HOSTS
    if settings.DEBUG and not hosts:  # as Django: local names only
        return [".localhost", "127.0.0.1", "[::1]"]
    return hosts


def _place(scheme: str, netloc: str) -> tuple[str, str, str]:
    """(scheme, host, port) with the scheme's default port filled in."""
    host, port = split_domain_port(netloc.lower())
    return scheme, host, port or _DEFAULT_PORTS.get(scheme, "")


def _trusted(origin: str) -> bool:
    """``origin`` is one of ``CSRF_TRUSTED_ORIGINS`` (exactly, or under a ``*.`` entry)."""
    trusted = [entry.lower() for entry in settings.CSRF_TRUSTED_ORIGINS]
    if origin in trusted:
        return True
    parts = urlsplit(origin)
    for entry in trusted:
        if "*" in entry:
            pattern = urlsplit(entry)
            if pattern.scheme == parts.scheme and is_same_domain(
                parts.netloc, pattern.netloc.lstrip("*")
            ):
                return True
    return False


def origin_allowed(scope: Scope) -> bool:
    """Whether this websocket handshake comes from one of the site's own pages."""
    host = _header(scope, b"host")
    origin = _header(scope, b"origin")
    if not host:
        return False
    domain, _ = split_domain_port(host.lower())
    if not domain or not validate_host(domain, _allowed_hosts()):
        return False
    if not origin:
        return _header(scope, b"cookie") is None  # a program: it logs in with a token
    origin = origin.strip().lower()
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    if (
        parts.scheme in _DEFAULT_PORTS
        and parts.netloc
        and not (parts.path or parts.query or parts.fragment or parts.username)
    ):
        scheme = _scheme(scope)
        if _place(parts.scheme, parts.netloc) == _place(scheme, host):
            return True
    return _trusted(origin)


class SiteOriginValidator:
    """ASGI middleware: a websocket from anywhere but the site's own pages is refused at the
    handshake (HTTP 403); other requests pass through."""

    def __init__(self, application: ASGICallable) -> None:
        self.application = application

    async def __call__(self, scope: Scope, receive: ASGICallable, send: ASGICallable) -> Any:
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
