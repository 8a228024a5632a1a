"""Guests by name (issue 31 item 4): the invite link opened logged out shows the game and
makes a guest account with a name alone; the guest keeps it with a password; limits."""

from __future__ import annotations

import html

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.test import Client

from tables.models import LedgerEntry, Player, Table, TableGuest
from tables.services import seat_take
from tables.services.errors import InvalidName, InvalidPassword, NoSuchInvite, NotAGuest
from tables.services.guests import guest_join, guest_keep
from tables.services.hosting import table_create, table_invite_replace
from tables.services.table import table_close


@pytest.fixture
def game(make_player):
    host = make_player("hostess")
    table = table_create(host=host, name="Friday night")
    seat_take(table=table, player=make_player("alice"), buy_in=100)
    return table


def user_count() -> int:
    return get_user_model().objects.count()


@pytest.mark.django_db
def test_a_guest_joins_with_a_name_alone(game, settings):
    player = guest_join(name="  gail ", token=game.invite_token)
    assert player.name == "gail" and player.is_guest and player.guest_table_id == game.pk
    assert not player.user.has_usable_password()
    assert player.bankroll == settings.POKER_STARTING_GRANT
    assert LedgerEntry.objects.filter(player=player, kind=LedgerEntry.Kind.GRANT).count() == 1
    assert TableGuest.objects.filter(table=game, player=player).exists()
    seat_take(table=game, player=player, buy_in=100)  # plays chips like anyone


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("", "Type the name"),
        ("two words", "no spaces"),
        ("ALICE", "taken"),
        ("аlice", "looks like"),  # a Cyrillic а
        ("evil\u202etxt", "control character"),
        ("x" * 151, "at most 150"),
    ],
)
def test_a_bad_name_is_refused_and_nothing_is_made(game, name, words):
    before = user_count()
    with pytest.raises(InvalidName, match=words):
        guest_join(name=name, token=game.invite_token)
    assert user_count() == before


@pytest.mark.django_db
def test_a_replaced_or_closed_invite_makes_no_guest(game, make_player):
    old = game.invite_token
    table_invite_replace(table=game, by=game.host.user)
    before = user_count()
    with pytest.raises(NoSuchInvite):
        guest_join(name="gail", token=old)
    table_close(table=game)
    with pytest.raises(NoSuchInvite):
        guest_join(name="gail", token=Table.objects.get(pk=game.pk).invite_token)
    assert user_count() == before


@pytest.mark.django_db
def test_a_guest_keeps_the_account_with_a_password(game, make_player):
    player = guest_join(name="gail", token=game.invite_token)
    with pytest.raises(InvalidPassword):
        guest_keep(player=player, password="123")
    assert Player.objects.get(pk=player.pk).is_guest
    guest_keep(player=player, password="a-long-Secret-99")
    kept = Player.objects.get(pk=player.pk)
    assert not kept.is_guest and kept.user.check_password("a-long-Secret-99")
    with pytest.raises(NotAGuest):
        guest_keep(player=kept, password="another-Secret-77")
    with pytest.raises(NotAGuest):
        guest_keep(player=make_player("bob"), password="another-Secret-77")


@pytest.mark.django_db
def test_the_link_logged_out_shows_the_game_and_joins_a_guest(game):
    link = f"/join/{game.invite_token}/"
    client = Client()
    page = html.unescape(client.get(link).content.decode())
    for words in ("Friday night", "hostess", game.stakes, game.variant, "alice", "Join as guest"):
        assert words in page, words
    assert f"/accounts/signup/?next={link}" in page
    refused = client.post(link + "guest/", {"name": "alice"})
    assert refused.status_code == 400 and "taken" in refused.content.decode()
    answer = client.post(link + "guest/", {"name": "gail"})
    assert answer.url == f"/tables/{game.pk}/"
    table_page = client.get(answer.url).content.decode()
    assert "Keep this account" in table_page
    keep = client.post(
        "/accounts/keep/",
        {"new_password1": "a-long-Secret-99", "new_password2": "a-long-Secret-99"},
    )
    assert keep.url == "/accounts/profile/"
    assert client.get(f"/tables/{game.pk}/").status_code == 200  # still logged in
    assert not Player.objects.get(user__username="gail").is_guest
    login = Client().post("/accounts/login/", {"username": "gail", "password": "a-long-Secret-99"})
    assert login.status_code == 302, login.content.decode()


@pytest.mark.django_db
def test_a_replaced_link_says_so_before_any_log_in(game, make_player):
    old = f"/join/{game.invite_token}/"
    table_invite_replace(table=game, by=game.host.user)
    for client in (Client(), Client()):
        answer = client.get(old)
        assert answer.status_code == 404 and "replaced" in answer.content.decode()
    answer = Client().post(old + "guest/", {"name": "gail"})
    assert answer.status_code == 404 and "replaced" in answer.content.decode()
    assert not get_user_model().objects.filter(username="gail").exists()


@pytest.mark.django_db
def test_guests_are_limited_per_address_like_sign_ups(game, settings):
    settings.RATELIMIT_ENABLED = True
    settings.RATELIMIT_EXEMPT = []
    settings.RATELIMIT_RULES = (("join_guest", 2, 3600),)
    caches[settings.RATELIMIT_CACHE].clear()
    link = f"/join/{game.invite_token}/guest/"
    assert Client().post(link, {"name": "g1"}).status_code == 302
    assert Client().post(link, {"name": "g2"}).status_code == 302
    refused = Client().post(link, {"name": "g3"})
    assert refused.status_code == 429 and "Retry-After" in refused
    assert not get_user_model().objects.filter(username="g3").exists()
