"""Who sees a private game and who runs it (tables.selectors.access)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from tables.models import Table, TableGuest
from tables.selectors.access import can_host, can_see_table, tables_visible_to
from tables.services.players import player_sign_up
from tables.services.seats import seat_take

pytestmark = pytest.mark.django_db


@pytest.fixture
def people():
    names = ("host", "seated", "guest", "outsider", "staff")
    players = {name: player_sign_up(username=name, password="pw-long-enough-1") for name in names}
    players["staff"].user.is_staff = True
    players["staff"].user.save()
    return players


@pytest.fixture
def private_game(people):
    table = Table.objects.create(name="Friday", private=True, host=people["host"])
    seat_take(table=table, player=people["seated"], buy_in=100)
    TableGuest.objects.create(table=table, player=people["guest"])
    return table


def test_a_private_game_is_seen_only_by_its_host_players_guests_and_staff(people, private_game):
    public = Table.objects.create(name="Public")
    for name in ("host", "seated", "guest", "staff"):
        user = people[name].user
        assert can_see_table(private_game, user), name
        assert set(tables_visible_to(user)) == {private_game, public}, name
    for user in (people["outsider"].user, AnonymousUser(), None):
        assert not can_see_table(private_game, user)
        assert list(tables_visible_to(user)) == [public]
        assert can_see_table(public, user)


def test_only_the_host_and_staff_run_a_game(people, private_game):
    assert can_host(private_game, people["host"].user)
    assert can_host(private_game, people["staff"].user)
    for name in ("seated", "guest", "outsider"):
        assert not can_host(private_game, people[name].user), name
    assert not can_host(private_game, AnonymousUser())
    site_table = Table.objects.create(name="Site table")
    assert not can_host(site_table, people["host"].user)
    assert can_host(site_table, people["staff"].user)
