"""Request rates: ``anon`` by address, ``user`` per account, ``play`` per account (so per
API token: an account has one) on the play endpoints, instead of ``user``.

The rates are read from ``settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` on each request
(not once at import like DRF's own classes), so a settings override takes effect at once.
``RATELIMIT_ENABLED=0``, the one switch of every request limit (tables/ratelimit.py),
turns them off too: no rate, no throttle.
"""

from typing import cast

from django.conf import settings
from rest_framework import throttling


def _rate(scope: str | None) -> str | None:
    if not settings.RATELIMIT_ENABLED:
        return None
    # The settings are typed as their module declares them: a dict of mixed values.
    rates = cast("dict[str | None, str]", settings.REST_FRAMEWORK.get("DEFAULT_THROTTLE_RATES", {}))
    return rates.get(scope)


class AnonRateThrottle(throttling.AnonRateThrottle):
    def get_rate(self) -> str | None:
        return _rate(self.scope)


class UserRateThrottle(throttling.UserRateThrottle):
    def get_rate(self) -> str | None:
        return _rate(self.scope)


class PlayRateThrottle(UserRateThrottle):
    """The play API's own rate (``play``): a bot's state reads and moves."""

    scope = "play"
