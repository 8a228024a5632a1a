"""The lobby lists every open table with variant, stakes, seats, average pot and players."""

import pytest
from django.urls import reverse

from tables.services import hand_start, seat_take, table_close, table_pause

pytestmark = pytest.mark.django_db


def test_lobby_lists_open_tables_with_seats_players_and_average_pot(
    client, players, make_table, play
):
    main = make_table(name="Main", max_seats=6)
    omaha = make_table(
        name="Big Omaha",
        game="omaha",
        betting="pot-limit",
        small_blind=5,
        big_blind=10,
        max_seats=9,
    )
    paused = make_table(name="Paused one")
    closed = make_table(name="Closed one")
    table_pause(table=paused)
    table_close(table=closed)
    for p in players[:2]:
        seat_take(table=main, player=p, buy_in=100)
    hand_start(table=main)
    hand = play.play_out(main)

    page = client.get(reverse("lobby"))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Paused one" not in html and "Closed one" not in html
    listed = {t.name: t for t in page.context["tables"]}
    assert set(listed) == {"Main", "Big Omaha"}
    assert (listed["Main"].seats_taken, listed["Main"].seats_free) == (2, 4)
    assert listed["Main"].average_pot == hand.pot
    assert listed["Big Omaha"].average_pot is None
    assert "Pot-limit Omaha" in html and "5/10" in html and "No-limit Hold" in html
    assert "alice" in html and "bob" in html
    assert reverse("tables:detail", args=[main.pk]) in html
    assert reverse("tables:detail", args=[omaha.pk]) in html


def test_lobby_query_count_does_not_grow_with_tables(
    client, players, make_table, django_assert_max_num_queries
):
    for i in range(8):
        t = make_table(name=f"T{i}")
        seat_take(table=t, player=players[i % 3], buy_in=100)
    with django_assert_max_num_queries(4):
        client.get(reverse("lobby"))


def test_table_page_placeholder_exists(client, table):
    assert client.get(reverse("tables:detail", args=[table.pk])).status_code == 200
    assert client.get(reverse("tables:detail", args=[99999])).status_code == 404


def test_every_page_links_to_the_leaderboard_and_a_player_to_their_stats(client, players):
    anonymous = client.get(reverse("lobby")).content.decode()
    assert reverse("stats:leaderboard") in anonymous
    assert reverse("stats:mine") not in anonymous
    client.force_login(players[0].user)
    assert reverse("stats:mine") in client.get(reverse("lobby")).content.decode()
