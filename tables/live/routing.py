"""Websocket routes: ``ws/tables/<id>/`` is the table's live socket (``TableConsumer``)."""

from django.urls import URLPattern, path

from tables.live.consumer import TableConsumer

websocket_urlpatterns: list[URLPattern] = [
    # django-stubs' ``path`` takes views only; channels' router takes ASGI applications too.
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),  # type: ignore[arg-type]
]
