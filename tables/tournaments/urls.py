"""``/tournaments/...`` pages (namespace ``tournaments``) and ``/api/tournaments/...``
(``api_urlpatterns``, namespace ``tournaments_api``)."""

from django.urls import path

from tables.tournaments import api, views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_lobby, name="lobby"),
    path("new/", views.tournament_new, name="new"),
    path("join/<str:token>/", views.tournament_join, name="join"),
    path("<int:tournament_id>/", views.tournament_page, name="detail"),
    path("<int:tournament_id>/standings/", views.tournament_standings, name="standings"),
    path("<int:tournament_id>/<str:action>/", views.tournament_action, name="action"),
    path("tables/<int:table_id>/level/", views.table_level, name="table-level"),
]

api_urlpatterns = [
    path("tournaments/", api.TournamentListCreate.as_view(), name="list"),
    path("tournaments/<str:pk>/", api.TournamentDetail.as_view(), name="detail"),
    path("tournaments/<str:pk>/registration/", api.Registration.as_view(), name="registration"),
    path("tournaments/<str:pk>/start/", api.Start.as_view(), name="start"),
    path("tournaments/<str:pk>/rebuy/", api.Rebuy.as_view(), name="rebuy"),
]
