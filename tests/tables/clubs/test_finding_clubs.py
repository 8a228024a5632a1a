"""Clubs are found and read in words (issue 49, item 10): the header, the lobby and the
profile link to ``/clubs/``; the club page's recent events say what happened, never a code
("season_opened")."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from tables.clubs import services
from tables.clubs.models import ClubEvent

pytestmark = pytest.mark.django_db


def _client(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


@pytest.mark.parametrize("path, links", [("/", 3), ("/accounts/profile/", 3)])
def test_the_header_lobby_and_profile_link_to_the_clubs(players, path, links):
    page = _client(players[0]).get(path).content.decode()
    # the wide header, the phone's menu, and the page's own link
    assert page.count('href="/clubs/"') == links, path
    assert 'class="clubs-link" href="/clubs/"' in page


def test_the_club_page_says_its_events_in_words(players):
    owner, friend, _ = players
    club = services.club_create(owner=owner, name="Thursday", needs_approval=True)
    services.club_join(club=club, player=friend, code=club.invite_code)
    services.club_member_update(club=club, by=owner, player=friend.pk, action="approve")
    services.club_member_update(club=club, by=owner, player=friend.pk, action="promote")
    today = timezone.localdate()
    season = services.season_open(
        club=club, by=owner, name="Autumn", starts_on=today, ends_on=today + timedelta(days=9)
    )
    services.season_close(season=season.pk, by=owner)
    ClubEvent.objects.create(club=club, kind="game_opened", detail={"game": 1})
    page = _client(friend).get(f"/clubs/{club.pk}/").content.decode()
    events = page[page.index('<ul id="club-events">') :]
    events = events[: events.index("</ul>")]
    for words in (
        "alice created the club.",
        "bob asked to join.",
        "alice approved bob.",
        "alice made bob an admin.",
        "alice opened the season Autumn.",
        "alice closed the season Autumn.",
        "A scheduled cash game opened.",
    ):
        assert words in events, words
    kinds = set(ClubEvent.objects.values_list("kind", flat=True))
    assert not [kind for kind in kinds if kind in events], events
