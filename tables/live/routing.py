"""Websocket routes: ``ws/tables/<id>/`` is the table's live socket (``TableConsumer``)."""

from django.urls import path

from tables.live.consumer import TableConsumer

websocket_urlpatterns: list = [
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
]
