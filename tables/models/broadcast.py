"""Each seated player's agreement to the hole-card broadcast of a table (issue 53): one row
while they agree, none once they withdraw (``tables.services.broadcast`` writes them)."""

from __future__ import annotations

from django.db import models

from tables.models.players import Player
from tables.models.tables import Table


class BroadcastConsent(models.Model):
    """``player`` agrees that spectators of ``table`` see their hole cards after its delay
    (the delay and the room screen as they were when they agreed: a change asks again)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="broadcast_consents")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "player"], name="broadcast_consent_unique")
        ]

    def __str__(self) -> str:
        return f"{self.player} agrees at {self.table}"
