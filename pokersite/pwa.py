"""The installable site: its service worker (``/sw.js``, scope ``/``) and the offline page the
worker shows when a page cannot load. The manifest is a static file (static/site.webmanifest).

The worker is served from the site's root, not from /static/: a worker controls only the
pages under its own path (``Service-Worker-Allowed`` says the same), and a browser checks it
for updates on each visit, so it is never cached for long.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import path, reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

#: Bump when the offline page or what it needs changes: the worker caches them afresh.
OFFLINE_VERSION = "1"


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
        },
    )
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    return render(request, "pwa/offline.html")


urlpatterns = [
    path("sw.js", service_worker, name="service_worker"),
    path("offline/", offline, name="offline"),
]
