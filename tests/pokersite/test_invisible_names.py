"""Invisible letters make no look-alike names (issue 54 finding 3): a character that shows
nothing (Unicode's Default_Ignorable code points: U+3164 HANGUL FILLER, U+115F, U+FFA0,
U+034F...; the blank U+2800) is refused in every name, marks stack at most three on a letter,
a name must show something, and names are the same by their skeleton (``name_key``)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from engine.text import is_ignorable
from tables.clubs import services as clubs
from tables.clubs.errors import ClubInvalid
from tables.clubs.models import Club
from tables.models import Player, Table
from tables.names import name_key, name_problem
from tables.selectors.players import name_like_taken
from tables.services.errors import InvalidName
from tables.services.guests import guest_join
from tables.services.hosting import table_create

pytestmark = pytest.mark.django_db

INVISIBLE = ["\u3164", "\u115f", "\u1160", "\uffa0", "\u2800", "\u034f", "\U000e0100"]
STACKED = "Zalgo" + "\u0301" * 30


@pytest.mark.parametrize("char", INVISIBLE)
def test_a_character_that_shows_nothing_is_refused_by_its_code_point(char):
    for name in (f"bob{char}", char, f"{char}bob"):
        problem = name_problem(name, "The username")
        assert problem is not None and f"U+{ord(char):04X}" in problem, name


@pytest.mark.parametrize("name", [STACKED, "\u0301bob", "\u3000", "\u3000\u3000"])
def test_stacked_marks_and_blank_names_are_refused(name):
    assert name_problem(name) is not None


@pytest.mark.parametrize("name", ["Tiếng Việt", "שָׁלוֹם", "♠\ufe0f night", "金曜日\u3000夜", "Ünï"])
def test_marks_on_letters_emoji_and_spaces_between_words_pass(name):
    assert name_problem(name) is None


def test_the_ignorable_table_is_unicodes():
    """Spot checks of DerivedCoreProperties.txt's Default_Ignorable_Code_Point."""
    ignorable = "\u00ad\u034f\u061c\u115f\u17b4\u180e\u200b\u202e\u2065\u3164\ufe0f\ufeff\uffa0"
    assert all(is_ignorable(c) for c in ignorable + "\U0001bca0\U0001d173\U000e0001\U000e0fff")
    assert not any(is_ignorable(c) for c in "a é\u0301\u2800\u3000\u200a\U000e1000")


def test_names_are_the_same_by_their_skeleton():
    assert name_key("Thursday\u3000 CLUB\u3164") == name_key("thursday club") == "thursday club"
    assert name_key("ｃａｒｏｌ") == "carol" and name_key("Straße") == name_key("STRASSE")


def _sign_up(client, username):
    password = "felt-and-chips-42"
    data = {"username": username, "password1": password, "password2": password}
    return client.post(reverse("signup"), data)


def test_sign_up_refuses_bob_with_a_filler_beside_bob(client, make_player):
    make_player("bob")
    users = User.objects.count()
    page = _sign_up(client, "bob\u3164")
    # Django's form makes it NFKC first: the filler U+3164 reads as U+1160
    errors = " ".join(page.context["form"].errors["username"])
    assert page.status_code == 200 and "invisible character" in errors
    assert User.objects.count() == users


def test_a_name_stored_with_a_filler_still_makes_its_look_alike_taken(make_player):
    """Names stored before the check: ``bob`` + filler is bob's look-alike, and so bob is."""
    stored = User.objects.create_user(username="bob\u3164")
    assert name_like_taken("bob") == stored.username


def test_a_guest_cannot_sit_as_alice_with_a_filler(make_player):
    host, _ = make_player("hostess"), make_player("alice")
    game = table_create(host=host, name="Friday night")
    players = Player.objects.count()
    with pytest.raises(InvalidName, match="invisible character"):
        guest_join(name="alice\u3164", token=game.invite_token)
    page = Client().post(f"/join/{game.invite_token}/guest/", {"name": "alice\u3164"})
    assert page.status_code == 400 and "invisible character" in page.content.decode()
    assert Player.objects.count() == players


@pytest.mark.parametrize("name", ["\u3164", "\u2800", STACKED, "\u3000"])
def test_a_table_named_blank_or_stacked_is_refused_by_the_api(make_player, name):
    host = make_player("hostess")
    client = APIClient()
    client.force_login(host.user)
    answer = client.post("/api/tables/", {"name": name}, format="json")
    assert answer.status_code == 400, answer.json()
    assert "name" in answer.json()["errors"]
    assert not Table.objects.exists()


@pytest.mark.parametrize("name", ["\u3164", STACKED])
def test_a_club_named_blank_or_stacked_is_refused(make_player, name):
    with pytest.raises(ClubInvalid):
        clubs.club_create(owner=make_player("owner"), name=name)
    assert not Club.objects.exists()


def test_a_club_named_like_another_by_its_skeleton_is_refused(make_player):
    owner = make_player("owner")
    clubs.club_create(owner=owner, name="Thursday Club")
    for twin in ("THURSDAY CLUB", "Thursday\u3000Club", "Ｔｈｕｒｓｄａｙ Club", "Thursday  club"):
        with pytest.raises(ClubInvalid, match="has that name"):
            clubs.club_create(owner=owner, name=twin)
    assert Club.objects.count() == 1


def test_a_tournament_named_with_a_filler_is_refused(make_player):
    from tables.tournaments.errors import TournamentInvalid
    from tables.tournaments.services.organise import tournament_organise

    with pytest.raises(TournamentInvalid):
        tournament_organise(organiser=make_player("alice"), name="Cup\u3164")
