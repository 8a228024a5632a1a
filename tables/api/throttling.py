"""Request rates: ``anon`` by address, ``user`` per account, ``play`` per account (so per
API token: an account has one) on the play endpoints, instead of ``user``.

The rates are read from ``settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` on each request
(not once at import like DRF's own classes), so a settings override takes effect at once.
``RATELIMIT_ENABLED=0``, the one switch of every request limit (tables/ratelimit.py),
turns them off too: no rate, no throttle.

The counts live in the cache (Redis in production). A process cut from Redis must still
serve (issue 55: it answered every API request with 500): when the cache fails, the request
goes through uncounted and a warning is logged, as the sign-up throttle does
(tables/ratelimit.py).
"""

import logging
from typing import Any, cast

from django.conf import settings
from rest_framework import throttling

log = logging.getLogger(__name__)


def _rate(scope: str | None) -> str | None:
    if not settings.RATELIMIT_ENABLED:
        return None
    # The settings are typed as their module declares them: a dict of mixed values.
    rates = cast("dict[str | None, str]", settings.REST_FRAMEWORK.get("DEFAULT_THROTTLE_RATES", {}))
    return rates.get(scope)


def _allowed_without_cache(throttle: throttling.SimpleRateThrottle, error: Exception) -> bool:
    log.warning(
        "API throttle %r not applied: the cache is unavailable (%s: %s)",
        throttle.scope,
        type(error).__name__,
        error,
    )
    return True


class AnonRateThrottle(throttling.AnonRateThrottle):
    def get_rate(self) -> str | None:
        return _rate(self.scope)

    def allow_request(self, request: Any, view: Any) -> bool:
        try:
            return super().allow_request(request, view)
        except Exception as error:  # noqa: BLE001 - fail open, see the module docstring
            return _allowed_without_cache(self, error)


class UserRateThrottle(throttling.UserRateThrottle):
    def get_rate(self) -> str | None:
        return _rate(self.scope)

    def allow_request(self, request: Any, view: Any) -> bool:
        try:
            return super().allow_request(request, view)
        except Exception as error:  # noqa: BLE001 - fail open, see the module docstring
            return _allowed_without_cache(self, error)


class PlayRateThrottle(UserRateThrottle):
    """The play API's own rate (``play``): a bot's state reads and moves."""

    scope = "play"
