"""A night's game stays reachable once it is over (issue 31, item 9): ``recent_games`` and
the access of who bought in at a private game."""

from __future__ import annotations

import pytest

from tables.models import Table
from tables.selectors.access import can_see_table
from tables.selectors.recent import recent_games
from tables.services.hosting import table_host_close
from tables.services.players import player_sign_up
from tables.services.seats import seat_leave, seat_take

pytestmark = pytest.mark.django_db


def test_a_closed_private_game_stays_in_its_players_recent_games_and_visible_to_them():
    host = player_sign_up(username="host", password="pw-long-enough-1")
    ben = player_sign_up(username="ben", password="pw-long-enough-1")
    outsider = player_sign_up(username="outsider", password="pw-long-enough-1")
    earlier = Table.objects.create(name="Earlier")
    seat_take(table=earlier, player=ben, buy_in=100)
    seat_leave(table=earlier, player=ben)
    night = Table.objects.create(name="Friday", private=True, host=host)
    seat_take(table=night, player=ben, buy_in=100)
    assert table_host_close(table=night, by=host.user)
    night.refresh_from_db()
    assert night.status == Table.Status.CLOSED and not night.seats.exists()
    assert recent_games(ben) == [night, earlier]  # the latest chips moved first
    assert can_see_table(night, ben.user)  # no seat, no invitation: he bought in here
    assert not can_see_table(night, outsider.user)
    assert recent_games(outsider) == []
