"""Scheduled cash games open by themselves: the croupier's pass (``hooks.croupier_pass``)
opens every one whose time has come. A scheduled tournament needs nothing here: it is made
when scheduled and starts at its time by the tournaments' own timed start."""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.db.models import QuerySet

from tables.clubs.models import ClubEvent, ClubTable, ScheduledGame
from tables.db import statements
from tables.services import hosting
from tables.services.errors import ServiceError

log = logging.getLogger(__name__)


def open_due_games(now: datetime) -> None:
    """Open the table of each cash game due at ``now`` (once: ``opened_at`` is set in the same
    transaction, under the row's lock)."""
    # every croupier pass reads this (most often to find none due): one compiled statement,
    # the time compared here
    waiting = statements.select_values(
        ScheduledGame, "cash-games-waiting", _waiting, ScheduledGame.Kind.CASH
    )
    for pk in [pk for pk, starts_at in waiting if starts_at <= now]:
        _open(pk, now)


def _waiting(kind: str) -> QuerySet[ScheduledGame, tuple[int, datetime]]:
    """(pk, start time) of the scheduled games of ``kind`` not opened yet."""
    games = ScheduledGame.objects.filter(kind=kind, opened_at__isnull=True)
    return games.values_list("pk", "starts_at")


def _open(pk: int, now: datetime) -> None:
    with transaction.atomic():
        game = ScheduledGame.objects.select_for_update().filter(pk=pk).first()
        if game is None or game.opened_at is not None:
            return
        game.opened_at = now
        host = game.created_by or game.club.owner
        try:
            with transaction.atomic():
                table = hosting.table_create(
                    host=host, **{**game.settings, "name": game.name, "private": True}
                )
                ClubTable.objects.create(club=game.club, table=table)
        except (ServiceError, TypeError) as error:
            log.warning("club game %s did not open: %s", pk, error)
            ClubEvent.objects.create(
                club=game.club, kind="game_failed", actor=None, detail={"game": pk}
            )
            game.save(update_fields=["opened_at"])
            return
        game.table = table
        game.save(update_fields=["opened_at", "table"])
        ClubEvent.objects.create(
            club=game.club, kind="game_opened", actor=None, detail={"game": pk, "table": table.pk}
        )
