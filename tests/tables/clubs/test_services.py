"""The clubs' services and selectors (tables/clubs): membership rules, access to a club's
games, scheduling, seasons and standings recomputed from scratch, and bad input refused with
nothing changed."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.utils import timezone

from tables.clubs import errors, selectors, services
from tables.clubs.models import ClubEvent, Membership, ScheduledGame, Season
from tables.clubs.schedule import open_due_games
from tables.models import Table
from tables.selectors.access import can_see_table
from tables.tournaments.access import can_see_tournament
from tables.tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(players):
    owner, friend, _ = players
    club = services.club_create(owner=owner, name="Thursday Club", needs_approval=True)
    services.club_join(club=club, player=friend, code=club.invite_code)
    services.club_member_update(club=club, by=owner, player=friend, action="approve")
    return club


def test_joining_waits_for_approval_then_the_member_sees_the_clubs_table(club, players):
    owner, friend, stranger = players
    table = services.club_table_create(club=club, by=owner, name="Night one")
    assert can_see_table(table, friend.user) and not can_see_table(table, stranger.user)
    pending = services.club_join(club=club, player=stranger, code=club.invite_code)
    assert pending.status == Membership.Status.PENDING
    assert not can_see_table(table, stranger.user)
    services.club_member_update(club=club, by=owner, player=stranger, action="approve")
    assert can_see_table(Table.objects.get(pk=table.pk), stranger.user)
    assert ClubEvent.objects.filter(club=club, kind="member_approved").count() == 2


def test_a_non_member_with_the_tables_invite_link_still_cannot_see_it(club, players):
    from tables.services.errors import NoSuchInvite
    from tables.services.hosting import table_guest_join

    owner, friend, stranger = players
    table = services.club_table_create(club=club, by=owner, name="Night one")
    with pytest.raises(NoSuchInvite):  # nothing recorded for them
        table_guest_join(token=table.invite_token, player=stranger)
    assert not can_see_table(table, stranger.user) and not table.guests.exists()
    assert table_guest_join(token=table.invite_token, player=friend) == table


def test_an_admin_cannot_remove_the_owner_and_a_removed_member_cannot_rejoin(club, players):
    owner, friend, _ = players
    services.club_member_update(club=club, by=owner, player=friend, action="promote")
    with pytest.raises(errors.OwnerStays):
        services.club_member_update(club=club, by=friend, player=owner, action="remove")
    assert Membership.objects.get(club=club, player=owner).status == Membership.Status.ACTIVE
    services.club_member_update(club=club, by=owner, player=friend, action="remove")
    with pytest.raises(errors.RemovedFromClub):
        services.club_join(club=club, player=friend, code=club.invite_code)


def test_a_reset_invitation_code_is_refused_with_its_own_code(club, players):
    owner, _, stranger = players
    old = club.invite_code
    club = services.club_invite_reset(club=club, by=owner)
    with pytest.raises(errors.InviteCodeRetired) as refused:
        services.club_join(club=club, player=stranger, code=old)
    assert refused.value.code == "invite_code_retired"
    assert not Membership.objects.filter(club=club, player=stranger).exists()


def test_a_club_tournament_is_hidden_from_non_members(club, players):
    owner, friend, stranger = players
    tournament = services.club_tournament_create(club=club, by=owner, name="Cup")
    assert can_see_tournament(tournament, friend.user)
    assert not can_see_tournament(tournament, stranger.user)


def test_a_schedule_in_the_past_is_refused_and_nothing_is_made(club, players):
    owner = players[0]
    with pytest.raises(errors.ScheduleInPast):
        services.club_schedule(
            club=club,
            by=owner,
            kind="tournament",
            name="Late",
            starts_at=timezone.now() - timedelta(minutes=1),
        )
    assert not ScheduledGame.objects.exists() and not Tournament.objects.exists()


def test_a_scheduled_cash_game_opens_by_itself_once_at_its_time(club, players):
    owner = players[0]
    now = timezone.now()
    game = services.club_schedule(
        club=club, by=owner, kind="cash", name="Cash night", starts_at=now + timedelta(hours=1)
    )
    open_due_games(now)
    assert ScheduledGame.objects.get(pk=game.pk).table is None
    open_due_games(now + timedelta(hours=1))
    open_due_games(now + timedelta(hours=2))
    game.refresh_from_db()
    assert game.table is not None and selectors.club_tables(club).count() == 1
    assert game.table.private


def test_a_scheduled_tournament_starts_itself_at_its_time(club, players):
    owner = players[0]
    starts = timezone.now() + timedelta(minutes=1)
    game = services.club_schedule(
        club=club, by=owner, kind="tournament", name="Cup", starts_at=starts
    )
    assert game.tournament is not None
    assert (game.tournament.start, game.tournament.start_at) == ("time", starts)
    assert game.tournament.club_link.club == club


def test_seasons_may_not_overlap_and_a_points_table_must_add_up(club, players):
    owner = players[0]
    services.season_open(
        club=club, by=owner, name="Spring", starts_on=date(2026, 3, 1), ends_on=date(2026, 5, 31)
    )
    with pytest.raises(errors.SeasonOverlaps):
        services.season_open(
            club=club,
            by=owner,
            name="Late spring",
            starts_on=date(2026, 5, 1),
            ends_on=date(2026, 6, 30),
        )
    with pytest.raises(errors.PointsTableInvalid):
        services.season_open(
            club=club,
            by=owner,
            name="Summer",
            starts_on=date(2026, 6, 1),
            ends_on=date(2026, 8, 31),
            rule="fixed",
            points_table=[3, 5, 1],
        )
    assert Season.objects.filter(club=club).count() == 1


def _finished_cup(club, owner, places):
    cup = services.club_tournament_create(club=club, by=owner, name="Cup")
    for player, place in places:
        Entry.objects.create(tournament=cup, player=player, place=place)
    Tournament.objects.filter(pk=cup.pk).update(status="finished", finished_at=timezone.now())
    return cup


def test_standings_are_the_sum_of_the_tournaments_points_recomputed_the_same(club, players):
    owner, friend, _ = players
    today = timezone.localdate()
    season = services.season_open(
        club=club,
        by=owner,
        name="Now",
        starts_on=today,
        ends_on=today + timedelta(days=30),
        rule="fixed",
        points_table=[10, 6],
    )
    _finished_cup(club, owner, [(owner, 1), (friend, 2)])
    _finished_cup(club, owner, [(owner, 2), (friend, 1)])
    _finished_cup(club, owner, [(friend, 1), (owner, 2)])
    first = selectors.standings(season)
    assert [(s.name, s.points, s.tournaments) for s in first] == [
        (str(friend), 26.0, 3),
        (str(owner), 22.0, 3),
    ]
    assert selectors.standings(Season.objects.get(pk=season.pk)) == first


def test_the_square_root_rule():
    from tables.clubs.points import for_place

    assert for_place("sqrt", [], 1, 4) == 20.0
    assert for_place("sqrt", [], 4, 4) == 10.0


def test_a_scheduled_cash_game_opens_with_the_settings_it_was_scheduled_with(club, players):
    owner = players[0]
    now = timezone.now()
    settings = {"game": "omaha", "betting": "pot-limit", "small_blind": 5, "big_blind": 10}
    game = services.club_schedule(
        club=club,
        by=owner,
        kind="cash",
        name="PLO",
        starts_at=now + timedelta(hours=1),
        settings=settings,
    )
    open_due_games(now + timedelta(hours=1))
    game.refresh_from_db()
    assert game.table is not None
    assert (game.table.game, game.table.betting, game.table.big_blind) == ("omaha", "pot-limit", 10)
