"""Sign up (with the starting grant), log in/out, change password, profile with the ledger."""

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tables.models import LedgerEntry, Player, Table
from tables.services import seat_take

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def test_sign_up_creates_a_player_with_the_starting_grant_and_logs_in(client, settings):
    response = client.post(
        reverse("signup"),
        {
            "username": "dana",
            "email": "",
            "password1": "felt-and-chips-42",
            "password2": "felt-and-chips-42",
        },
    )
    assert response.status_code == 302 and response.url == reverse("lobby")
    player = Player.objects.get(user__username="dana")
    assert player.bankroll == settings.POKER_STARTING_GRANT == 10_000
    entry = LedgerEntry.objects.get(player=player)
    assert (entry.kind, entry.amount, entry.balance_after) == ("grant", 10_000, 10_000)
    lobby = client.get(response.url).content.decode()
    assert "Welcome, dana! You have 10,000 play chips" in lobby, "lands in the lobby, welcomed"
    page = client.get(reverse("profile"))
    assert page.status_code == 200
    assert b'id="bankroll">10,000<' in page.content
    assert b"Starting grant" in page.content


def test_signing_up_from_a_game_returns_there_without_the_lobbys_welcome_banner(
    client: Client, make_table: Callable[..., Table]
) -> None:
    """Issue 31, item 19: the banner ("pick a table below") showed over the table page."""
    table = make_table(name="Friday")
    target = reverse("tables:detail", args=[table.pk])
    form = {"username": "dana", "password1": "felt-and-chips-42", "password2": "felt-and-chips-42"}
    response = client.post(f"{reverse('signup')}?next={target}", {**form, "next": target})
    assert response.status_code == 302 and response.url == target
    assert "Welcome, dana" not in client.get(target).content.decode()
    assert "Welcome, dana" not in client.get(reverse("lobby")).content.decode()


@pytest.mark.parametrize(
    "data, message",
    [
        (
            {"username": "", "password1": "felt-and-chips-42", "password2": "felt-and-chips-42"},
            "This field is required.",
        ),
        (
            {"username": "erin", "password1": "felt-and-chips-42", "password2": "other-pass-99"},
            "The two password fields didn",
        ),
        (
            {"username": "erin", "password1": "123", "password2": "123"},
            "This password is too short.",
        ),
        (
            {
                "username": "alice",
                "password1": "felt-and-chips-42",
                "password2": "felt-and-chips-42",
            },
            "A user with that username already exists.",
        ),
        (
            {
                "username": "erin",
                "email": "nope",
                "password1": "felt-and-chips-42",
                "password2": "felt-and-chips-42",
            },
            "Enter a valid email address.",
        ),
    ],
)
def test_sign_up_errors_are_clear_and_create_nothing(client, make_player, data, message):
    make_player("alice")
    users = User.objects.count()
    response = client.post(reverse("signup"), data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert User.objects.count() == users


def test_log_in_and_out(client, make_player):
    make_player("alice")
    bad = client.post(reverse("login"), {"username": "alice", "password": "wrong"})
    assert "Please enter a correct username and password" in bad.content.decode()
    good = client.post(reverse("login"), {"username": "alice", "password": "pw-alice-Secret1"})
    assert good.status_code == 302
    assert client.get(reverse("profile")).status_code == 200
    client.post(reverse("logout"))
    assert client.get(reverse("profile")).status_code == 302


def test_change_password(client, make_player):
    client.force_login(make_player("alice").user)
    wrong = client.post(
        reverse("password_change"),
        {
            "old_password": "nope",
            "new_password1": "new-felt-pass-7",
            "new_password2": "new-felt-pass-7",
        },
    )
    assert "Your old password was entered incorrectly" in wrong.content.decode()
    done = client.post(
        reverse("password_change"),
        {
            "old_password": "pw-alice-Secret1",
            "new_password1": "new-felt-pass-7",
            "new_password2": "new-felt-pass-7",
        },
    )
    assert done.status_code == 302
    client.logout()
    # Through the form: django-axes wants the request that client.login() does not pass.
    new = client.post(reverse("login"), {"username": "alice", "password": "new-felt-pass-7"})
    assert new.status_code == 302


def test_profile_needs_login_and_shows_seats_and_ledger(client, make_player, table):
    alice = make_player("alice")
    assert client.get(reverse("profile")).status_code == 302
    seat_take(table=table, player=alice, buy_in=150)
    client.force_login(alice.user)
    page = client.get(reverse("profile")).content.decode()
    assert "9,850" in page and "-150" in page and "Buy-in" in page
    # the ledger says what happened once: "Buy-in", not "Buy-in — Buy-in at Main"
    assert "<td>Buy-in</td>" in page and "Buy-in at" not in page
    assert "Main" in page and "seat 1, 150 chips" in page
