"""``/tournaments/...`` pages (namespace ``tournaments``); the API's ``/api/tournaments/...`` are
in ``tables.api.urls``."""

from django.urls import path

from tables.tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_lobby, name="lobby"),
    path("new/", views.tournament_new, name="new"),
    path("new/structure/", views.tournament_structure, name="structure"),
    path("join/<str:token>/", views.tournament_join, name="join"),
    path("<int:tournament_id>/", views.tournament_page, name="detail"),
    path("<int:tournament_id>/standings/", views.tournament_standings, name="standings"),
    path("<int:tournament_id>/edit/", views.tournament_edit, name="edit"),
    path("<int:tournament_id>/deal/", views.tournament_deal, name="deal"),
    path("<int:tournament_id>/deal/answer/", views.tournament_deal_answer, name="deal-answer"),
    path("<int:tournament_id>/<str:action>/", views.tournament_action, name="action"),
    path("tables/<int:table_id>/level/", views.table_level, name="table-level"),
]
