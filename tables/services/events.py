"""Tell every socket on a table that it changed, once the transaction has committed.

The event carries the table id and its new version, never cards: each consumer reloads the
state and renders it for its own viewer.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from tables.models import Table

log = logging.getLogger(__name__)


def table_group(table_id: int) -> str:
    """The channel-layer group of a table's sockets."""
    return f"table-{table_id}"


def table_changed_event(table_id: int, version: int) -> dict:
    return {"type": "table.changed", "table_id": table_id, "version": version}


def table_touch(table: Table, *fields: str) -> None:
    """Bump ``table.version`` (caller holds the table row lock) and publish it on commit.

    ``fields``: other fields of ``table`` the caller changed, written in the same UPDATE.
    """
    table.version += 1
    values = {field: getattr(table, field) for field in fields}
    Table.objects.filter(pk=table.pk).update(version=table.version, **values)
    event = table_changed_event(table.pk, table.version)
    transaction.on_commit(lambda: _publish(event))


def _publish(event: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(table_group(event["table_id"]), event)
    except Exception:  # a lost notification must not undo a committed action
        log.exception("could not publish %s", event)
