"""Websocket routes: ``ws/tables/<id>/`` is the table's live socket (``TableConsumer``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django.urls import path

from tables.live.consumer import TableConsumer

if TYPE_CHECKING:
    from channels.routing import URLRouter, _ExtendedURLPattern

# django-stubs' ``path`` takes views only, and channels' stubs call a route to an ASGI
# application a pattern of their own: the routes as ``URLRouter`` takes them.
websocket_urlpatterns = cast(
    "list[_ExtendedURLPattern | URLRouter]",
    [
        path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),  # type: ignore[arg-type]
    ],
)
