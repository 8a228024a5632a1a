"""``/tables/...`` URLs (namespace ``tables``)."""

from django.urls import path

from tables import views, views_hosting, views_hud, views_ledger, views_room

app_name = "tables"

urlpatterns = [
    path("new/", views_hosting.table_new, name="new"),
    path("<int:table_id>/", views.table_detail, name="detail"),
    path("<int:table_id>/hud/", views_hud.table_hud_fragment, name="hud"),
    path("<int:table_id>/tv/", views_room.room_screen, name="tv"),
    path("<int:table_id>/ledger/", views_ledger.table_ledger_page, name="ledger"),
    path("<int:table_id>/hosting/", views_hosting.hosting_panel, name="hosting"),
    path("<int:table_id>/host/<str:control>/", views_hosting.host_control, name="host"),
    path("<int:table_id>/broadcast/", views_hosting.broadcast_answer, name="broadcast"),
    path("<int:table_id>/hands/<int:number>/", views.hand_detail, name="hand"),
]
