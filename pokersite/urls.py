"""Site URLs: lobby at ``/``, accounts, tables, tournaments, admin, the API (``/api/``), the
socket's protocol (``/api/asyncapi.json``) and each process's runtimes for its operators
(``/api/ops/runtimes/``: both served by ``tables.live``, which the API may not import)."""

from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from pokersite import accounts, pwa
from tables import views as table_views, views_clubs, views_hosting
from tables.api import urls as api_urls
from tables.live import asyncapi, operators

urlpatterns = [
    # Browsers and feed readers ask for /favicon.ico whatever the pages link.
    path("favicon.ico", RedirectView.as_view(url=static("icons/favicon-32.png"), permanent=True)),
    path("", table_views.lobby, name="lobby"),
    path("", include(pwa.urlpatterns)),
    path("accounts/", include(accounts.urlpatterns)),
    path("tables/", include("tables.urls")),
    path("join/<str:token>/", views_hosting.join, name="join"),
    path("join/<str:token>/guest/", views_hosting.join_guest, name="join_guest"),
    path("tournaments/", include("tables.tournaments.urls")),
    path("clubs/", include((views_clubs.urlpatterns, "clubs"))),
    path("imports/", include("tables.imports.urls")),
    path("admin/", admin.site.urls),
    path("api/asyncapi.json", asyncapi.asyncapi_json, name="asyncapi"),
    path("api/ops/runtimes/", operators.RuntimeFigures.as_view(), name="ops-runtimes"),
    path("api/", include((api_urls.tournament_urlpatterns, "tournaments_api"))),
    path("api/", include("tables.api.urls")),
    path("", include("tables.stats.urls")),
]
