"""A club's games follow the site's own rules for coming in late and for waiting on a seat,
for members only: late registration to a running club tournament (seated at once, refused
once it closes), and a club cash game that asks its host first (a member's request waits for
the host; a full game refuses until a seat frees). A non-member, or a member removed from the
club, gets nowhere: the API answers 404 as for a game that does not exist, nothing changed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tables.clubs import services
from tables.models import Seat, SeatRequest, Table
from tables.services.clock import clock_tick
from tables.services.errors import NoSuchRequest, TableFull
from tables.services.seat_requests import seat_ask, seat_request_answer
from tables.services.seats import seat_leave
from tables.tournaments.errors import RegistrationClosed
from tables.tournaments.models import Entry
from tables.tournaments.services import tournament_register, tournament_start

pytestmark = pytest.mark.django_db

LEVELS = [{"small_blind": 5, "big_blind": 10, "hands": 2}] * 3


def _api(player) -> APIClient:
    client = APIClient()
    client.force_login(player.user)
    return client


@pytest.fixture
def club(players, make_player):
    """The owner (alice), two members (bob and dave), and carol who is no member."""
    owner, friend, _ = players
    club = services.club_create(owner=owner, name="Late Club", needs_approval=False)
    services.club_join(club=club, player=friend, code=club.invite_code)
    services.club_join(club=club, player=make_player("dave"), code=club.invite_code)
    return club


@pytest.fixture
def running_cup(club, players):
    """A club tournament with one level of late registration, started with the three
    members entered (alice, bob and dave)."""
    owner, friend, _ = players
    cup = services.club_tournament_create(
        club=club,
        by=owner,
        name="Late Cup",
        format="multi-table",
        seats_per_table=4,
        levels=LEVELS,
        late_registration_levels=1,
    )
    for member in club.memberships.select_related("player"):
        tournament_register(tournament=cup, player=member.player)
    tournament_start(tournament=cup, by=owner)
    return cup


def test_a_member_registers_late_and_is_seated_at_once(club, running_cup, make_player):
    late = make_player("erin")
    services.club_join(club=club, player=late, code=club.invite_code)
    answer = _api(late).post(f"/api/tournaments/{running_cup.pk}/registration/")
    assert answer.status_code in (200, 201), answer.json()
    assert Entry.objects.filter(tournament=running_cup, player=late).exists()
    seat = Seat.objects.get(player=late)
    assert seat.table.tournament_table.tournament_id == running_cup.pk
    assert seat.stack == running_cup.starting_stack


def test_a_non_member_cannot_register_late(running_cup, players):
    stranger = players[2]
    entries = Entry.objects.filter(tournament=running_cup).count()
    answer = _api(stranger).post(f"/api/tournaments/{running_cup.pk}/registration/")
    assert answer.status_code == 404
    assert Entry.objects.filter(tournament=running_cup).count() == entries
    assert not Seat.objects.filter(player=stranger).exists()


def test_a_removed_member_cannot_register_late(club, running_cup, players, make_player):
    owner = players[0]
    gone = make_player("frank")
    services.club_join(club=club, player=gone, code=club.invite_code)
    services.club_member_update(club=club, by=owner, player=gone, action="remove")
    answer = _api(gone).post(f"/api/tournaments/{running_cup.pk}/registration/")
    assert answer.status_code == 404
    assert not Entry.objects.filter(tournament=running_cup, player=gone).exists()


def test_late_registration_closes_for_members_too(club, running_cup, make_player):
    table_id = running_cup.tables.first().table_id
    now = timezone.now() + timedelta(hours=1)
    while Table.objects.get(pk=table_id).hands.count() < 3:  # the third hand is at level 2
        clock_tick(table=table_id, now=now)
        now += timedelta(seconds=15)
    running_cup.refresh_from_db()
    assert not running_cup.registration_open
    late = make_player("erin")
    services.club_join(club=club, player=late, code=club.invite_code)
    with pytest.raises(RegistrationClosed):
        tournament_register(tournament=running_cup, player=late)
    refused = _api(late).post(f"/api/tournaments/{running_cup.pk}/registration/")
    assert refused.status_code in (400, 409) and not Seat.objects.filter(player=late).exists()


def test_a_members_seat_request_waits_for_the_host(club, players):
    owner, friend, stranger = players
    game = services.club_table_create(club=club, by=owner, name="Asks first", seat_approval=True)
    asked = seat_ask(table=game, player=friend, buy_in=100)
    assert asked.seat is None and asked.request is not None
    assert not Seat.objects.filter(table=game, player=friend).exists()
    seat_request_answer(table=game, by=owner.user, request_id=asked.request.pk, approve=True)
    assert Seat.objects.filter(table=game, player=friend).exists()
    # a non-member cannot even ask: for them the game does not exist
    answer = _api(stranger).post(f"/api/tables/{game.pk}/seat/", {"buy_in": 100}, format="json")
    assert answer.status_code == 404
    assert not SeatRequest.objects.filter(table=game, player=stranger).exists()


def test_a_full_club_game_refuses_a_member_until_a_seat_frees(club, players, make_player):
    owner, friend, _ = players
    game = services.club_table_create(club=club, by=owner, name="Two seats", max_seats=2)
    dave = club.memberships.get(player__user__username="dave").player
    seat_ask(table=game, player=owner, buy_in=100)
    seat_ask(table=game, player=dave, buy_in=100)
    with pytest.raises(TableFull):
        seat_ask(table=game, player=friend, buy_in=100)
    full = _api(friend).post(f"/api/tables/{game.pk}/seat/", {"buy_in": 100}, format="json")
    assert full.status_code in (400, 409) and not Seat.objects.filter(player=friend).exists()
    seat_leave(table=game, player=dave)
    assert seat_ask(table=game, player=friend, buy_in=100).seat is not None


@pytest.mark.parametrize("out", ["removed", "left"])
def test_a_member_out_of_the_club_waits_for_no_seat(club, players, out):
    owner, friend, _ = players
    game = services.club_table_create(club=club, by=owner, name="Asks first", seat_approval=True)
    asked = seat_ask(table=game, player=friend, buy_in=100)
    assert asked.request is not None
    if out == "removed":
        services.club_member_update(club=club, by=owner, player=friend, action="remove")
    else:
        services.club_leave(club=club, player=friend)
    assert SeatRequest.objects.get(pk=asked.request.pk).status == SeatRequest.Status.CANCELLED
    with pytest.raises(NoSuchRequest):  # the host cannot seat them any more
        seat_request_answer(table=game, by=owner.user, request_id=asked.request.pk, approve=True)
    assert not Seat.objects.filter(table=game, player=friend).exists()
