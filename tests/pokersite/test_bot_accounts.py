"""Bot accounts: a player marks their own account (profile) or an admin does (Django admin);
a bot badge then shows at the table, in the play state, in the lobby and in statistics."""

from __future__ import annotations

import pytest
from django.test import Client

from tables.models import Player
from tables.presenters.play_state import play_state
from tables.presenters.render import render_regions
from tables.presenters.screen import table_screen
from tables.selectors.snapshot import load_snapshot
from tables.services import player_mark_bot, seat_take
from tables.stats.selectors import leaderboard
from tests.api.helpers import engine_hand, store_hand

pytestmark = pytest.mark.django_db


def logged_in(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def test_a_player_marks_and_unmarks_their_own_account(players):
    alice = players[0]
    client = logged_in(alice)
    assert "bot_account" in client.get("/accounts/profile/").content.decode()
    client.post("/accounts/profile/bot/", {"bot_account": "on"})
    assert Player.objects.get(pk=alice.pk).bot_account
    client.post("/accounts/profile/bot/", {})
    assert not Player.objects.get(pk=alice.pk).bot_account
    assert client.get("/accounts/profile/bot/").status_code == 405


def test_an_admin_marks_accounts_as_bots(players, staff_client):
    alice, bob, _ = players
    response = staff_client.post(
        "/admin/tables/player/",
        {"action": "mark_bot_accounts", "_selected_action": [alice.pk, bob.pk]},
    )
    assert response.status_code == 302
    assert set(Player.objects.filter(bot_account=True)) == {alice, bob}


@pytest.fixture
def staff_client(make_player):
    root = make_player("root")
    root.user.is_staff = root.user.is_superuser = True
    root.user.save()
    return logged_in(root)


def test_the_badge_shows_at_the_table_in_the_state_the_lobby_and_statistics(players, table):
    alice, bob, carol = players
    player_mark_bot(player=alice, bot_account=True)
    seat_take(table=table, player=alice, buy_in=100, seat_number=0)
    seat_take(table=table, player=bob, buy_in=100, seat_number=1)
    snapshot = load_snapshot(table)
    screen = table_screen(snapshot, carol, carol.bankroll)
    seats = play_state(snapshot, screen)["seats"]
    assert seats[0]["is_bot"] and not seats[1]["is_bot"]
    html = render_regions(screen)
    assert html.count('class="tag">bot<') == 1
    lobby = Client().get("/").content.decode()
    badge = '<svg class="icon" viewBox="0 0 24 24" role="img" aria-label="bot">'
    assert f"alice {badge}" in lobby and f"bob {badge}" not in lobby
    store_hand(table, [alice, bob], engine_hand(["AsAh", "7c2d"], "9c5d3h8sJd", ["fold"]))
    rows = {row["name"]: row["is_bot"] for row in leaderboard("net", 1)}
    assert rows == {"alice": True, "bob": False}
    page = logged_in(carol).get(f"/players/{alice.pk}/stats/").content.decode()
    assert "(bot)" in page
