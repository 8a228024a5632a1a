"""The clubs' pages (tables/views_clubs.py): create, join by the invitation link with
approval, the club page for members only, an admin's schedule and season forms refusing bad
input with nothing changed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from tables.clubs.models import Club, Membership, ScheduledGame, Season

pytestmark = pytest.mark.django_db


def _client(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def test_create_join_approve_and_see_the_club_page(players):
    owner, friend, stranger = players
    made = _client(owner).post("/clubs/", {"name": "Thursday", "needs_approval": "on"})
    club = Club.objects.get(name="Thursday")
    assert made.status_code == 302 and made["Location"] == f"/clubs/{club.pk}/"
    page = _client(owner).get(f"/clubs/{club.pk}/").content.decode()
    assert club.invite_code in page
    assert _client(stranger).get(f"/clubs/{club.pk}/").status_code == 404
    invitation = _client(friend).get(f"/clubs/{club.pk}/join/?code={club.invite_code}")
    assert "Join Thursday" in invitation.content.decode()
    asked = _client(friend).post(f"/clubs/{club.pk}/join/", {"code": club.invite_code})
    assert "join-pending" in asked.content.decode()
    _client(owner).post(f"/clubs/{club.pk}/members/{friend.pk}/approve/")
    assert Membership.objects.get(club=club, player=friend).status == "active"
    assert club.invite_code not in _client(friend).get(f"/clubs/{club.pk}/").content.decode()


def test_bad_schedules_and_seasons_are_refused_on_the_page(players):
    owner = players[0]
    _client(owner).post("/clubs/", {"name": "Club"})
    club = Club.objects.get()
    past = (timezone.localtime() - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
    answer = _client(owner).post(
        f"/clubs/{club.pk}/schedule/", {"kind": "tournament", "name": "Cup", "starts_at": past}
    )
    assert answer.status_code == 400 and "already past" in answer.content.decode()
    answer = _client(owner).post(
        f"/clubs/{club.pk}/seasons/",
        {
            "name": "S",
            "starts_on": "2026-01-01",
            "ends_on": "2026-03-31",
            "rule": "fixed",
            "points_table": "1, 5",
        },
    )
    assert answer.status_code == 400 and "points table" in answer.content.decode()
    assert not ScheduledGame.objects.exists() and not Season.objects.exists()


def test_the_lobby_lists_a_clubs_table_and_schedule_to_its_members_only(players):
    from tables.clubs import services

    owner, friend, stranger = players
    club = services.club_create(owner=owner, name="Lobby Club", needs_approval=False)
    services.club_join(club=club, player=friend, code=club.invite_code)
    services.club_table_create(club=club, by=owner, name="Members night")
    services.club_schedule(
        club=club,
        by=owner,
        kind="cash",
        name="Next Thursday",
        starts_at=timezone.now() + timedelta(days=3),
    )
    member_view = _client(friend).get("/").content.decode()
    assert "Members night" in member_view and "Next Thursday" in member_view
    stranger_view = _client(stranger).get("/").content.decode()
    assert "Members night" not in stranger_view and "Next Thursday" not in stranger_view


def test_members_say_they_are_in_and_an_admin_resets_the_code(players):
    from tables.clubs import services
    from tables.clubs.models import Attendance

    owner, friend, _ = players
    club = services.club_create(owner=owner, name="In Club", needs_approval=False)
    services.club_join(club=club, player=friend, code=club.invite_code)
    game = services.club_schedule(
        club=club, by=owner, kind="cash", name="Soon", starts_at=timezone.now() + timedelta(days=1)
    )
    _client(friend).post(f"/clubs/{club.pk}/games/{game.pk}/attend/", {"going": "1"})
    assert Attendance.objects.get(game=game, player=friend).going
    assert str(friend) in _client(owner).get(f"/clubs/{club.pk}/").content.decode()
    old = club.invite_code
    refused = _client(friend).post(f"/clubs/{club.pk}/invite/reset/")
    assert refused.status_code == 400
    assert Club.objects.get(pk=club.pk).invite_code == old
    _client(owner).post(f"/clubs/{club.pk}/invite/reset/")
    assert Club.objects.get(pk=club.pk).invite_code != old


def test_a_cash_game_is_scheduled_with_its_game_and_stakes_and_bad_ones_are_refused(players):
    """The schedule form sets the cash game's poker, betting and stakes; settings that do not
    hold together are refused when the game is scheduled, not later when its table opens."""
    owner = players[0]
    _client(owner).post("/clubs/", {"name": "Cash club"})
    club = Club.objects.get()
    later = (timezone.localtime() + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M")
    form = {"kind": "cash", "name": "PLO night", "starts_at": later}
    stakes = {"game": "omaha", "betting": "pot-limit", "small_blind": "5", "big_blind": "10"}
    bad = _client(owner).post(f"/clubs/{club.pk}/schedule/", {**form, **stakes, "big_blind": "3"})
    assert bad.status_code == 400 and "big blind" in bad.content.decode().lower()
    unreadable = _client(owner).post(f"/clubs/{club.pk}/schedule/", {**form, "max_seats": "²"})
    assert unreadable.status_code == 400 and "Seats must be a whole number" in (
        unreadable.content.decode()
    )
    assert not ScheduledGame.objects.exists()
    made = _client(owner).post(f"/clubs/{club.pk}/schedule/", {**form, **stakes})
    assert made.status_code == 302
    game = ScheduledGame.objects.get()
    assert game.settings == {
        "game": "omaha",
        "betting": "pot-limit",
        "small_blind": 5,
        "big_blind": 10,
    }


def test_the_schedule_forms_poker_choice_posts_a_game_the_site_knows(players):
    """Issue 49 defect 1: the page's Poker choice posted the game's family ("Hold'em") and
    scheduling a cash game answered 500. Each option is a game's key; the family names only
    its group; a name that is no game is refused on the page, nothing made."""
    import re

    from tables.models import Table

    owner = players[0]
    _client(owner).post("/clubs/", {"name": "Poker club"})
    club = Club.objects.get()
    page = _client(owner).get(f"/clubs/{club.pk}/").content.decode()
    select = re.search(r'<select name="game">(.*?)</select>', page, re.S)
    assert select is not None
    offered = re.findall(r'<option value="([^"]*)"', select.group(1))
    assert offered and set(offered) <= set(Table.GAMES), offered
    later = (timezone.localtime() + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M")
    form = {"kind": "cash", "name": "Hold'em night", "starts_at": later}
    refused = _client(owner).post(f"/clubs/{club.pk}/schedule/", {**form, "game": "Hold'em"})
    assert refused.status_code == 400 and "Choose one of the games" in refused.content.decode()
    assert not ScheduledGame.objects.exists()
    made = _client(owner).post(f"/clubs/{club.pk}/schedule/", {**form, "game": offered[0]})
    assert made.status_code == 302
    assert ScheduledGame.objects.get().settings["game"] == offered[0] == "holdem"


def test_a_club_tables_invite_link_is_a_404_to_visitors_and_non_members(players):
    """Issue 54 finding 5: logged out, the link showed the table, its host, stakes and who
    sat, and "Join as guest" made a guest with the starting grant who then got 404."""
    from django.contrib.auth import get_user_model

    from tables.clubs import services
    from tables.models import LedgerEntry, TableGuest

    owner, friend, stranger = players
    club = services.club_create(owner=owner, name="Thursday Club", needs_approval=False)
    services.club_join(club=club, player=friend, code=club.invite_code)
    table = services.club_table_create(club=club, by=owner, name="Secret night")
    link = f"/join/{table.invite_token}/"
    users, grants = get_user_model().objects.count(), LedgerEntry.objects.count()
    shown = Client().get(link)
    assert shown.status_code == 404 and "Secret night" not in shown.content.decode()
    assert owner.user.username not in shown.content.decode()
    guest = Client().post(f"{link}guest/", {"name": "sneaky"})
    assert guest.status_code == 404 and "Secret night" not in guest.content.decode()
    assert get_user_model().objects.count() == users and LedgerEntry.objects.count() == grants
    assert _client(stranger).get(link).status_code == 404
    assert not TableGuest.objects.exists()
    # a member follows the link to the table
    assert _client(friend).get(link)["Location"] == f"/tables/{table.pk}/"


def test_a_clubs_description_is_stored_clean_and_shown_isolated(players):
    """Issue 54 finding 4: a description kept U+202E, ESC and U+200B and the page rendered
    them raw (escaped as HTML, but the override reversed the text after it)."""
    owner = players[0]
    _client(owner).post(
        "/clubs/",
        {
            "name": "Bidi Club",
            "description": "Fri\u202eday\u200b\x1b[2J night\r\nbring\u2066 snacks",
        },
    )
    club = Club.objects.get(name="Bidi Club")
    assert club.description == "Friday [2J night\nbring snacks"
    page = _client(owner).get(f"/clubs/{club.pk}/").content.decode()
    assert '<p class="description" dir="auto">Friday [2J night<br>bring snacks</p>' in page


def test_a_removed_members_lobby_and_profile_no_longer_list_the_clubs_table(players):
    """Issue 54 finding 7: the lobby's recent games kept the club's table, linking to a 404."""
    from tables.clubs import services
    from tables.services.seats import seat_leave, seat_take

    owner, friend, _ = players
    club = services.club_create(owner=owner, name="Leaving Club", needs_approval=False)
    services.club_join(club=club, player=friend, code=club.invite_code)
    table = services.club_table_create(club=club, by=owner, name="Club night")
    seat_take(table=table, player=friend, buy_in=100)
    seat_leave(table=table, player=friend)
    link = f'href="/tables/{table.pk}/"'
    assert link in _client(friend).get("/").content.decode()
    services.club_member_update(club=club, by=owner, player=friend, action="remove")
    for page in ("/", "/accounts/profile/"):
        assert link not in _client(friend).get(page).content.decode(), page
    assert _client(friend).get(f"/tables/{table.pk}/").status_code == 404
    assert link in _client(owner).get("/").content.decode()  # the owner still sees it


def test_the_schedule_form_offers_every_preset_and_schedules_a_hyper_in_big_blinds(players):
    """Issue 52: the club's schedule form offered turbo, regular and deep only. It offers
    every preset the tournament form does (hyper too) and the starting stack in big blinds;
    the scheduled tournament has that structure's levels and that stack."""
    import re

    from tables.tournaments import structure
    from tables.tournaments.forms import STRUCTURES

    owner = players[0]
    _client(owner).post("/clubs/", {"name": "Hyper club"})
    club = Club.objects.get()
    page = _client(owner).get(f"/clubs/{club.pk}/").content.decode()
    select = re.search(r'<select name="structure">(.*?)</select>', page, re.S)
    assert select is not None
    offered = re.findall(r'<option value="([^"]*)"', select.group(1))
    assert offered == [value for value, _ in STRUCTURES if value != "custom"]
    assert 'name="starting_big_blinds"' in page
    later = (timezone.localtime() + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M")
    form = {"kind": "tournament", "name": "Hyper night", "starts_at": later}
    unreadable = _client(owner).post(
        f"/clubs/{club.pk}/schedule/", {**form, "structure": "hyper", "starting_big_blinds": "x"}
    )
    assert unreadable.status_code == 400 and not ScheduledGame.objects.exists()
    made = _client(owner).post(
        f"/clubs/{club.pk}/schedule/", {**form, "structure": "hyper", "starting_big_blinds": "40"}
    )
    assert made.status_code == 302
    tournament = ScheduledGame.objects.get().tournament
    assert tournament is not None and tournament.structure == "hyper"
    assert tournament.levels == structure.preset_levels("hyper")
    assert tournament.starting_stack == 40 * tournament.levels[0]["big_blind"]
