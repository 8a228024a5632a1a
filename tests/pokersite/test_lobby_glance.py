"""The lobby at a glance: a player's own tables say so and link back; bots are marked with an
icon that needs no emoji font."""

import re

import pytest
from django.urls import reverse

from tables.services import player_create, seat_take

pytestmark = pytest.mark.django_db


def row_of(html: str, table) -> str:
    return re.search(rf'<tr class="lobby-table[^"]*" id="table-{table.pk}">(.*?)</tr>', html, re.S)[
        1
    ]


def test_a_seated_player_sees_theirs_marked_with_a_link_back_instead_of_watch(
    client, players, make_table
):
    alice, bob, carol = players
    full = make_table(name="Full", max_seats=2)
    other = make_table(name="Other")
    seat_take(table=full, player=alice, buy_in=100)
    seat_take(table=full, player=bob, buy_in=100)
    client.force_login(alice.user)
    html = client.get(reverse("lobby")).content.decode()

    mine = row_of(html, full)
    assert "you're seated here" in mine and "Back to your seat" in mine
    assert f'href="{reverse("tables:detail", args=[full.pk])}"' in mine
    assert "Watch" not in mine and "Join" not in mine
    assert "you're seated here" not in row_of(html, other) and "Join" in row_of(html, other)

    client.force_login(carol.user)  # the same full table, for someone not seated there
    theirs = row_of(client.get(reverse("lobby")).content.decode(), full)
    assert "Watch" in theirs and "you're seated here" not in theirs


def test_bots_are_marked_with_an_inline_svg_not_an_emoji(client, make_table, django_user_model):
    table = make_table(name="Bots")
    user = django_user_model.objects.create_user(username="bot_ada", password="x-Secret-1")
    seat_take(table=table, player=player_create(user=user, is_bot=True), buy_in=100)
    other = django_user_model.objects.create_user(username="bot_bo", password="x-Secret-1")
    seat_take(table=table, player=player_create(user=other, is_bot=True), buy_in=100)
    html = row_of(client.get(reverse("lobby")).content.decode(), table)
    assert "🤖" not in html
    assert re.search(r'bot_ada <svg class="icon"[^>]*role="img"[^>]*aria-label="bot"', html)
    # Issue 31, item 19: "bot_ada 🤖, bot_bo" with no stray space before the comma.
    assert re.search(r"bot_ada <svg[^>]*>.*?</svg>, bot_bo <svg", html, re.S)
