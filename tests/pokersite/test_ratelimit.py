"""HTTP throttles on log-in and sign-up (``pokersite/ratelimit.py``).

Each test uses its own random documentation address (TEST-NET) and usernames, so counters left
in a shared Redis cache by an earlier run cannot make it pass or fail.
"""

import secrets

import pytest
from django.urls import reverse

from pokersite.ratelimit import Rule

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def address() -> str:
    return f"203.0.113.{secrets.randbelow(250) + 1}-{secrets.token_hex(3)}"


def name() -> str:
    return f"rl{secrets.token_hex(5)}"


def login(client, ip, username, password="wrong-password-1"):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip
    )


def test_failed_logins_from_one_address_are_throttled_with_429(client, settings):
    settings.RATELIMIT_RULES = (Rule("login", "ip", 3, 300, failed_only=True),)
    ip = address()
    for _ in range(3):
        assert login(client, ip, name()).status_code == 200  # the form again, with an error
    refused = login(client, ip, name())
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert b"Too many log-in attempts" in refused.content
    # Another address is not affected.
    assert login(client, address(), name()).status_code == 200


def test_guessing_one_username_from_many_addresses_is_throttled(client, settings):
    settings.RATELIMIT_RULES = (Rule("login", "username", 2, 300, failed_only=True),)
    victim = name()
    assert login(client, address(), victim).status_code == 200
    assert login(client, address(), victim.upper()).status_code == 200
    assert login(client, address(), victim).status_code == 429


def test_successful_logins_do_not_count(client, settings, make_player):
    settings.RATELIMIT_RULES = (Rule("login", "ip", 1, 300, failed_only=True),)
    username = name()
    make_player(username)
    ip = address()
    for _ in range(3):
        ok = login(client, ip, username, password=f"pw-{username}-Secret1")
        assert ok.status_code == 302
        client.post(reverse("logout"))


def test_sign_ups_from_one_address_are_throttled(client, settings):
    settings.RATELIMIT_RULES = (Rule("signup", "ip", 2, 3600),)
    ip = address()

    def sign_up():
        password = "felt-and-chips-42"
        response = client.post(
            reverse("signup"),
            {"username": name(), "password1": password, "password2": password},
            REMOTE_ADDR=ip,
        )
        client.post(reverse("logout"))
        return response

    assert sign_up().status_code == 302
    assert sign_up().status_code == 302
    refused = sign_up()
    assert refused.status_code == 429 and b"Too many sign-ups" in refused.content


def test_showing_the_forms_is_never_throttled(client, settings):
    settings.RATELIMIT_RULES = (Rule("login", "ip", 1, 300), Rule("signup", "ip", 1, 300))
    ip = address()
    for _ in range(3):
        assert client.get(reverse("login"), REMOTE_ADDR=ip).status_code == 200
        assert client.get(reverse("signup"), REMOTE_ADDR=ip).status_code == 200


def test_loopback_is_exempt_in_development_but_not_in_production(client, settings):
    settings.RATELIMIT_RULES = (Rule("login", "ip", 1, 300, failed_only=True),)
    for _ in range(3):
        assert login(client, "127.0.0.1", name()).status_code == 200
    settings.RATELIMIT_EXEMPT = []
    # The loopback counter may hold earlier runs' tries in a shared cache: at most one more.
    statuses = [login(client, "127.0.0.1", name()).status_code for _ in range(2)]
    assert statuses[-1] == 429
