"""Production settings: the base settings with the safety switches on.

Requires ``SECRET_KEY`` in the environment (refuses to start without one). Expects TLS in
front (nginx or another proxy setting ``X-Forwarded-Proto``); ``manage.py check --deploy``
passes with no warnings.
"""

import os
import sys

from django.core.exceptions import ImproperlyConfigured

from pokersite.env import env_bool, env_int, env_list
from pokersite.settings import *  # noqa: F401,F403

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if len(SECRET_KEY) < 50 or SECRET_KEY.startswith("django-insecure"):
    raise ImproperlyConfigured(
        "pokersite.settings_production needs SECRET_KEY in the environment "
        "(at least 50 random characters, e.g. from "
        "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`)."
    )

DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1"])
# Limit every address, whatever RATELIMIT_EXEMPT says: behind a proxy one misconfigured
# header would make every client an exempt address (daphne --proxy-headers gives the
# client's address, not nginx's).
RATELIMIT_EXEMPT = []
# The limits stay on: RATELIMIT_ENABLED=0 left over from a test run would open log-in to
# password guessing. Turning them off here takes a second, explicit switch, and is said.
if not RATELIMIT_ENABLED:  # noqa: F405 - from pokersite.settings
    if not env_bool("RATELIMIT_DISABLE_IN_PRODUCTION", False):
        raise ImproperlyConfigured(
            "RATELIMIT_ENABLED=0 is refused in production: it turns off the log-in, sign-up "
            "and invitation-code limits. Set RATELIMIT_DISABLE_IN_PRODUCTION=1 too if you "
            "really mean it."
        )
    sys.stderr.write(
        "WARNING: the log-in, sign-up and invitation-code limits are OFF in production "
        "(RATELIMIT_ENABLED=0, RATELIMIT_DISABLE_IN_PRODUCTION=1).\n"
    )

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
