"""Hosted games: invited guests, seat and top-up requests, chat, the host's notices."""

from __future__ import annotations

from django.db import models

from tables.models.base import AppendOnlyModel
from tables.models.players import Player
from tables.models.tables import Table


class TableGuest(models.Model):
    """A player who opened a game's invite link (so may see a private game), and their chat mute.

    Seated players and the host see a private game without a row here; a replaced invite token
    does not remove guests who already came in.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="guests")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="guest_of")
    muted = models.BooleanField(default=False, help_text="The host muted this player's chat.")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "player"], name="table_guest_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.table}"


class SeatRequest(models.Model):
    """A request the host answers: to sit down (``SEAT``) or to add chips (``TOP_UP``).

    Pending requests expire after a few minutes; the answer is kept for the player to see.
    """

    class Kind(models.TextChoices):
        SEAT = "seat", "Sit down"
        TOP_UP = "top_up", "Top-up"

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        APPROVED = "approved", "Approved"
        DECLINED = "declined", "Declined"
        EXPIRED = "expired", "Expired"
        CANCELLED = "cancelled", "Cancelled"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seat_requests")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="seat_requests")
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.SEAT)
    amount = models.PositiveBigIntegerField(help_text="The buy-in or the top-up asked for.")
    seat_number = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["table", "status"])]

    def __str__(self) -> str:
        return f"{self.player} asks {self.get_kind_display().lower()} {self.amount} at {self.table}"


class ChatMessage(AppendOnlyModel):
    """One line of table chat (append-only), plain text as typed: escaped wherever shown."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    text = models.CharField(max_length=280)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "id"]
        indexes = [models.Index(fields=["table", "-id"])]

    def __str__(self) -> str:
        return f"{self.player}: {self.text[:40]}"


class TableNotice(AppendOnlyModel):
    """One announcement in a table's log (append-only): what the host (or the site) changed,
    and when it takes effect.

    Where it stands among the hand log's lines is kept with it, so every screen shows it in
    the same place: ``hand_number`` is the table's latest hand when it was posted (0: none
    yet), ``after_actions`` how many decisions that hand had then, or None when the hand was
    over (the notice comes after it, before the next hand).
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="notices")
    text = models.CharField(max_length=300)
    created_at = models.DateTimeField(auto_now_add=True)
    hand_number = models.PositiveIntegerField(default=0)
    after_actions = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["table", "id"]
        indexes = [models.Index(fields=["table", "hand_number"])]

    def __str__(self) -> str:
        return f"{self.table}: {self.text[:40]}"
