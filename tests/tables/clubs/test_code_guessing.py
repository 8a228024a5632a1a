"""Guessing a club's invitation code is limited (issue 54 finding 7): wrong codes count per
account and per address (``tables.ratelimit.wrong_code_wait``); past the limit every try is
429, the right code too, on the page and through the API, and nothing is joined.

Each test uses its own random documentation addresses, so counters left in a shared Redis
cache by an earlier run cannot make it pass or fail."""

from __future__ import annotations

import secrets

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tables.clubs import services
from tables.clubs.models import Membership

pytestmark = pytest.mark.django_db


def address() -> str:
    return f"2001:db8:{secrets.token_hex(2)}:{secrets.token_hex(2)}::1"


@pytest.fixture
def club(make_player, settings):
    settings.RATELIMIT_WRONG_CODES = (3, 900)
    return services.club_create(owner=make_player("owner"), name="Guarded Club")


def _page(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def test_wrong_codes_on_the_page_are_limited_per_account(club, make_player):
    guesser = make_player(f"g{secrets.token_hex(4)}")
    for _ in range(3):
        wrong = _page(guesser).post(
            f"/clubs/{club.pk}/join/", {"code": "nope"}, REMOTE_ADDR=address()
        )
        assert wrong.status_code == 400
    # from yet another address, and with the right code: the account is held back
    refused = _page(guesser).post(
        f"/clubs/{club.pk}/join/", {"code": club.invite_code}, REMOTE_ADDR=address()
    )
    assert refused.status_code == 429 and 0 < int(refused["Retry-After"]) <= 900
    assert "Too many wrong invitation codes" in refused.content.decode()
    assert not Membership.objects.filter(player=guesser).exists()


def test_wrong_codes_through_the_api_are_limited_per_address(club, make_player):
    ip = address()
    for n in range(3):  # one address, a new account each time
        client = APIClient()
        client.force_login(make_player(f"a{n}{secrets.token_hex(4)}").user)
        answer = client.post(
            f"/api/clubs/{club.pk}/join/", {"code": "nope"}, format="json", REMOTE_ADDR=ip
        )
        assert answer.status_code == 409 and answer.json()["code"] == "bad_invite_code"
    late = make_player(f"late{secrets.token_hex(4)}")
    client = APIClient()
    client.force_login(late.user)
    refused = client.post(
        f"/api/clubs/{club.pk}/join/", {"code": club.invite_code}, format="json", REMOTE_ADDR=ip
    )
    assert refused.status_code == 429 and refused.json()["code"] == "throttled"
    assert not Membership.objects.filter(player=late).exists()
    # another address is not held back, and a right code counts nothing
    joined = client.post(
        f"/api/clubs/{club.pk}/join/",
        {"code": club.invite_code},
        format="json",
        REMOTE_ADDR=address(),
    )
    assert joined.status_code == 200
