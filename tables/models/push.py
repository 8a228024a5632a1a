"""Where a player's browsers take Web Push messages (the turn nudge while no table tab is in
front): one row per browser subscription, written by ``tables.services.push``."""

from __future__ import annotations

from django.db import models

from tables.models.players import Player


class PushSubscription(models.Model):
    """One browser's push subscription (``PushManager.subscribe``): the push service's
    ``endpoint`` URL and the browser's keys the message is encrypted to (RFC 8291)."""

    #: The longest endpoint URL kept (the push services' are a few hundred characters).
    MAX_ENDPOINT = 1000

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="push_subscriptions")
    # unique: a browser has one subscription per site, and it is the last account's to use it
    endpoint = models.URLField(max_length=MAX_ENDPOINT, unique=True)
    p256dh = models.CharField(max_length=100, help_text="The browser's P-256 public key.")
    auth = models.CharField(max_length=40, help_text="The browser's authentication secret.")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"push to {self.player_id} via {self.endpoint[:40]}"
