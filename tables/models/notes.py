"""Private notes on other players: one note and colour label per author and subject, seen by
its author alone (``tables.services.notes`` writes them, ``tables.selectors.notes`` reads)."""

from __future__ import annotations

from django.db import models

from tables.models.players import Player


class PlayerNote(models.Model):
    """``author``'s note on ``subject``: a text and a colour label, shown to ``author`` only."""

    #: The longest note, in characters.
    MAX_TEXT = 500

    class Label(models.TextChoices):
        NONE = "", "No label"
        RED = "red", "Red"
        ORANGE = "orange", "Orange"
        YELLOW = "yellow", "Yellow"
        GREEN = "green", "Green"
        BLUE = "blue", "Blue"
        PURPLE = "purple", "Purple"

    author = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="notes_written")
    subject = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    text = models.CharField(max_length=MAX_TEXT, blank=True)
    label = models.CharField(max_length=8, choices=Label.choices, blank=True, default="")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["author", "subject__user__username"]
        constraints = [
            models.UniqueConstraint(fields=["author", "subject"], name="player_note_unique"),
            models.CheckConstraint(
                condition=~models.Q(author=models.F("subject")), name="player_note_not_self"
            ),
            models.CheckConstraint(
                condition=~models.Q(text="", label=""), name="player_note_not_empty"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.author} on {self.subject}"
