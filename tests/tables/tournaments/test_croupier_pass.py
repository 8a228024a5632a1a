"""The croupier's pass starts the tournaments due at their time (``tournaments_start_due``,
read with a compiled statement, the time compared in Python). The croupier logs a pass's
error and goes on, so this calls it itself. (Deals lapsing: ``test_deals``; club games
opening: ``tests/tables/clubs/test_services``.)"""

from datetime import timedelta

import pytest
from django.utils import timezone

from tables.tournaments.models import Tournament
from tables.tournaments.services.create import tournament_create
from tables.tournaments.services.setup import tournaments_start_due
from tests.tables.tournaments.helpers import make_player

pytestmark = pytest.mark.django_db

Start, Status = Tournament.Start, Tournament.Status


def test_tournaments_start_at_their_time_and_not_before():
    now = timezone.now()
    organiser = make_player("organiser")
    due = tournament_create(
        organiser=organiser, name="Due", bot_entrants=2, start=Start.AT_TIME, start_at=now
    )
    later = tournament_create(
        organiser=organiser,
        name="Later",
        bot_entrants=2,
        start=Start.AT_TIME,
        start_at=now + timedelta(minutes=5),
    )
    by_hand = tournament_create(organiser=organiser, name="By hand", bot_entrants=2)

    assert tournaments_start_due(now) == [due.pk]
    assert tournaments_start_due(now) == []  # once
    statuses = dict(Tournament.objects.values_list("pk", "status"))
    assert statuses == {
        due.pk: Status.RUNNING,
        later.pk: Status.REGISTERING,
        by_hand.pk: Status.REGISTERING,
    }
    assert tournaments_start_due(now + timedelta(minutes=5)) == [later.pk]
