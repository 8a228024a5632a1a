"""Request and ASGI types for the type checker."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class AuthenticatedRequest(HttpRequest):
    """The request of a view that only a logged-in user reaches (``login_required``, an API
    view with ``IsAuthenticated``): its ``user`` is a ``User``, never the anonymous one."""

    user: User


#: An ASGI connection's scope, receive and send, as the site's own middleware (origin check,
#: handshake admission, croupier start) handle them; an application takes those three (its
#: parameters left open: Django's and channels' applications type them more narrowly).
Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
Application = Callable[..., Awaitable[None]]


class HtmxRequest(HttpRequest):
    """A request through django-htmx's middleware: ``htmx`` says whether htmx sent it."""

    htmx: HtmxDetails


#: Whoever makes a request: a user, or the anonymous one (``request.user``).
Viewer = User | AnonymousUser
