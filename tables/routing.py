"""Websocket routes (``ws/tables/<id>/``); filled in by the live-play issue."""

websocket_urlpatterns: list = []
