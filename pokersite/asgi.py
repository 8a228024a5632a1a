"""ASGI entry point: HTTP through Django, websockets through Channels.

Websocket routes live in ``tables.live.routing.websocket_urlpatterns``; sockets are
authenticated with the session (``AuthMiddlewareStack``), and a handshake from anywhere but
the site's own pages is refused with HTTP 403 (``pokersite.origins``); any other is accepted
before the session is read (``tables.live.admission.accept_at_once``: a connect rush), unless
the process is cut off from its database (``tables.live.database_reach``: refused, HTTP 403).
The operators' ``/healthz``, ``/readyz`` and ``/metrics`` are answered ahead of Django
(``pokersite.ops``); SIGTERM drains the process before it stops (``pokersite.draining``).
"""

import os
from typing import cast

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokersite.settings")

# Django must be set up before anything imports models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from pokersite import http_bodies  # noqa: E402
from pokersite.draining import drain_on_sigterm  # noqa: E402
from pokersite.ops import operator_endpoints  # noqa: E402
from pokersite.origins import SiteOriginValidator  # noqa: E402
from tables.croupier import autostart  # noqa: E402
from tables.http import Application  # noqa: E402
from tables.live.admission import accept_at_once  # noqa: E402
from tables.live.database_reach import refuse_while_cut_off  # noqa: E402
from tables.live.routing import websocket_urlpatterns  # noqa: E402

# Request bodies reach Django whole (daphne's server parses no forms of its own).
http_bodies.install()

# The table sockets, authenticated by the session: an ASGI 3 application (the channels stub's
# return type also names ASGI 2's class form, which this stack never is).
sockets = cast(Application, AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))

# The croupier (clocks, bots, next hands) starts with the process's first connection.
application = autostart(
    ProtocolTypeRouter(
        {
            # /healthz, /readyz and /metrics ahead of Django (pokersite.ops).
            "http": operator_endpoints(django_asgi_app),
            # A process cut from its database refuses handshakes (HTTP 403): nginx tries
            # another (tables.live.database_reach).
            "websocket": SiteOriginValidator(refuse_while_cut_off(accept_at_once(sockets))),
        }
    )
)

# SIGTERM (systemd's stop) drains the process before it exits (pokersite.draining).
drain_on_sigterm()

# Last, once the code is loaded: freeze it and space out collections, and let the database
# threads have the interpreter lock sooner (see the modules).
from pokersite.gc_policy import tune_server_gc  # noqa: E402
from pokersite.gil_policy import tune_server_switching  # noqa: E402

tune_server_gc()
tune_server_switching()
