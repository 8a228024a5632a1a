"""The clubs' REST API (tables/api/clubs.py): create, read (members only), join by code,
members, standings, and a table created with ``club``."""

from __future__ import annotations

import pytest

from tables.clubs.models import Club, Membership

pytestmark = pytest.mark.django_db


def test_create_join_approve_and_read_a_club(client_for, players):
    owner, friend, stranger = players
    made = client_for(owner).post("/api/clubs/", {"name": "Thursday Club"}, format="json")
    assert made.status_code == 201
    body = made.json()
    assert body["invite_code"] and body["invite_code"] in body["invite_url"]
    pk = body["id"]
    assert client_for(stranger).get(f"/api/clubs/{pk}/").status_code == 404
    joined = client_for(friend).post(
        f"/api/clubs/{pk}/join/", {"code": body["invite_code"]}, format="json"
    )
    assert joined.json() == {"status": "pending"}
    assert client_for(friend).get(f"/api/clubs/{pk}/").status_code == 404
    approved = client_for(owner).post(
        f"/api/clubs/{pk}/members/", {"player": friend.pk, "action": "approve"}, format="json"
    )
    assert approved.status_code == 200 and approved.json()["status"] == "active"
    seen = client_for(friend).get(f"/api/clubs/{pk}/").json()
    assert "invite_code" not in seen and len(seen["members"]) == 2


def test_a_wrong_code_is_refused_and_nothing_changes(client_for, players):
    owner, friend, _ = players
    pk = client_for(owner).post("/api/clubs/", {"name": "C"}, format="json").json()["id"]
    answer = client_for(friend).post(f"/api/clubs/{pk}/join/", {"code": "nope"}, format="json")
    assert answer.status_code == 409 and answer.json()["code"] == "bad_invite_code"
    assert not Membership.objects.filter(player=friend).exists()


def test_a_club_table_is_hidden_from_non_members(client_for, players):
    owner, _, stranger = players
    pk = client_for(owner).post("/api/clubs/", {"name": "C"}, format="json").json()["id"]
    table = client_for(owner).post("/api/tables/", {"name": "Night", "club": pk}, format="json")
    assert table.status_code == 201
    table_pk = table.json()["id"]
    assert client_for(stranger).get(f"/api/tables/{table_pk}/").status_code == 404
    assert client_for(owner).get(f"/api/tables/{table_pk}/").status_code == 200
    foreign = client_for(stranger).post("/api/tables/", {"name": "Mine", "club": pk}, format="json")
    assert foreign.status_code == 404


def test_a_club_without_a_season_stands_by_all_its_games(client_for, players):
    """Issue 49, item 10: a member got a 404 before the club's first season."""
    from django.utils import timezone

    from tables.clubs import services
    from tables.tournaments.models import Entry, Tournament

    owner, friend, stranger = players
    club = services.club_create(owner=owner, name="Club", needs_approval=False)
    services.club_join(club=club, player=friend, code=club.invite_code)
    cup = services.club_tournament_create(club=club, by=owner, name="Cup")
    Entry.objects.create(tournament=cup, player=owner, place=1)
    Entry.objects.create(tournament=cup, player=friend, place=2)
    Tournament.objects.filter(pk=cup.pk).update(status="finished", finished_at=timezone.now())
    answer = client_for(friend).get(f"/api/clubs/{club.pk}/standings/")
    assert answer.status_code == 200
    body = answer.json()
    assert body["season"] == {"id": None, "name": "All the club's games", "rule": "sqrt"}
    assert [(row["name"], row["points"]) for row in body["standings"]] == [
        (str(owner), 14.14),
        (str(friend), 10.0),
    ]
    csv_answer = client_for(friend).get(f"/api/clubs/{club.pk}/standings.csv")
    assert csv_answer.status_code == 200
    assert csv_answer.content.decode().splitlines()[1] == f"1,{owner},14.14,1,0"
    # 404: a club one does not belong to, a season the club does not have
    assert client_for(stranger).get(f"/api/clubs/{club.pk}/standings/").status_code == 404
    assert client_for(friend).get(f"/api/clubs/{club.pk}/standings/?season=9").status_code == 404
    assert Club.objects.count() == 1


def test_standings_as_json_and_csv(client_for, players):
    from datetime import timedelta

    from django.utils import timezone

    from tables.clubs import services
    from tables.tournaments.models import Entry, Tournament

    owner, friend, stranger = players
    club = services.club_create(owner=owner, name="=Club", needs_approval=False)
    services.club_join(club=club, player=friend, code=club.invite_code)
    today = timezone.localdate()
    season = services.season_open(
        club=club, by=owner, name="S", starts_on=today, ends_on=today + timedelta(days=7)
    )
    cup = services.club_tournament_create(club=club, by=owner, name="Cup")
    Entry.objects.create(tournament=cup, player=owner, place=2)
    Entry.objects.create(tournament=cup, player=friend, place=1)
    Tournament.objects.filter(pk=cup.pk).update(status="finished", finished_at=timezone.now())
    body = client_for(friend).get(f"/api/clubs/{club.pk}/standings/?season={season.pk}").json()
    assert [(row["name"], row["points"]) for row in body["standings"]] == [
        (str(friend), 14.14),
        (str(owner), 10.0),
    ]
    csv_answer = client_for(owner).get(f"/api/clubs/{club.pk}/standings.csv")
    assert csv_answer.status_code == 200
    lines = csv_answer.content.decode().splitlines()
    assert lines[0] == "place,player,points,tournaments,cash_net"
    assert lines[1] == f"1,{friend},14.14,1,0"
    assert client_for(stranger).get(f"/api/clubs/{club.pk}/standings.csv").status_code == 404


def test_a_club_tournament_is_hidden_from_non_members(client_for, players):
    owner, _, stranger = players
    pk = client_for(owner).post("/api/clubs/", {"name": "C"}, format="json").json()["id"]
    made = client_for(owner).post("/api/tournaments/", {"name": "Cup", "club": pk}, format="json")
    assert made.status_code == 201, made.json()
    tournament = made.json()["id"]
    assert client_for(owner).get(f"/api/tournaments/{tournament}/").status_code == 200
    assert client_for(stranger).get(f"/api/tournaments/{tournament}/").status_code == 404
    entered = client_for(stranger).post(f"/api/tournaments/{tournament}/registration/")
    assert entered.status_code == 404
    assert client_for(owner).post(f"/api/tournaments/{tournament}/registration/").status_code in (
        200,
        201,
    )


def test_a_removed_member_keeps_their_seat_to_the_end_then_cannot_sit_again(client_for, players):
    from tables.clubs import services

    owner, friend, _ = players
    club = services.club_create(owner=owner, name="Seat Club", needs_approval=False)
    services.club_join(club=club, player=friend, code=club.invite_code)
    table = services.club_table_create(club=club, by=owner, name="Night")
    sat = client_for(friend).post(f"/api/tables/{table.pk}/seat/", {"buy_in": 100}, format="json")
    assert sat.status_code in (200, 201), sat.json()
    services.club_member_update(club=club, by=owner, player=friend, action="remove")
    assert client_for(friend).get(f"/api/tables/{table.pk}/").status_code == 200  # seated
    assert client_for(friend).delete(f"/api/tables/{table.pk}/seat/").status_code in (200, 204)
    assert client_for(friend).get(f"/api/tables/{table.pk}/").status_code == 404
    again = client_for(friend).post(f"/api/tables/{table.pk}/seat/", {"buy_in": 100}, format="json")
    assert again.status_code == 404
    rejoin = client_for(friend).post(
        f"/api/clubs/{club.pk}/join/", {"code": club.invite_code}, format="json"
    )
    assert rejoin.status_code == 409 and rejoin.json()["code"] == "removed_from_club"
