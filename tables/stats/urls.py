"""Browser pages for statistics and hand histories: ``/players/<id>/stats/``, ``/hands/<id>/``,
``/shared/<token>/``."""

from django.urls import path

from tables.stats import note_views, views

app_name = "stats"

urlpatterns = [
    path("players/me/stats/", views.my_stats, name="mine"),
    path("players/<int:player_id>/stats/", views.player_stats_page, name="player"),
    path("players/<int:player_id>/note/", note_views.player_note_page, name="player-note"),
    path("hands/<int:hand_id>/", views.hand_replayer, name="hand"),
    path("hands/<int:hand_id>/share/", views.hand_share_page, name="hand-share"),
    path("shared/<str:token>/", views.shared_hand_page, name="shared"),
    path("shared/<str:token>/revoke/", views.hand_share_revoke_page, name="shared-revoke"),
    path("leaderboard/", views.leaderboard_page, name="leaderboard"),
]
