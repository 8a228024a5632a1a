"""HTTP throttles on log-in and sign-up: too many tries from one address get ``429``.

A fixed-window counter per (rule, client address) — and for log-in also per username, so a
password cannot be guessed from many addresses at once — kept in Django's cache. With several
server processes the cache must be shared: settings use Redis for it whenever ``REDIS_URL``
is set. Only ``POST`` requests count (showing the forms is free), and for log-in only the
failed ones, so a person who types the right password is never locked out by their own
successful log-ins.

Rules (``RATELIMIT_RULES`` in settings, each ``(url name, what counts, limit, seconds)``)::

    login   failed POSTs   20 per 5 min per address, 10 per 5 min per username
    signup  every POST     10 per hour per address

``RATELIMIT_ENABLED=0`` turns the throttles off. ``RATELIMIT_EXEMPT`` lists addresses never
throttled: loopback in the development settings (local play, the test suite, the load
benchmark), none in production. Behind nginx, run daphne with ``--proxy-headers`` so that the client
address is the real one (``X-Forwarded-For``), not the proxy's. If the cache is unreachable
the request goes through (logged): a throttle must not take log-in down with it.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import caches
from django.http import HttpResponse
from django.urls import Resolver404, resolve

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Rule:
    """``limit`` counted requests per ``seconds`` for one URL name, keyed ``by`` ip/username."""

    url_name: str
    by: str  # "ip" or "username"
    limit: int
    seconds: int
    failed_only: bool = False


DEFAULT_RULES = (
    Rule("login", "ip", 20, 300, failed_only=True),
    Rule("login", "username", 10, 300, failed_only=True),
    Rule("signup", "ip", 10, 3600),
)


def _rules() -> tuple[Rule, ...]:
    return tuple(getattr(settings, "RATELIMIT_RULES", DEFAULT_RULES))


def client_address(request) -> str:
    return request.META.get("REMOTE_ADDR") or "unknown"


def _key(rule: Rule, request) -> str | None:
    if rule.by == "ip":
        who = client_address(request)
    else:
        who = (request.POST.get("username") or "").strip().lower()[:150]
        if not who:
            return None
    window = int(time.time() // rule.seconds)
    return f"ratelimit:{rule.url_name}:{rule.by}:{who}:{window}"


class RateLimitMiddleware:
    """Refuses with ``429 Too Many Requests`` once a rule's limit is reached in its window."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method != "POST" or not getattr(settings, "RATELIMIT_ENABLED", True):
            return self.get_response(request)
        if client_address(request) in getattr(settings, "RATELIMIT_EXEMPT", ()):
            return self.get_response(request)
        try:
            url_name = resolve(request.path_info).url_name
        except Resolver404:
            return self.get_response(request)
        rules = [r for r in _rules() if r.url_name == url_name]
        if not rules:
            return self.get_response(request)
        cache = caches[getattr(settings, "RATELIMIT_CACHE", "default")]
        keys = [(rule, _key(rule, request)) for rule in rules]
        keys = [(rule, key) for rule, key in keys if key]
        try:
            counts = cache.get_many([key for _, key in keys])
        except Exception:  # noqa: BLE001 - fail open, see the module docstring
            log.exception("rate limit cache unavailable; letting %s through", url_name)
            return self.get_response(request)
        for rule, key in keys:
            if counts.get(key, 0) >= rule.limit:
                return too_many(rule)
        response = self.get_response(request)
        failed = response.status_code != 302  # auth views redirect on success
        try:
            for rule, key in keys:
                if failed or not rule.failed_only:
                    if cache.add(key, 1, timeout=rule.seconds + 1):
                        continue
                    try:
                        cache.incr(key)
                    except ValueError:  # expired between add and incr
                        cache.add(key, 1, timeout=rule.seconds + 1)
        except Exception:  # noqa: BLE001
            log.exception("rate limit cache unavailable while counting %s", url_name)
        return response


def too_many(rule: Rule) -> HttpResponse:
    retry = rule.seconds - int(time.time()) % rule.seconds
    what = "log-in attempts" if rule.url_name == "login" else "sign-ups"
    response = HttpResponse(
        f"Too many {what} from here: try again in {max(1, retry // 60)} minute(s).",
        status=429,
        content_type="text/plain; charset=utf-8",
    )
    response["Retry-After"] = str(retry)
    return response
