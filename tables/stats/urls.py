"""Browser pages for statistics and hand histories: ``/players/<id>/stats/``, ``/hands/<id>/``."""

from django.urls import path

from tables.stats import views

app_name = "stats"

urlpatterns = [
    path("players/me/stats/", views.my_stats, name="mine"),
    path("players/<int:player_id>/stats/", views.player_stats_page, name="player"),
    path("hands/<int:hand_id>/", views.hand_replayer, name="hand"),
    path("leaderboard/", views.leaderboard_page, name="leaderboard"),
]
