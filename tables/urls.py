"""``/tables/...`` URLs (namespace ``tables``)."""

from django.urls import path

from tables import views, views_ledger

app_name = "tables"

urlpatterns = [
    path("<int:table_id>/", views.table_detail, name="detail"),
    path("<int:table_id>/ledger/", views_ledger.table_ledger_page, name="ledger"),
    path("<int:table_id>/hands/<int:number>/", views.hand_detail, name="hand"),
]
