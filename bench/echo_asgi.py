"""The site's ASGI application plus a bare Channels echo consumer, for ``bench_load.py``.

``ws/echo/<room>/`` goes through the same origin check, session authentication and channel
layer as ``ws/tables/<id>/``, but does no game work: a frame sent by one socket is broadcast
to every socket in its room (``group_send``), like a table change. Comparing the two on the
same server, with the same clients, shows what the game itself costs.

Only the benchmark serves this module (``daphne bench.echo_asgi:application``); the site's
own ``pokersite.asgi`` never mounts the echo route.
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokersite.settings")

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.urls import path  # noqa: E402

from pokersite.asgi import django_asgi_app  # noqa: E402  (sets Django up first)
from tables.croupier import autostart  # noqa: E402
from tables.live.admission import accept_at_once  # noqa: E402
from tables.live.routing import websocket_urlpatterns  # noqa: E402


class EchoConsumer(AsyncWebsocketConsumer):
    """Broadcast every text frame to the room: the cheapest possible "table"."""

    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        self.group = f"echo-{self.scope['url_route']['kwargs']['room']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        if text_data is not None and len(text_data) <= 4096:
            await self.channel_layer.group_send(
                self.group, {"type": "echo.message", "text": text_data}
            )

    async def echo_message(self, event):
        await self.send(text_data=event["text"])


application = autostart(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": AllowedHostsOriginValidator(
                accept_at_once(
                    AuthMiddlewareStack(
                        URLRouter(
                            [
                                path("ws/echo/<str:room>/", EchoConsumer.as_asgi()),
                                *websocket_urlpatterns,
                            ]
                        )
                    )
                )
            ),
        }
    )
)
