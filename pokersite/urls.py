"""Site URLs: lobby at ``/``, accounts, tables, admin (the API adds ``/api/``)."""

from django.contrib import admin
from django.urls import include, path

from pokersite import accounts
from tables import views as table_views, views_hosting

urlpatterns = [
    path("", table_views.lobby, name="lobby"),
    path("accounts/", include(accounts.urlpatterns)),
    path("tables/", include("tables.urls")),
    path("join/<str:token>/", views_hosting.join, name="join"),
    path("admin/", admin.site.urls),
    path("api/", include("tables.api.urls")),
    path("", include("tables.stats.urls")),
]
