"""An uploaded PokerNow log, its hands and its ledger night: apart from the play-chip tables."""

from __future__ import annotations

from django.db import models

from engine import phh
from engine.phh.read import HandHistory
from tables.models import Player


class PokerNowImport(models.Model):
    """One upload: whose it is, which PokerNow name is theirs, what came in and what did not."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="pokernow_imports")
    pokernow_name = models.CharField(max_length=200, help_text="The player's `name @ id`.")
    filename = models.CharField(max_length=200, blank=True)
    unit = models.CharField(
        max_length=20, help_text="The log's smallest amount: one chip of the imported hands."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    hands_in_log = models.PositiveIntegerField(default=0)
    imported = models.PositiveIntegerField(default=0, help_text="New hands of this player.")
    already_imported = models.PositiveIntegerField(default=0)
    skipped = models.JSONField(default=list, help_text='[{"number": n, "reason": "..."}]')
    ledger = models.JSONField(
        default=list, help_text='The night\'s ledger: [{"player": "name @ id", "net": "12.50"}]'
    )
    settlement = models.JSONField(
        default=list, help_text='Who owes whom: [{"payer", "payee", "amount"}]'
    )
    figures = models.JSONField(
        default=dict,
        blank=True,
        help_text="The uploader's statistics sums (tables.stats): its hands never change.",
    )

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"PokerNow import {self.pk} of {self.pokernow_name}"


class ImportedHand(models.Model):
    """A PokerNow hand the player sat in, as PHH (the log shows only cards shown there)."""

    pokernow_import = models.ForeignKey(
        PokerNowImport, on_delete=models.CASCADE, related_name="hands"
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="imported_hands")
    pokernow_id = models.CharField(max_length=64, help_text="PokerNow's hand id.")
    number = models.PositiveIntegerField(help_text="The hand's number in the PokerNow game.")
    variant = models.CharField(max_length=10)
    phh = models.TextField()
    net = models.BigIntegerField(help_text="The player's result, in the import's unit.")
    ev_net = models.FloatField(
        null=True,
        blank=True,
        help_text="The player's all-in EV (the expected net at the all-in; the net without "
        "one), in the import's unit; empty when a hand at the all-in was never shown.",
    )

    class Meta:
        ordering = ["pokernow_import_id", "number"]
        constraints = [
            # uploading the same log twice imports nothing new
            models.UniqueConstraint(fields=["player", "pokernow_id"], name="imported_hand_once")
        ]

    def __str__(self) -> str:
        return f"PokerNow hand #{self.number} ({self.pokernow_id})"

    def history(self) -> HandHistory:
        """The hand as stored: its PHH read (an error names the hand)."""
        return phh.loads(self.phh, source=f"PokerNow hand #{self.number}")
