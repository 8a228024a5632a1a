"""``/push/subscription/`` (issue 50): a logged-in player's browser hands in its Web Push
subscription for the turn nudge, or withdraws it; only push services the site knows, only
a browser's keys; nothing at all where the site has no VAPID key."""

from __future__ import annotations

import base64
import json

import pytest
from django.test import Client

from pokersite.env import vapid_public_key
from tables.models import PushSubscription
from tests.pokersite.fresh_python import run_fresh

pytestmark = pytest.mark.django_db

URL = "/push/subscription/"
ENDPOINT = "https://fcm.googleapis.com/fcm/send/abc123"
#: A browser's keys as it writes them: a P-256 point (65 bytes) and a 16-byte secret.
KEYS = {
    "p256dh": base64.urlsafe_b64encode(b"\x04" + bytes(range(64))).rstrip(b"=").decode(),
    "auth": base64.urlsafe_b64encode(bytes(16)).rstrip(b"=").decode(),
}
PRIVATE = base64.urlsafe_b64encode(bytes(31) + b"\x07").rstrip(b"=").decode()


@pytest.fixture
def vapid(settings):
    settings.POKER_VAPID_PRIVATE_KEY = PRIVATE
    settings.POKER_VAPID_PUBLIC_KEY = vapid_public_key(PRIVATE)
    settings.POKER_VAPID_SUBJECT = "mailto:ops@example.org"


def send(client: Client, method: str, body: object):
    return getattr(client, method)(URL, json.dumps(body), content_type="application/json")


def logged_in(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def test_a_player_hands_in_a_subscription_and_withdraws_it(players, vapid):
    alice = logged_in(players[0])
    response = send(alice, "post", {"endpoint": ENDPOINT, "keys": KEYS})
    assert response.status_code == 201, response.content
    assert PushSubscription.objects.get().player == players[0]
    # the same browser used by bob afterwards: the subscription is his now, not both's
    assert (
        send(logged_in(players[1]), "post", {"endpoint": ENDPOINT, "keys": KEYS}).status_code == 201
    )
    assert PushSubscription.objects.get().player == players[1]
    assert send(alice, "delete", {"endpoint": ENDPOINT}).json() == {
        "subscribed": False,
        "was": False,
    }
    assert send(logged_in(players[1]), "delete", {"endpoint": ENDPOINT}).json()["was"] is True
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://attacker.example/collect",  # the server would post wherever it is told
        "http://fcm.googleapis.com/fcm/send/abc",  # a known service, but not over https
        "https://fcm.googleapis.com.attacker.example/x",
        "https://user:pw@fcm.googleapis.com/x",
        "https://127.0.0.1/x",
        "not a url",
    ],
)
def test_a_push_service_the_site_does_not_know_is_refused(players, vapid, endpoint):
    response = send(logged_in(players[0]), "post", {"endpoint": endpoint, "keys": KEYS})
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_subscription"
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        {"endpoint": ENDPOINT, "keys": {"p256dh": KEYS["p256dh"][:-4], "auth": KEYS["auth"]}},
        {"endpoint": ENDPOINT, "keys": {"p256dh": KEYS["p256dh"], "auth": "!!not base64!!"}},
        {"endpoint": ENDPOINT},
        {"keys": KEYS},
        ["not", "an", "object"],
    ],
)
def test_keys_that_are_not_a_browsers_are_refused(players, vapid, body):
    response = send(logged_in(players[0]), "post", body)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_subscription"
    assert not PushSubscription.objects.exists()


def test_only_a_logged_in_player_only_where_the_site_has_a_key(players, settings, vapid):
    assert send(Client(), "post", {"endpoint": ENDPOINT, "keys": KEYS}).status_code == 403
    assert logged_in(players[0]).get(URL).status_code == 405
    settings.POKER_VAPID_PRIVATE_KEY = ""
    response = send(logged_in(players[0]), "post", {"endpoint": ENDPOINT, "keys": KEYS})
    assert response.status_code == 404 and response.json()["code"] == "push_off"
    assert not PushSubscription.objects.exists()


def test_the_preferences_page_gives_the_key_only_where_there_is_one(players, settings, vapid):
    page = logged_in(players[0]).get("/accounts/preferences/").content.decode()
    assert f'data-key="{settings.POKER_VAPID_PUBLIC_KEY}"' in page
    assert 'id="nudge-push"' not in Client().get("/accounts/preferences/").content.decode()
    settings.POKER_VAPID_PRIVATE_KEY = settings.POKER_VAPID_PUBLIC_KEY = ""
    assert (
        'id="nudge-push"'
        not in logged_in(players[0]).get("/accounts/preferences/").content.decode()
    )


def test_a_vapid_key_that_is_not_one_stops_the_site_at_start():
    from django.core.exceptions import ImproperlyConfigured

    with pytest.raises(ImproperlyConfigured, match="POKER_VAPID_PRIVATE_KEY"):
        vapid_public_key("too-short")
    # the public key browsers subscribe with: an uncompressed P-256 point
    assert base64.urlsafe_b64decode(vapid_public_key(PRIVATE) + "=")[0] == 4


VAPID_PROBE = "import pokersite.settings as s; print(s.POKER_VAPID_PUBLIC_KEY)"
VAPID_ENV = {"POKER_VAPID_PRIVATE_KEY", "POKER_VAPID_SUBJECT"}


def test_the_vapid_settings_are_checked_at_start_without_showing_the_key():
    secret = "c2VjcmV0LWJ1dC1ub3QtYS1rZXk"
    done = run_fresh(VAPID_PROBE, {"POKER_VAPID_PRIVATE_KEY": secret}, drop=VAPID_ENV)
    assert "ImproperlyConfigured: POKER_VAPID_PRIVATE_KEY must be" in done.stderr
    assert secret not in done.stderr, "a secret is not written to the logs"
    done = run_fresh(VAPID_PROBE, {"POKER_VAPID_PRIVATE_KEY": PRIVATE}, drop=VAPID_ENV)
    assert "ImproperlyConfigured: POKER_VAPID_SUBJECT must be" in done.stderr
    good = {"POKER_VAPID_PRIVATE_KEY": PRIVATE, "POKER_VAPID_SUBJECT": "mailto:ops@example.org"}
    done = run_fresh(VAPID_PROBE, good, drop=VAPID_ENV)
    assert done.stdout.strip() == vapid_public_key(PRIVATE), done.stderr
    assert run_fresh(VAPID_PROBE, {}, drop=VAPID_ENV).stdout.strip() == ""
