"""Limits on log-in and sign-up: too many tries get ``429 Too Many Requests``.

Log-in. Every way in (the log-in form, ``/admin/login/``, the API's ``/api/auth/token/``),
and the password-change form's old password (``pokersite.accounts.PasswordChangeForm``: a
stolen session must not guess it without limit), goes through
``django.contrib.auth.authenticate``, which django-axes watches: its backend,
first in ``AUTHENTICATION_BACKENDS``, refuses a locked-out account or address before the
password is checked, and its database handler counts each failure (Django's
``user_login_failed`` signal) in its ``AccessAttempt`` table, so all server processes share the
counts. ``AXES_FAILURE_LIMIT`` failures (10) for one account or from one address, each within
``AXES_COOLOFF_TIME`` (15 minutes) of the one before, lock that account and that address out
of every way in until ``AXES_COOLOFF_TIME`` after the last counted failure. Meanwhile even the
right password is refused, and refused tries are not counted (they do not prolong the lock).
A successful log-in counts nothing and clears nothing (clearing would let anyone with an
account of their own wipe their address's failures between guesses). The account is keyed on
``tables.usernames.canonical``, so ``ｃａｒｏｌ`` and ``CAROL`` count against carol's one
counter. Admins see and clear lock-outs in the admin ("Access attempts") or with
``manage.py axes_reset``. The form and the admin get an HTML page, the API its JSON error
(``tables.api.views.ObtainToken``), each with ``Retry-After``.

Sign-up. ``RateLimitMiddleware``: a fixed-window counter per (rule, address) in Django's cache
(Redis whenever ``REDIS_URL`` is set, so processes share it); ``RATELIMIT_RULES``, each
``(url name, limit, seconds)``, by default 10 sign-up POSTs per hour per address. If the cache
is unreachable the request goes through (logged): a throttle must not take sign-up down.

Invitation codes. A club's code is guessed one wrong try at a time: ``wrong_code_wait`` and
``wrong_code_counted`` count the wrong ones per account and per address (a fixed window in the
same cache, ``RATELIMIT_WRONG_CODES``: 10 per 15 minutes by default); past the limit every try
is refused, even the right code, until the window ends (the page: 429 with ``Retry-After``;
the API: 429 ``throttled``). Right codes count nothing.

``RATELIMIT_ENABLED=0`` turns all three off (refused by the production settings unless
``RATELIMIT_DISABLE_IN_PRODUCTION=1`` says so too, pokersite/settings_production.py).
``RATELIMIT_EXEMPT`` lists addresses never limited:
none unless set (the test suite and the browser tests exempt loopback themselves). Behind
nginx, run daphne with ``--proxy-headers`` and have nginx set (not append to)
``X-Forwarded-For``, so that the address is the client's, not the proxy's nor one the client
made up (deploy/nginx.conf).
"""

from __future__ import annotations

import ipaddress
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import Resolver404, resolve

from tables.usernames import canonical

log = logging.getLogger(__name__)

LOCKED_OUT = "Too many failed log-ins for this account or from this address."


@dataclass(frozen=True)
class Rule:
    """``limit`` POSTs per ``seconds`` to one URL name from one address."""

    url_name: str
    limit: int
    seconds: int


def client_address(request: HttpRequest) -> str | None:
    """The address limits count against (axes' address callable): the client's IPv4 address,
    or its IPv6 /64 (one machine or home network usually holds a whole /64); ``None`` when
    the server was given no valid address."""
    return address_key(request.META.get("REMOTE_ADDR"))


def address_key(raw: str | None) -> str | None:
    """``raw`` (a request's or a socket's peer address) as limits count it: IPv4 as it is,
    IPv6 as its /64; ``None`` when it is no valid address."""
    try:
        address = ipaddress.ip_address(raw or "")
    except ValueError:
        return None
    if address.version == 6:
        if address.ipv4_mapped:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False).network_address)
    return str(address)


def is_exempt(request: HttpRequest, credentials: dict[str, Any] | None = None) -> bool:
    """Whether the request's address is never limited (also axes' whitelist callable)."""
    return request.META.get("REMOTE_ADDR") in settings.RATELIMIT_EXEMPT


def login_username(request: HttpRequest, credentials: dict[str, Any] | None = None) -> str | None:
    """The account a log-in try counts against (axes' username callable)."""
    if credentials:
        return canonical(credentials.get("username"))
    return canonical(getattr(request, "data", request.POST).get("username"))


def lockout_seconds() -> int:
    """How long a lock-out lasts at most, from now."""
    return int(settings.AXES_COOLOFF_TIME.total_seconds())


def login_locked_out(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """The form's and the admin's answer to a locked-out log-in (axes' lockout callable)."""
    seconds = lockout_seconds()
    return refusal(request, f"{LOCKED_OUT} Try again in {_minutes(seconds)}.", seconds)


def refusal(request: HttpRequest, message: str, retry_after: int) -> HttpResponse:
    """A ``429`` page saying why and for how long (also in ``Retry-After``)."""
    response = render(request, "accounts/too_many.html", {"message": message}, status=429)
    response["Retry-After"] = str(retry_after)
    return response


def _minutes(seconds: int) -> str:
    minutes = max(1, -(-seconds // 60))
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def _rules() -> tuple[Rule, ...]:
    """``RATELIMIT_RULES``: ``Rule``s or (url name, limit, seconds) triples."""
    return tuple(
        rule if isinstance(rule, Rule) else Rule(*rule) for rule in settings.RATELIMIT_RULES
    )


class RateLimitMiddleware:
    """Refuses a POST with ``429`` once its rule's limit is reached in the current window."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method != "POST" or not settings.RATELIMIT_ENABLED:
            return self.get_response(request)
        if is_exempt(request):
            return self.get_response(request)
        try:
            url_name = resolve(request.path_info).url_name
        except Resolver404:
            return self.get_response(request)
        rules = [rule for rule in _rules() if rule.url_name == url_name]
        if not rules:
            return self.get_response(request)
        cache = caches[settings.RATELIMIT_CACHE]
        now = time.time()
        keys = [(rule, _key(rule, request, now)) for rule in rules]
        try:
            counts = cache.get_many([key for _, key in keys])
        except Exception:  # noqa: BLE001 - fail open, see the module docstring
            log.exception("rate limit cache unavailable; letting %s through", url_name)
            return self.get_response(request)
        for rule, key in keys:
            if counts.get(key, 0) >= rule.limit:
                retry = rule.seconds - int(now) % rule.seconds
                message = f"Too many sign-ups from here: try again in {_minutes(retry)}."
                return refusal(request, message, retry)
        try:
            for rule, key in keys:
                if not cache.add(key, 1, timeout=rule.seconds + 1):
                    try:
                        cache.incr(key)
                    except ValueError:  # expired between add and incr
                        cache.add(key, 1, timeout=rule.seconds + 1)
        except Exception:  # noqa: BLE001
            log.exception("rate limit cache unavailable while counting %s", url_name)
        return self.get_response(request)


def _key(rule: Rule, request: HttpRequest, now: float) -> str:
    window = int(now // rule.seconds)
    return f"ratelimit:{rule.url_name}:ip:{client_address(request) or 'unknown'}:{window}"


WRONG_CODES = "Too many wrong invitation codes for this account or from this address."


def _wrong_code_keys(request: HttpRequest, seconds: int, now: float) -> list[str]:
    window = int(now // seconds)
    address = client_address(request) or "unknown"
    account = canonical(request.user.get_username()) if request.user.is_authenticated else None
    return [
        f"ratelimit:wrong_code:account:{account or 'unknown'}:{window}",
        f"ratelimit:wrong_code:ip:{address}:{window}",
    ]


def wrong_code_wait(request: HttpRequest) -> int | None:
    """Seconds until the request's account (keyed as log-in's, ``canonical``) and address may
    try an invitation code again (``None``: they may now)."""
    if not settings.RATELIMIT_ENABLED or is_exempt(request):
        return None
    limit, seconds = settings.RATELIMIT_WRONG_CODES
    now = time.time()
    try:
        counts = caches[settings.RATELIMIT_CACHE].get_many(_wrong_code_keys(request, seconds, now))
    except Exception:  # noqa: BLE001 - fail open, as the middleware
        log.exception("rate limit cache unavailable; letting an invitation code through")
        return None
    if max(counts.values(), default=0) >= limit:
        return seconds - int(now) % seconds
    return None


def wrong_code_counted(request: HttpRequest) -> None:
    """Count one wrong invitation code against the request's account and address."""
    if not settings.RATELIMIT_ENABLED or is_exempt(request):
        return
    _, seconds = settings.RATELIMIT_WRONG_CODES
    cache = caches[settings.RATELIMIT_CACHE]
    try:
        for key in _wrong_code_keys(request, seconds, time.time()):
            if not cache.add(key, 1, timeout=seconds + 1):
                try:
                    cache.incr(key)
                except ValueError:  # expired between add and incr
                    cache.add(key, 1, timeout=seconds + 1)
    except Exception:  # noqa: BLE001
        log.exception("rate limit cache unavailable while counting a wrong invitation code")


def wrong_code_refusal(request: HttpRequest, retry_after: int) -> HttpResponse:
    """The page's answer past the wrong-code limit."""
    return refusal(request, f"{WRONG_CODES} Try again in {_minutes(retry_after)}.", retry_after)
