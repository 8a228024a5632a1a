"""A player's browsers' Web Push subscriptions (the turn nudge, ``tables.push`` sends them).

No lock: a subscription changes no table, no chip and no hand. Each function is one
transaction and raises ``InvalidSubscription`` having changed nothing. The server posts to a
subscription's endpoint, so it must be one of the push services ``POKER_PUSH_SERVICES``
names: never an address a visitor made up.
"""

from __future__ import annotations

import base64
import binascii
from functools import partial
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction

from tables.models import Player, PushSubscription
from tables.services import hooks
from tables.services.errors import InvalidSubscription


def push_subscribe(*, player: Player, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """Keep ``player``'s browser subscription (``PushSubscription.toJSON()``'s endpoint and
    keys): made, or taken over from the account that used this browser before."""
    if not push_service_allowed(endpoint):
        raise InvalidSubscription("That push service is not one this site sends to.")
    key, secret = _decoded(p256dh), _decoded(auth)
    if key is None or len(key) != 65 or key[0] != 4 or secret is None or len(secret) != 16:
        raise InvalidSubscription("The subscription's keys are not a browser's push keys.")
    with transaction.atomic():
        subscription, _ = PushSubscription.objects.update_or_create(
            endpoint=endpoint, defaults={"player": player, "p256dh": p256dh, "auth": auth}
        )
    for listener in hooks.push_subscribed:  # the sender counts them at once (tables.push)
        transaction.on_commit(partial(listener, player.pk))
    return subscription


def push_unsubscribe(*, player: Player, endpoint: str) -> bool:
    """Forget ``player``'s subscription at ``endpoint`` (the browser unsubscribed); False when
    they had none there."""
    deleted, _ = PushSubscription.objects.filter(player=player, endpoint=endpoint).delete()
    return deleted > 0


def push_forget(*, endpoint: str) -> None:
    """Forget a subscription its push service says is gone (404, 410): whoever's it was."""
    PushSubscription.objects.filter(endpoint=endpoint).delete()


def push_service_allowed(endpoint: str) -> bool:
    """``endpoint`` is at one of ``POKER_PUSH_SERVICES``: over https at that host or a host
    under it, or exactly an origin the list names."""
    if len(endpoint) > PushSubscription.MAX_ENDPOINT:
        return False
    try:
        parts = urlsplit(endpoint)
        host = (parts.hostname or "").lower()
        origin = f"{parts.scheme}://{parts.netloc}".lower()
    except ValueError:
        return False
    if not host or parts.username or parts.password:
        return False
    for service in settings.POKER_PUSH_SERVICES:
        service = service.lower().rstrip("/")
        if "://" in service:
            if origin == service:
                return True
        elif parts.scheme == "https" and (host == service or host.endswith("." + service)):
            return True
    return False


def _decoded(text: str) -> bytes | None:
    """Base64url (unpadded, as browsers write it) decoded; None if it is not."""
    if not isinstance(text, str) or len(text) > 200:
        return None
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None
