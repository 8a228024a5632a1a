"""Site URLs: lobby at ``/``, accounts, tables, tournaments, admin (the API adds ``/api/``)."""

from django.contrib import admin
from django.urls import include, path

from pokersite import accounts
from tables import views as table_views, views_hosting
from tables.tournaments import urls as tournament_urls

urlpatterns = [
    path("", table_views.lobby, name="lobby"),
    path("accounts/", include(accounts.urlpatterns)),
    path("tables/", include("tables.urls")),
    path("join/<str:token>/", views_hosting.join, name="join"),
    path("tournaments/", include("tables.tournaments.urls")),
    path("admin/", admin.site.urls),
    path("api/", include((tournament_urls.api_urlpatterns, "tournaments_api"))),
    path("api/", include("tables.api.urls")),
    path("", include("tables.stats.urls")),
]
