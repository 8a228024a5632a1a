"""``/tables/...`` URLs (namespace ``tables``)."""

from django.urls import path

from tables import views

app_name = "tables"

urlpatterns = [
    path("<int:table_id>/", views.table_detail, name="detail"),
    path("<int:table_id>/hands/<int:number>/", views.hand_detail, name="hand"),
]
