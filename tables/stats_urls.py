"""Browser pages for statistics and hand histories: ``/players/<id>/stats/``, ``/hands/<id>/``."""

from django.urls import path

from tables import stats_views

app_name = "stats"

urlpatterns = [
    path("players/me/stats/", stats_views.my_stats, name="mine"),
    path("players/<int:player_id>/stats/", stats_views.player_stats_page, name="player"),
    path("hands/<int:hand_id>/", stats_views.hand_replayer, name="hand"),
    path("leaderboard/", stats_views.leaderboard_page, name="leaderboard"),
]
