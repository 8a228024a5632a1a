"""Settings for the poker site.

Every environment variable the site reads is read here, checked by ``pokersite.env``'s
readers (a malformed value stops the process at start-up with ``ImproperlyConfigured``
naming the variable), with its default named beside it; the code reads
``django.conf.settings``. Safe embedded defaults for local use:

- ``SECRET_KEY``: a fixed development key when unset (never used by ``settings_production``).
- ``DEBUG``: ``1``/``true``/``yes`` turns it on (``make dev``); off by default.
- ``ALLOWED_HOSTS``: comma-separated; ``localhost,127.0.0.1,[::1]`` by default.
- ``DATABASE_URL``: any dj-database-url URL; a SQLite file ``db.sqlite3`` by default.
- ``REDIS_URL``: when set, channels-redis carries events between server processes; otherwise
  the in-memory channel layer (one process only). Several, comma-separated: the channel layer
  shards its groups over them (each table's group on one); the cache uses the first.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
import django_stubs_ext

from pokersite.env import (
    env_bool,
    env_float,
    env_int,
    env_list,
    env_networks,
    env_numbers,
    refuse,
    vapid_public_key,
)

# QuerySet[Model], ModelAdmin[Model] and the generic forms, subscripted in class bases, work
# at run time as they do for the type checker.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent

SECRET_KEY = os.environ.get("SECRET_KEY") or "django-insecure-local-development-only-key"
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "axes",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "tables",
    "tables.tournaments",
    "tables.stats",
    "tables.imports",
    "tables.clubs",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # An API body that cannot be read: a JSON 400 before any view (tables/api/bodies.py).
    "tables.api.bodies.RequestBodyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "tables.ratelimit.RateLimitMiddleware",  # sign-up throttle (issue 7)
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: turns a locked-out log-in into its 429 page.
    "axes.middleware.AxesMiddleware",
]

# django-axes first: it refuses a locked-out account or address before any password is
# checked, on every way in (tables/ratelimit.py); ModelBackend then logs the user in.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "pokersite.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "pokersite.preferences.display",
            ],
        },
    },
    {
        # The table screen's partials, rendered for every viewer on every change (see
        # pokersite/jinja2.py).
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "pokersite.jinja2.environment", "autoescape": True},
    },
]

WSGI_APPLICATION = None
ASGI_APPLICATION = "pokersite.asgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        # A server database's connections are kept for a minute: the server's threads make
        # a database call for every action and update, and a new PostgreSQL connection for
        # each (CONN_MAX_AGE=0) cost more than most of those calls.
        conn_max_age=env_int("CONN_MAX_AGE", 60),
        # A persistent connection that a database blip broke is checked and replaced before
        # its next use, instead of failing that request (issue 7).
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # BEGIN IMMEDIATE: a transaction takes SQLite's write lock when it starts, so two writers
    # queue up (like select_for_update on PostgreSQL) instead of failing half way through.
    # WAL: readers (the table sockets' renders, on their own threads) never wait for the
    # writer and the writer never waits for them; synchronous=NORMAL is durable in WAL mode
    # except for the last transactions on a power cut. One connection per thread is kept
    # open (opening SQLite and running the pragmas on every read cost more than the read).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
        }
    )
    if "CONN_MAX_AGE" not in os.environ:
        DATABASES["default"]["CONN_MAX_AGE"] = None
    if os.environ.get("TEST_DATABASE_NAME"):
        # e.g. a file, so that a server subprocess can share the test database.
        DATABASES["default"]["TEST"] = {"NAME": os.environ["TEST_DATABASE_NAME"]}
elif "postgresql" in DATABASES["default"]["ENGINE"]:
    # A database host lost from the network fails a call within seconds, not after TCP's own
    # timeouts (minutes, a table frozen meanwhile): a connect gives up after 3 s, and a
    # connection whose data the server has not acknowledged for 3 s is dropped (libpq's
    # tcp_user_timeout; a long query is not cut: the server acknowledges it at once). The
    # process then lets its tables go (issue 55, tables/live/database_reach.py).
    for option, value in {"connect_timeout": 3, "tcp_user_timeout": 3000}.items():
        DATABASES["default"].setdefault("OPTIONS", {}).setdefault(option, value)

# Redis Cluster is not supported by channels-redis; sharding over several servers is.
REDIS_URLS = env_list("REDIS_URL", [])
REDIS_URL = REDIS_URLS[0] if REDIS_URLS else ""
# Names of this site's channels, groups and cache keys in a Redis shared with others.
CHANNEL_PREFIX = os.environ.get("CHANNEL_PREFIX", "asgi")
if REDIS_URL:
    # channels-redis's pub/sub layer: a change is one PUBLISH that Redis hands to every
    # process following the table (each follows it on one connection it already reads),
    # where the list-based layer took three round trips and a script per group_send and a
    # blocking pop per process to get it back: at 100 tables about a quarter of the server's
    # CPU per action (docs/benchmarks.md). It keeps nothing for a
    # process that is not listening: what a Redis restart drops, each process's table
    # runtimes catch up from the database (``tables.live.runtime.TableRuntime.catch_up``).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [{"address": url} for url in REDIS_URLS],
                "prefix": CHANNEL_PREFIX,
            },
        }
    }
else:
    # One process: each table's runtime is the one member of its group.
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# The cache (rate-limit counters) is shared by every server process when Redis is there.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": CHANNEL_PREFIX + "-cache",
            # A Redis host cut off fails each call within a second (the limits counted here
            # then let the request through, tables/api/throttling.py), not after TCP's minutes.
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
# Limits on log-in and sign-up (tables/ratelimit.py); 0 turns them off.
RATELIMIT_ENABLED = env_bool("RATELIMIT_ENABLED", True)
# Addresses never limited, comma-separated: none unless set ("" is none too).
RATELIMIT_EXEMPT = env_list("RATELIMIT_EXEMPT", [])
# Sign-up throttle: (url name, POSTs allowed, per seconds) per address, counted in this cache.
RATELIMIT_RULES = (("signup", 10, 3600), ("join_guest", 10, 3600))
RATELIMIT_CACHE = "default"
#: Wrong club invitation codes: (limit, seconds) per account and per address.
RATELIMIT_WRONG_CODES = (10, 15 * 60)
# Log-in lock-outs, by django-axes: 10 failures for one account (its canonical name) or from
# one address lock both out for 15 minutes after the last; counted in the database, so every
# server process shares them.
AXES_ENABLED = RATELIMIT_ENABLED
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_FAILURE_LIMIT = 10
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = False
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_DISABLE_ACCESS_LOG = True
AXES_CLIENT_IP_CALLABLE = "tables.ratelimit.client_address"
AXES_USERNAME_CALLABLE = "tables.ratelimit.login_username"
AXES_WHITELIST_CALLABLE = "tables.ratelimit.is_exempt"
AXES_LOCKOUT_CALLABLE = "tables.ratelimit.login_locked_out"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "lobby"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# The web app manifest's type, which whitenoise's table (nginx's) lacks.
WHITENOISE_MIMETYPES = {".webmanifest": "application/manifest+json"}
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REST_FRAMEWORK: dict[str, Any] = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first: an API call without credentials gets 401 + WWW-Authenticate: Token.
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # The API: JSON only, errors as {"message": ...}, lists paginated, requests rate-limited.
    "DEFAULT_SCHEMA_CLASS": "tables.api.schema.AutoSchema",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "EXCEPTION_HANDLER": "tables.api.exceptions.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "tables.api.pagination.Pagination",
    "PAGE_SIZE": 50,
    "DEFAULT_THROTTLE_CLASSES": [
        "tables.api.throttling.AnonRateThrottle",
        "tables.api.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("API_THROTTLE_ANON", "60/minute"),
        "user": os.environ.get("API_THROTTLE_USER", "600/minute"),
        "play": os.environ.get("API_THROTTLE_PLAY", "300/minute"),
    },
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Poker site API",
    "DESCRIPTION": (
        "Tables, playing at them, hand histories and player statistics.\n\n"
        "**Authentication**: `Authorization: Token <key>` (get the key from "
        "`POST /api/auth/token/`), or the site's session cookie.\n\n"
        "**Playing**: `GET /api/tables/{id}/state/` is what you may know of a table (protocol "
        "1: the same object the table's `?state=json` socket sends as `state`); the play "
        "endpoints (`actions`, `seat`, `sit-out`, `sit-in`, `top-up`) answer with your new "
        "state. An action names the `hand` and the `version` it was decided on: a stale one is "
        "refused (409 `stale_version`) and nothing is done.\n\n"
        '**Errors** are `{"code", "message"}`: `code` is stable and machine-readable '
        "(`not_your_turn`, `stale_version`, `below_min_raise`, `table_full`, "
        "`buy_in_out_of_range`, ...), `message` is for people.\n\n"
        "**Idempotency**: any POST may carry an `Idempotency-Key` header (a new key per "
        "request): a retry with the same key gets the first answer again "
        "(`Idempotent-Replayed: true`) and acts once. Keys are kept 24 hours per user.\n\n"
        "**Rate limits** (429 with `Retry-After` beyond them): the play endpoints "
        f"{REST_FRAMEWORK['DEFAULT_THROTTLE_RATES']['play']} per account (one token each), "
        f"other endpoints {REST_FRAMEWORK['DEFAULT_THROTTLE_RATES']['user']} per account and "
        f"{REST_FRAMEWORK['DEFAULT_THROTTLE_RATES']['anon']} per address without logging in."
    ),
    "VERSION": "1.0.0",
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SERVE_AUTHENTICATION": [],
    # Swagger UI and Redoc served from drf-spectacular-sidecar's static files (no CDN).
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "SERVE_INCLUDE_SCHEMA": False,
    # The docs page links the table socket's protocol (tables.live.asyncapi).
    "EXTERNAL_DOCS": {
        "description": "The live table socket: protocol version 1 (AsyncAPI 3)",
        "url": "/api/asyncapi.json",
    },
    # A seat request's kind (sit down, top up) beside the hand actions' and the ledger's.
    "ENUM_NAME_OVERRIDES": {
        "SeatRequestKindEnum": "tables.models.SeatRequest.Kind",
        "TournamentStatusEnum": "tables.tournaments.models.Tournament.Status",
        # the games of engine.variants: a table's (mixed games too), a hand's, dealer's choice's
        "GameEnum": "tables.models.Table.GAME_CHOICES",
        "HandGameEnum": "tables.models.Table.HAND_GAMES",
        "GamePickEnum": "tables.models.Table.PICKS",
    },
}

# POKER_LOG_FORMAT=json: one JSON object per line and record (time, level, logger, message,
# and the table and hand ids a record carries: pokersite/logs.py); "text" (the default): the
# readable lines.
POKER_LOG_FORMAT = os.environ.get("POKER_LOG_FORMAT", "text").strip().lower() or "text"
if POKER_LOG_FORMAT not in ("text", "json"):
    refuse("POKER_LOG_FORMAT", POKER_LOG_FORMAT, "text or json")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "pokersite.logs.JsonFormatter"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            **({"formatter": "json"} if POKER_LOG_FORMAT == "json" else {}),
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}


# --- Operations -----------------------------------------------------------------------------
# Who may read a process's /metrics without a staff token (pokersite/ops.py): addresses or
# CIDR networks, comma-separated; the machine itself by default.
POKER_METRICS_ALLOWED = env_networks("POKER_METRICS_ALLOWED", ["127.0.0.1/32", "::1/128"])
# Seconds a stopping process (SIGTERM) waits for its tables' hands to end before handing them
# over mid-hand (pokersite/draining.py); systemd's TimeoutStopSec is longer.
POKER_DRAIN_SECONDS = env_float("POKER_DRAIN_SECONDS", 60.0)

# --- The game -------------------------------------------------------------------------------
# Chips every new player gets on sign-up (a "grant" ledger entry).
POKER_STARTING_GRANT = env_int("POKER_STARTING_GRANT", 10_000)
# Seconds between the end of a hand and the start of the next (showdown stays on screen).
POKER_HAND_PAUSE_SECONDS = env_float("POKER_HAND_PAUSE_SECONDS", 4.0)
# Seconds each street of an all-in run-out stays on screen before the next one is dealt (the
# players' hands face up, their chances beside them); 0 shows the whole run-out at once.
POKER_RUNOUT_PAUSE_SECONDS = env_float("POKER_RUNOUT_PAUSE_SECONDS", 1.5)
# Seconds after the betting ended that a run-out's street waits for its chances (computed by
# the croupier off the write path, usually well within the first pause); past that the
# streets go on without them ("…") and they show when they come.
POKER_RUNOUT_ODDS_WAIT_SECONDS = env_float("POKER_RUNOUT_ODDS_WAIT_SECONDS", 5.0)
# Seconds a player who left a table (cashed out) waits before sitting down there again: stops
# seat churn (bots and players who went bust may sit down at once). 0 turns the wait off.
POKER_RESEAT_WAIT_SECONDS = env_float("POKER_RESEAT_WAIT_SECONDS", 30.0)
# Seconds (min,max) a bot thinks before acting, like a person would (fixed per decision).
POKER_BOT_DELAY = env_numbers(
    "POKER_BOT_DELAY",
    (0.8, 2.2),
    parse=float,
    valid=lambda delay: delay[0] <= delay[1],
    expected="two numbers of seconds, min,max, like 0.8,2.2",
)
# The croupier (clocks, bots, next hands: tables/croupier.py) runs in each server
# process, started with its first connection; 0 leaves it to `manage.py croupier`.
POKER_CROUPIER = env_bool("POKER_CROUPIER", True)
# Threads per server process that run table writes in parallel on a server database
# (PostgreSQL): each table's writes always on the same one, in order. SQLite has one writer
# at a time, so there every write runs on the one thread Django and Channels share.
POKER_WRITE_THREADS = env_int("POKER_WRITE_THREADS", 4)
# Threads per server process that run reads off the shared sync thread (the sockets'
# renders), on a server database: each keeps its connection (tables/db/threads.py).
POKER_READ_THREADS = env_int("POKER_READ_THREADS", 6, minimum=1)
# Table sockets one user may have open per server process: on one table, and in all (more
# are closed with 4429; nginx sends all of a table's sockets to one process).
POKER_SOCKETS_PER_USER_TABLE = env_int("POKER_SOCKETS_PER_USER_TABLE", 4, minimum=1)
POKER_SOCKETS_PER_USER = env_int("POKER_SOCKETS_PER_USER", 24, minimum=1)
# Logged-out visitors' (spectators') table sockets per address (an IPv6 /64) per server
# process: they have no user to count under.
POKER_SPECTATOR_SOCKETS_PER_ADDRESS = env_int("POKER_SPECTATOR_SOCKETS_PER_ADDRESS", 8, minimum=1)
# A server process's garbage-collector thresholds (pokersite/gc_policy.py): three whole
# numbers, like the interpreter's own 700,10,10.
POKER_GC_THRESHOLDS = env_numbers(
    "POKER_GC_THRESHOLDS",
    (10_000, 100, 100),
    parse=int,
    valid=lambda numbers: numbers[0] >= 1,
    expected="three whole numbers like 700,10,10 (the first at least 1)",
)
# Seconds between a server process's collections of the youngest generation (0: only when
# the thresholds say; pokersite/gc_policy.py).
POKER_GC_YOUNG_SECONDS = env_float("POKER_GC_YOUNG_SECONDS", 0.1)
# Milliseconds a thread waiting for the interpreter lock waits before the thread holding it
# must let it in (pokersite/gil_policy.py; the interpreter's own default is 5).
POKER_SWITCH_INTERVAL_MS = env_float("POKER_SWITCH_INTERVAL_MS", 1.0, minimum=0.05)


# Web Push for the turn nudge (tables/push.py, docs/production.md): with a VAPID private key
# set, a player who opted in gets a push message when it becomes their turn and no table tab
# is in front. Unset: no Web Push (the page's own notification still comes while it is open).
POKER_VAPID_PRIVATE_KEY = os.environ.get("POKER_VAPID_PRIVATE_KEY", "").strip()
POKER_VAPID_PUBLIC_KEY = (
    vapid_public_key(POKER_VAPID_PRIVATE_KEY) if POKER_VAPID_PRIVATE_KEY else ""
)
# Who the push services may write to about this site's messages (mailto: or https:).
POKER_VAPID_SUBJECT = os.environ.get("POKER_VAPID_SUBJECT", "").strip()
if POKER_VAPID_PRIVATE_KEY and not POKER_VAPID_SUBJECT.startswith(("mailto:", "https:")):
    refuse("POKER_VAPID_SUBJECT", POKER_VAPID_SUBJECT, "a mailto: or https: address")
# The push services a browser's subscription may name (https, the host or a domain above it):
# the server posts to that address, so it is never one a visitor makes up. An entry written
# as an origin (http://127.0.0.1:8765) allows exactly that one (tests, a local push service).
POKER_PUSH_SERVICES = env_list(
    "POKER_PUSH_SERVICES",
    [
        "fcm.googleapis.com",
        "push.services.mozilla.com",
        "notify.windows.com",
        "push.apple.com",
    ],
)
