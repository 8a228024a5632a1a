"""The tournaments' API for rebuys, re-entry and breaks: the settings in ``POST
/api/tournaments/`` (a wrong one is a 400 naming it, nothing created), the state in ``GET``
(per entrant too), ``POST .../rebuy/`` (the player's own; 409 ``rebuy_refused`` with the
reason, nothing changed), and re-entry through ``POST .../registration/``."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tables.models import LedgerEntry, Player, Seat
from tables.tournaments.models import Entry, Tournament
from tables.tournaments.services.places import entries_out

pytestmark = pytest.mark.django_db

BY_HANDS = [{"small_blind": 25 * 2**n, "big_blind": 50 * 2**n, "hands": 3} for n in range(8)]
BY_MINUTES = [{"small_blind": 25 * 2**n, "big_blind": 50 * 2**n, "minutes": 10} for n in range(4)]


@pytest.fixture(autouse=True)
def _fresh_throttle_cache():
    from django.core.cache import cache

    cache.clear()


def client_for(player) -> APIClient:
    client = APIClient()
    client.force_login(player.user)
    return client


def organise(player, **fields):
    body = {"name": "Comebacks", "levels": BY_HANDS, "entry_fee": 100, **fields}
    return client_for(player).post("/api/tournaments/", body, format="json")


def started(players, **fields) -> int:
    """A tournament organised by alice with every player registered, started."""
    response = organise(players[0], **fields)
    assert response.status_code == 201, response.json()
    tid = response.json()["id"]
    for player in players:
        assert client_for(player).post(f"/api/tournaments/{tid}/registration/").status_code == 201
    assert client_for(players[0]).post(f"/api/tournaments/{tid}/start/").status_code == 200
    return tid


def entrant(body: dict, player) -> dict:
    return next(row for row in body["entrants"] if row["player_id"] == player.pk)


def bust(player) -> None:
    """``player`` loses their stack to another seat and is out, as a hand's end does."""
    seat = Seat.objects.get(player=player)
    other = Seat.objects.filter(table_id=seat.table_id).exclude(pk=seat.pk).first()
    Seat.objects.filter(pk=other.pk).update(stack=other.stack + seat.stack)
    seat.delete()
    tournament = Tournament.objects.get(pk=seat.table.tournament_table.tournament_id)
    entries_out(tournament, {player.pk: seat.stack})


def test_the_rebuy_re_entry_and_break_settings_are_taken_and_read_back(players):
    response = organise(
        players[0],
        format="multi-table",
        levels=BY_MINUTES,
        late_registration_levels=2,
        rebuy_levels=2,
        max_rebuys=3,
        max_reentries=1,
        break_every_levels=2,
        break_minutes=5,
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    settings = {key: body[key] for key in ("rebuy_levels", "max_rebuys", "max_reentries")}
    assert settings == {"rebuy_levels": 2, "max_rebuys": 3, "max_reentries": 1}
    assert (body["break_every_levels"], body["break_minutes"]) == (2, 5)
    assert (body["rebuys_open"], body["hands_dealt"]) == (False, 0)  # not started
    assert (body["may_rebuy"], body["may_reenter"]) == (False, False)
    assert body["level"]["on_break"] is False and body["level"]["break_minutes_left"] is None
    read = APIClient().get(f"/api/tournaments/{body['id']}/").json()
    assert read["max_rebuys"] == 3 and read["break_minutes"] == 5
    listed = APIClient().get("/api/tournaments/").json()["results"][0]
    assert listed["rebuy_levels"] == 2 and listed["max_reentries"] == 1


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"break_every_levels": 2, "break_minutes": 5}, "break_every_levels"),  # by hands
        ({"levels": BY_MINUTES, "break_every_levels": 2}, "break_minutes"),  # how long?
        ({"levels": BY_MINUTES, "break_every_levels": 9, "break_minutes": 5}, "break_every_levels"),
        ({"max_reentries": 1}, "max_reentries"),  # no late registration
        ({"rebuy_levels": 9}, "rebuy_levels"),  # more levels than the structure has
        ({"rebuy_levels": 1, "max_rebuys": 0}, "max_rebuys"),
        ({"rebuy_levels": -1}, "rebuy_levels"),
        ({"rebuy_levels": "2"}, "rebuy_levels"),
        ({"format": "fixed-hands", "hands": 20, "rebuy_levels": 1}, "rebuy_levels"),
        ({"break_minutes": 121}, "break_minutes"),
    ],
)
def test_bad_comeback_or_break_settings_are_400_naming_the_field(players, fields, field):
    response = organise(players[0], **fields)
    assert response.status_code == 400, response.json()
    body = response.json()
    assert body["code"] == "invalid"
    assert field in body["errors"], body
    assert not Tournament.objects.exists()


def test_a_player_rebuys_through_the_api_and_a_second_rebuy_is_refused_with_the_reason(
    players, assert_chips_conserved
):
    alice, bob, carol = players
    tid = started(players, rebuy_levels=2, max_rebuys=1)
    before = client_for(bob).get(f"/api/tournaments/{tid}/").json()
    assert before["rebuys_open"] is True and before["may_rebuy"] is True
    bankroll = Player.objects.get(pk=bob.pk).bankroll
    response = client_for(bob).post(f"/api/tournaments/{tid}/rebuy/")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["prize_pool"] == 400
    assert entrant(body, bob)["rebuys"] == 1 and entrant(body, bob)["chips"] == 3000
    assert entrant(body, carol)["rebuys"] == 0
    assert body["may_rebuy"] is False  # the one rebuy is used
    assert Player.objects.get(pk=bob.pk).bankroll == bankroll - 100
    assert LedgerEntry.objects.filter(player=bob, reason__startswith="Rebuy").count() == 1
    assert_chips_conserved()

    again = client_for(bob).post(f"/api/tournaments/{tid}/rebuy/")
    assert (again.status_code, again.json()["code"]) == (409, "rebuy_refused")
    assert "used your 1 rebuy" in again.json()["message"]
    assert Tournament.objects.get(pk=tid).prize_pool == 400
    assert Player.objects.get(pk=bob.pk).bankroll == bankroll - 100
    assert APIClient().post(f"/api/tournaments/{tid}/rebuy/").status_code in (401, 403)


def test_a_rebuy_above_the_starting_stack_or_in_a_freezeout_is_refused_saying_why(
    players, make_player
):
    alice, bob, carol = players
    tid = started(players, rebuy_levels=1)
    Seat.objects.filter(player=carol).update(stack=1501)
    Seat.objects.filter(player=alice).update(stack=1499)
    above = client_for(carol).post(f"/api/tournaments/{tid}/rebuy/")
    assert (above.status_code, above.json()["code"]) == (409, "rebuy_refused")
    assert "at or below the starting stack (1500)" in above.json()["message"]
    assert Entry.objects.get(player=carol).rebuys == 0
    outsider = client_for(make_player("dora")).post(f"/api/tournaments/{tid}/rebuy/")
    assert (outsider.status_code, outsider.json()["code"]) == (409, "not_registered")

    freezeout = started([make_player(n) for n in ("erin", "fred")], name="Freeze")
    refused = client_for(Player.objects.get(user__username="erin")).post(
        f"/api/tournaments/{freezeout}/rebuy/"
    )
    assert (refused.status_code, refused.json()["code"]) == (409, "rebuy_refused")
    assert "freezeout" in refused.json()["message"]


def test_a_busted_player_re_enters_through_the_registration_endpoint_once(
    players, assert_chips_conserved
):
    alice, bob, carol = players
    tid = started(players, format="multi-table", late_registration_levels=2, max_reentries=1)
    bust(carol)
    body = client_for(carol).get(f"/api/tournaments/{tid}/").json()
    assert body["may_reenter"] is True and body["may_rebuy"] is False  # a freezeout
    assert client_for(bob).get(f"/api/tournaments/{tid}/").json()["may_reenter"] is False
    response = client_for(carol).post(f"/api/tournaments/{tid}/registration/")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert entrant(body, carol)["reentries"] == 1 and entrant(body, carol)["chips"] == 1500
    assert body["entrant_count"] == 3 and body["prize_pool"] == 400
    assert body["may_reenter"] is False
    assert_chips_conserved()
    bust(carol)
    again = client_for(carol).post(f"/api/tournaments/{tid}/registration/")
    assert (again.status_code, again.json()["code"]) == (409, "already_registered")
    assert Tournament.objects.get(pk=tid).prize_pool == 400


def test_during_a_break_the_level_says_so_with_the_minutes_left(players):
    tid = started(players, levels=BY_MINUTES, break_every_levels=1, break_minutes=5)
    # Eleven minutes in: level 1 (10 minutes) is over, the 5-minute break has 4 left.
    Tournament.objects.filter(pk=tid).update(started_at=timezone.now() - timedelta(minutes=11))
    level = APIClient().get(f"/api/tournaments/{tid}/").json()["level"]
    assert level["on_break"] is True
    assert level["break_minutes_left"] == 4
    assert level["number"] == 2 and level["big_blind"] == 100  # play resumes at level 2
    assert level["break_ends_at"] is not None and level["next_at"] > level["break_ends_at"]
