"""Which server process owns a live table: one lease row per table (``tables.runtime.lease``
takes, renews and gives it up; nothing else writes it).

A table's runtime (``tables.runtime``) lives in exactly one process at a time. The lease says
which (``owner``: the process's name) and until when (``until``, the database's clock). A
process takes a lease that is free or expired, renews the ones it holds, and renews the one of
the table it acts on inside that action's own transaction: an owner whose lease was taken
(it lost the database for longer than the lease) cannot commit a single action, and stops.
"""

from __future__ import annotations

from django.db import models

from tables.models.tables import Table


class TableLease(models.Model):
    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, primary_key=True, related_name="lease"
    )
    owner = models.CharField(
        max_length=120, blank=True, help_text="The server process that runs the table now."
    )
    channel = models.CharField(
        max_length=200,
        blank=True,
        help_text="The owner's channel for the table: where other processes send its commands.",
    )
    until = models.DateTimeField(
        null=True, blank=True, help_text="When the lease expires unless its owner renews it."
    )
    #: Bumped each time the lease changes hands: the runtime's generation.
    epoch = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"table {self.table_id} run by {self.owner or 'nobody'}"
