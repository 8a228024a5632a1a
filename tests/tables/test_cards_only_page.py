"""Issue 53, phones as card devices: the table page carries the "cards only" switch and the
peek for a player (a layout of the same page, over the same frames); a visitor watching, or
a closed game's page, has neither."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tables.models import Table
from tables.services import seat_take

pytestmark = pytest.mark.django_db

SWITCH = 'id="cards-only-switch" aria-pressed="false"'
PEEK = 'id="peek-switch" aria-pressed="false"'


def page_of(client, table) -> str:
    response = client.get(reverse("tables:detail", args=[table.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_a_player_gets_the_switch_and_the_peek(client, players, table):
    alice = players[0]
    seat_take(table=table, player=alice, buy_in=200, seat_number=0)
    client.force_login(alice.user)
    html = page_of(client, table)
    assert SWITCH in html and PEEK in html
    assert "js/cards_only.js" in html and "css/cards_only.css" in html
    # a player not seated yet has them too: cards only shows them the sit-down form
    client.force_login(players[1].user)
    assert SWITCH in page_of(client, table)


def test_a_visitor_and_a_closed_game_have_no_cards_only(client, players, table):
    html = page_of(client, table)
    assert "cards-only" not in html and "peek-switch" not in html
    client.force_login(players[0].user)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.CLOSED)
    html = page_of(client, table)
    assert "cards-only" not in html and "peek-switch" not in html
