"""The installable site: its service worker (``/sw.js``, scope ``/``) and the offline page the
worker shows when a page cannot load. The manifest is a static file (static/site.webmanifest).
``/push/subscription/``: a logged-in player's browser hands in (POST) or withdraws (DELETE)
its Web Push subscription for the turn nudge (``tables.push``), where the site has a VAPID key.

The worker is served from the site's root, not from /static/: a worker controls only the
pages under its own path (``Service-Worker-Allowed`` says the same), and a browser checks it
for updates on each visit, so it is never cached for long.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import path, reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_http_methods

from tables.services import player_get_or_create
from tables.services.errors import InvalidSubscription
from tables.services.push import push_subscribe, push_unsubscribe

#: The largest subscription body read (a browser's is a few hundred bytes).
MAX_SUBSCRIPTION_BYTES = 4096

#: Bump when the offline page or what it needs changes: the worker caches them afresh.
OFFLINE_VERSION = "2"


@require_GET
@cache_control(no_cache=True, max_age=0)
def service_worker(request: HttpRequest) -> HttpResponse:
    script = render_to_string(
        "pwa/service-worker.js",
        {
            "version": OFFLINE_VERSION,
            "offline_url": reverse("offline"),
            "site_css": static("css/site.css"),
            "icon": static("icons/icon.svg"),
            "icon_192": static("icons/icon-192.png"),
        },
    )
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    return render(request, "pwa/offline.html")


@require_http_methods(["POST", "DELETE"])
def push_subscription(request: HttpRequest) -> JsonResponse:
    """POST ``PushSubscription.toJSON()`` (``endpoint``, ``keys.p256dh``, ``keys.auth``) to
    keep it; DELETE ``{"endpoint"}`` to forget it. 404 where the site has no VAPID key."""
    if not settings.POKER_VAPID_PRIVATE_KEY:
        return _refused("This site sends no push messages.", "push_off", 404)
    if not request.user.is_authenticated:
        return _refused("Log in to be nudged on this browser.", "not_logged_in", 403)
    body = _json_body(request)
    endpoint = body.get("endpoint") if body is not None else None
    if not isinstance(endpoint, str):
        return _refused("Send the browser's subscription as JSON.", "invalid_subscription", 400)
    player = player_get_or_create(user=request.user)
    if request.method == "DELETE":
        return JsonResponse(
            {"subscribed": False, "was": push_unsubscribe(player=player, endpoint=endpoint)}
        )
    keys = body.get("keys") if body is not None else None
    keys = keys if isinstance(keys, dict) else {}
    try:
        push_subscribe(
            player=player,
            endpoint=endpoint,
            p256dh=str(keys.get("p256dh", "")),
            auth=str(keys.get("auth", "")),
        )
    except InvalidSubscription as error:
        return _refused(str(error), error.code, 400)
    return JsonResponse({"subscribed": True}, status=201)


def _json_body(request: HttpRequest) -> dict[str, Any] | None:
    if len(request.body) > MAX_SUBSCRIPTION_BYTES:
        return None
    try:
        body = json.loads(request.body)
    except ValueError:
        return None
    return body if isinstance(body, dict) else None


def _refused(message: str, code: str, status: int) -> JsonResponse:
    return JsonResponse({"error": message, "code": code}, status=status)


urlpatterns = [
    path("sw.js", service_worker, name="service_worker"),
    path("offline/", offline, name="offline"),
    path("push/subscription/", push_subscription, name="push_subscription"),
]
