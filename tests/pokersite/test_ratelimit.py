"""The sign-up throttle (``tables.ratelimit.RateLimitMiddleware``); log-in limits are in
test_login_limits.py.

Each test uses its own random documentation addresses, so counters left in a shared Redis
cache by an earlier run cannot make it pass or fail.
"""

import secrets

import pytest
from django.contrib.auth.models import User
from django.test import RequestFactory
from django.urls import reverse

from tables.ratelimit import Rule, client_address

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def address() -> str:
    return f"2001:db8:{secrets.token_hex(2)}:{secrets.token_hex(2)}::1"


def sign_up(client, ip):
    password = "felt-and-chips-42"
    response = client.post(
        reverse("signup"),
        {"username": f"rl{secrets.token_hex(5)}", "password1": password, "password2": password},
        REMOTE_ADDR=ip,
    )
    client.post(reverse("logout"))
    return response


def test_sign_ups_from_one_address_are_throttled(client, settings):
    settings.RATELIMIT_RULES = (Rule("signup", 2, 3600),)
    ip = address()
    assert sign_up(client, ip).status_code == 302
    assert sign_up(client, ip).status_code == 302
    users = User.objects.count()
    refused = sign_up(client, ip)
    assert refused.status_code == 429 and "Too many sign-ups" in refused.content.decode()
    assert 0 < int(refused["Retry-After"]) <= 3600
    assert User.objects.count() == users  # nothing created
    # Another address is not affected.
    assert sign_up(client, address()).status_code == 302


def test_the_default_is_ten_sign_ups_per_hour_per_address(client):
    ip = address()
    for _ in range(10):
        assert sign_up(client, ip).status_code == 302
    assert sign_up(client, ip).status_code == 429


def test_showing_the_form_is_never_throttled(client, settings):
    settings.RATELIMIT_RULES = (Rule("signup", 1, 300),)
    ip = address()
    for _ in range(3):
        assert client.get(reverse("signup"), REMOTE_ADDR=ip).status_code == 200


def test_loopback_is_throttled_unless_listed(client, settings):
    settings.RATELIMIT_RULES = (Rule("signup", 1, 300),)
    for _ in range(3):  # the test suite lists loopback (tests/conftest.py)
        assert sign_up(client, "127.0.0.1").status_code == 302
    settings.RATELIMIT_EXEMPT = []
    # The loopback counter may hold earlier runs' sign-ups in a shared cache: at most one more.
    statuses = [sign_up(client, "127.0.0.1").status_code for _ in range(2)]
    assert statuses[-1] == 429


def test_nothing_is_throttled_when_disabled(client, settings):
    settings.RATELIMIT_RULES = (Rule("signup", 1, 300),)
    settings.RATELIMIT_ENABLED = False
    ip = address()
    for _ in range(3):
        assert sign_up(client, ip).status_code == 302


@pytest.mark.parametrize(
    "remote, counted_as",
    [
        ("198.51.100.7", "198.51.100.7"),
        ("::ffff:198.51.100.7", "198.51.100.7"),  # IPv4 on a dual-stack socket
        ("2001:DB8:1:2:3:4:5:6", "2001:db8:1:2::"),  # its /64
        ("2001:db8:1:2::ffff", "2001:db8:1:2::"),
        ("garbage", None),
        ("", None),
    ],
)
def test_addresses_are_counted_per_ipv4_address_and_per_ipv6_64(remote, counted_as):
    assert client_address(RequestFactory().get("/", REMOTE_ADDR=remote)) == counted_as
