"""Tournament statistics: a player's record (places, in the money, fees, prizes, return on
fees) on the stats page and in the stats API; tournament hands in the hand figures but not in
the cash chip figures; the tournament leaderboard (page tab and API)."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tables.models import PlayerHand
from tables.stats.selectors import leaderboard, net_curve, player_stats
from tables.tournaments.models import Entry, Tournament
from tables.tournaments.records import tournament_leaderboard, tournament_record
from tables.tournaments.services import tournament_create, tournament_register, tournament_start
from tests.api.helpers import engine_hand, store_hand

from .helpers import play

pytestmark = pytest.mark.django_db

FAST = [{"small_blind": 25 * 2**n, "big_blind": 50 * 2**n, "hands": 2} for n in range(12)]


def logged_in(player, api: bool = False):
    client = APIClient() if api else Client()
    client.force_login(player.user)
    return client


def played_sit_and_go(players, *, name="Friday", entry_fee=50, bots=3) -> Tournament:
    """A sit & go of ``players`` and ``bots`` bots played to its end through the services."""
    tournament = tournament_create(
        organiser=players[0], name=name, levels=FAST, entry_fee=entry_fee, bot_entrants=bots
    )
    for player in players:
        tournament_register(tournament=tournament, player=player)
    tournament_start(tournament=tournament, by=players[0])
    play(tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    return tournament


def test_each_player_has_their_place_in_the_money_fees_prizes_and_return(players):
    tournament = played_sit_and_go(players)
    entries = {e.player_id: e for e in tournament.entries.all()}
    for player in players:
        entry = entries[player.pk]
        record = tournament_record(player, player.user)
        assert record["played"] == 1
        assert record["best_place"] == entry.place
        assert record["wins"] == (entry.place == 1)
        assert record["in_the_money"] == (entry.prize > 0)
        assert record["in_the_money_percent"] == (100.0 if entry.prize else 0.0)
        assert (record["entry_fees"], record["prizes"]) == (50, entry.prize)
        assert record["profit"] == entry.prize - 50
        assert record["roi"] == round(100.0 * (entry.prize - 50) / 50, 2)
        assert record["recent"] == [
            {
                "tournament_id": tournament.pk,
                "name": "Friday",
                "format": "sit-and-go",
                "started_at": tournament.started_at,
                "entrants": 6,
                "place": entry.place,
                "entry_fee": 50,
                "prize": entry.prize,
                "bounties": 0,  # no bounties in this one
            }
        ]
    # no chip created or lost: what the winners gained, the others paid
    everyone = [tournament_record(e.player, None)["profit"] for e in tournament.entries.all()]
    assert sum(everyone) == 0

    # the same figures in the stats API, and on the stats page
    alice = players[0]
    body = logged_in(alice, api=True).get(f"/api/players/{alice.pk}/stats/").json()
    assert body["tournaments"]["played"] == 1
    assert body["tournaments"]["prizes"] == entries[alice.pk].prize
    assert body["tournaments"]["recent"][0]["place"] == entries[alice.pk].place
    page = logged_in(players[1]).get(f"/players/{alice.pk}/stats/").content.decode()
    assert 'id="tournament-record"' in page
    assert f"{entries[alice.pk].place} of 6" in page
    assert f'href="/tournaments/{tournament.pk}/"' in page


def test_a_player_still_in_is_not_counted_until_their_place_is_decided(players):
    alice, bob, carol = players
    tournament = tournament_create(organiser=alice, name="Running", levels=FAST, entry_fee=40)
    for player in players:
        tournament_register(tournament=tournament, player=player)
    tournament_start(tournament=tournament, by=alice)
    record = tournament_record(alice, alice.user)
    assert (record["played"], record["entry_fees"], record["roi"]) == (0, 0, None)
    assert record["in_the_money_percent"] is None and record["recent"] == []


def test_freerolls_count_as_played_with_no_return_on_fees_and_no_division_by_zero(players):
    tournament = played_sit_and_go(players, name="Free", entry_fee=0, bots=0)
    winner = tournament.entries.get(place=1).player
    record = tournament_record(winner, None)
    assert (record["played"], record["wins"], record["entry_fees"]) == (1, 1, 0)
    assert record["prizes"] == 0 and record["roi"] is None
    rows = list(tournament_leaderboard("profit"))
    assert {row["player_id"] for row in rows} == {p.pk for p in players}
    assert all(row["roi"] is None for row in rows)
    assert list(tournament_leaderboard("roi", min_tournaments=1)) == [], "no fees: no return"
    api = APIClient().get("/api/leaderboard/tournaments/?order=roi&min_tournaments=1")
    assert (api.status_code, api.json()["count"]) == (200, 0)


def test_tournament_hands_count_in_hand_figures_but_not_in_cash_chip_figures(players, table):
    alice, bob, _ = players
    tournament = played_sit_and_go(players, name="Chips", bots=0)
    tournament_hands = PlayerHand.objects.filter(player=alice).count()
    assert tournament_hands > 0
    stats = player_stats(alice)
    assert stats["hands"] == tournament_hands, "tournament hands are hands played"
    assert (stats["cash_hands"], stats["net_won"], stats["biggest_pot_won"]) == (0, 0, 0)
    assert stats["bb_per_100"] is None and net_curve(alice) == []
    assert alice.pk not in [r["player_id"] for r in leaderboard("hands", min_hands=1)]

    # one cash hand: alice wins 2 chips of the blinds; only it is in the chip figures
    cash = engine_hand(["AsAh", "7c2d"], "9c5d3h8sJd", ["raise 6", "fold"])
    store_hand(table, [alice, bob], cash, number=1)
    stats = player_stats(alice)
    assert stats["hands"] == tournament_hands + 1
    assert (stats["cash_hands"], stats["net_won"], stats["bb_per_100"]) == (1, 2, 100.0)
    assert net_curve(alice) == [2]
    (row,) = [r for r in leaderboard("net", min_hands=1) if r["player_id"] == alice.pk]
    assert (row["hands"], row["net"]) == (1, 2)
    body = logged_in(alice, api=True).get("/api/players/me/stats/").json()
    assert (body["hands"], body["cash_hands"], body["net_won"]) == (tournament_hands + 1, 1, 2)
    assert body["tournaments"]["played"] == 1 and tournament.entries.count() == 3


def _decided_entry(tournament_name: str, player, *, fee: int, prize: int, place: int):
    """A decided entry written directly: the leaderboard's ranking rules need many players'
    results, which playing a tournament for each would only slow down (the figures' meaning
    is checked against played tournaments above)."""
    tournament = Tournament.objects.create(
        name=tournament_name, levels=FAST, status=Tournament.Status.FINISHED, entry_fee=fee
    )
    return Entry.objects.create(
        tournament=tournament, player=player, fee_paid=fee, prize=prize, place=place
    )


def test_the_leaderboard_ranks_by_profit_by_return_with_a_minimum_and_by_played(make_player):
    ann, ben, cy = (make_player(n) for n in ("ann", "ben", "cy"))
    _decided_entry("A1", ann, fee=100, prize=400, place=1)  # one lucky win: +300, 300%
    for n in range(5):  # ben: five tournaments, +100 on 500 = 20%
        _decided_entry(f"B{n}", ben, fee=100, prize=200 if n < 3 else 0, place=2 if n < 3 else 5)
    for n in range(6):  # cy: six tournaments, −600
        _decided_entry(f"C{n}", cy, fee=100, prize=0, place=6)

    by_profit = list(tournament_leaderboard("profit"))
    assert [r["name"] for r in by_profit] == ["ann", "ben", "cy"]
    assert [(r["profit"], r["roi"]) for r in by_profit] == [
        (300, 300.0),
        (100, 20.0),
        (-600, -100.0),
    ]
    assert [r["name"] for r in tournament_leaderboard("roi")] == ["ben", "cy"], "5 at least"
    assert [r["name"] for r in tournament_leaderboard("roi", min_tournaments=1)][0] == "ann"
    assert [r["name"] for r in tournament_leaderboard("played")] == ["cy", "ben", "ann"]

    api = APIClient().get("/api/leaderboard/tournaments/").json()
    assert [(r["rank"], r["name"], r["profit"]) for r in api["results"]] == [
        (1, "ann", 300),
        (2, "ben", 100),
        (3, "cy", -600),
    ]
    assert api["results"][1]["in_the_money"] == 3 and api["results"][1]["played"] == 5
    roi = APIClient().get("/api/leaderboard/tournaments/?order=roi").json()
    assert [r["name"] for r in roi["results"]] == ["ben", "cy"]
    bad = APIClient().get("/api/leaderboard/tournaments/?order=luck")
    assert (bad.status_code, list(bad.json()["errors"])) == (400, ["order"])
    assert APIClient().get("/api/leaderboard/tournaments/?min_tournaments=0").status_code == 400

    page = Client().get("/leaderboard/?view=tournaments").content.decode()
    assert 'aria-current="page">Tournaments</a>' in page
    table = page.split('id="tournament-leaderboard"')[1]
    assert table.index("ann") < table.index("ben") < table.index("cy")
    assert "300.00%" in table
    cash = Client().get("/leaderboard/").content.decode()
    assert 'href="/leaderboard/?view=tournaments"' in cash
    assert 'aria-current="page">Cash games</a>' in cash
    unknown = Client().get("/leaderboard/?view=tournaments&order=luck")
    assert unknown.status_code == 200 and unknown.context["order"] == "profit"


def test_recent_finishes_leave_out_a_private_tournament_for_outsiders(players, make_player):
    alice = players[0]
    _decided_entry("Open", alice, fee=10, prize=0, place=3)
    secret = _decided_entry("Secret club", alice, fee=10, prize=30, place=1).tournament
    Tournament.objects.filter(pk=secret.pk).update(private=True, invite_token="tok-secret")
    outsider = make_player("outsider")
    seen = tournament_record(alice, outsider.user)
    assert [r["name"] for r in seen["recent"]] == ["Open"]
    assert seen["played"] == 2 and seen["prizes"] == 30, "the sums count every tournament"
    mine = tournament_record(alice, alice.user)
    assert {r["name"] for r in mine["recent"]} == {"Open", "Secret club"}
    page = logged_in(outsider).get(f"/players/{alice.pk}/stats/").content.decode()
    assert "Secret club" not in page
