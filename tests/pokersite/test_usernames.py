"""Usernames: the counting key of log-in limits and the sign-up look-alike check
(tables/usernames.py, pokersite/accounts.py)."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tables.usernames import canonical, lookalike

CYRILLIC_A = "\u0430"


@pytest.mark.parametrize("typed", ["carol", "CAROL", " Carol ", "ｃａｒｏｌ", "ＣＡＲＯＬ"])
def test_every_spelling_of_one_account_has_one_key(typed):
    assert canonical(typed) == "carol"


def test_no_name_no_key():
    assert canonical("") is None and canonical(None) is None and canonical("  ") is None


@pytest.mark.parametrize(
    "new, existing",
    [
        (CYRILLIC_A + "lice", "alice"),  # Cyrillic а
        ("\u0410LICE", "alice"),  # Cyrillic А, then Latin capitals
        ("aIice", "alice"),  # capital I for l
        ("a1ice", "alice"),  # one for l
        ("AL1CE", "ALICE"),  # one for I
        ("ｃａｒｏｌ", "carol"),  # full width (NFKC)
    ],
)
def test_look_alikes_are_found(new, existing):
    assert lookalike(new, ["bob", existing, "dave"]) == existing


@pytest.mark.parametrize(
    "new, existing",
    [
        ("alicia", "alice"),
        ("alise", "alice"),
        ("bob", "b0b"),
        ("carl", "carol"),
    ],
)
def test_different_names_are_not_look_alikes(new, existing):
    assert lookalike(new, [existing]) is None


def sign_up(client, username):
    password = "felt-and-chips-42"
    return client.post(
        reverse("signup"), {"username": username, "password1": password, "password2": password}
    )


@pytest.fixture
def alice_and_carol(make_player):
    make_player("alice")
    make_player("carol")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "name, error",
    [
        (CYRILLIC_A + "lice", "looks like an existing player"),
        ("A1ice", "looks like an existing player"),
        ("ｃａｒｏｌ", "already exists"),  # Django's: NFKC makes it carol
        ("CAROL", "already exists"),  # Django's: taken in another case
    ],
)
def test_sign_up_refuses_a_name_that_reads_like_a_taken_one(client, alice_and_carol, name, error):
    users = User.objects.count()
    response = sign_up(client, name)
    assert response.status_code == 200
    assert error in " ".join(response.context["form"].errors["username"])
    assert User.objects.count() == users


@pytest.mark.django_db
def test_sign_up_accepts_a_different_name(client, alice_and_carol):
    assert sign_up(client, "alicia").status_code == 302
    assert User.objects.filter(username="alicia").exists()
