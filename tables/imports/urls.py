"""``/imports/``: PokerNow logs uploaded by a player."""

from django.urls import path

from tables.imports import views

app_name = "imports"

urlpatterns = [
    path("", views.imports_page, name="list"),
    path("<int:import_id>/", views.import_page, name="detail"),
    path("hands/", views.imported_hands_page, name="hands"),
    path("hands/<int:hand_id>/", views.imported_hand_page, name="hand"),
    path("hands/<int:hand_id>/replay/", views.imported_hand_replayer, name="replay"),
]
