"""Who a table socket belongs to when it is not a browser's: an API token.

A browser's socket is authenticated by its session cookie (``AuthMiddlewareStack``) and
always sends an ``Origin`` (``pokersite.origins``). A program (the ``poker`` client, a bot)
sends no cookie and authenticates with its API token (``/api/auth/token/``), either

- in a header of the handshake: ``Authorization: Token <key>``, or
- in its first frame: ``{"op": "auth", "token": "<key>"}`` (``?state=json`` sockets only),
  within ``AUTH_WAIT_SECONDS`` of connecting.

Never in the URL: a query string ends up in access logs, so a token there is not read at all.
A wrong token is refused with the code ``invalid_token`` and the socket closed
(``protocol.NOT_LOGGED_IN``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token

#: Seconds a ``?state=json`` socket without a log-in has to send its ``auth`` frame.
AUTH_WAIT_SECONDS = 10.0

INVALID_TOKEN = "The API token is not valid: log in again to get one."
NOT_AUTHENTICATED = 'Log in first: send {"op": "auth", "token": "<your API token>"}.'


def header_token(scope: Mapping[str, Any]) -> str | None:
    """The key of an ``Authorization: Token <key>`` handshake header ("" for a malformed
    one, None without the header)."""
    for name, value in scope.get("headers", ()):
        if name == b"authorization":
            scheme, _, key = value.decode("latin1").strip().partition(" ")
            return key.strip() if scheme.lower() == "token" else ""
    return None


def token_user(key: object) -> User | None:
    """The active user whose API token is ``key``, else None (any other value: None)."""
    if not isinstance(key, str) or not key or len(key) > 64:
        return None
    token = Token.objects.select_related("user").filter(key=key).first()
    if token is None:
        return None
    user: User = token.user  # the stubs type the token's user as Any
    return user if user.is_active else None
