"""The turn nudge by Web Push (issue 50): when it becomes the turn of a player who opted in and
has a browser subscribed, the site posts an encrypted push message to that browser's push
service, from its sender thread once the action has committed.

The push service here is a real HTTP server on the loopback; the browser is a P-256 key pair
and an auth secret made here, and the test decrypts what arrived with the browser's private
key (RFC 8291, ``http_ece``) and checks the site's VAPID signature (RFC 8292).
"""

from __future__ import annotations

import base64
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.db import transaction

from pokersite.env import vapid_public_key
from tables import push
from tables.models import Player, PushSubscription
from tables.selectors.hands import hand_state
from tables.services import hand_start, hooks, player_set_preferences, seat_take
from tables.services.push import push_subscribe
from tests.tables.helpers import act, current_hand, fresh, passive_action

pytestmark = pytest.mark.django_db(transaction=True)


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushService:
    """A push service on the loopback: keeps every message; ``/gone/...`` answers 410."""

    def __init__(self) -> None:
        self.messages: list[dict] = []
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the http.server name)
                body = self.rfile.read(int(self.headers["Content-Length"]))
                service.messages.append(
                    {
                        "path": self.path,
                        "headers": {k.lower(): v for k, v in self.headers.items()},
                        "body": body,
                    }
                )
                self.send_response(410 if self.path.startswith("/gone/") else 201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


class Browser:
    """A browser's push subscription: its key pair and auth secret, at ``endpoint``."""

    def __init__(self, endpoint: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = endpoint
        point = self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        self.p256dh = b64(point)

    def subscribe(self, player: Player) -> None:
        push_subscribe(
            player=player, endpoint=self.endpoint, p256dh=self.p256dh, auth=b64(self.auth)
        )

    def read(self, message: dict) -> dict:
        assert message["headers"]["content-encoding"] == "aes128gcm"
        plain = http_ece.decrypt(
            message["body"], private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


@pytest.fixture
def service(settings, monkeypatch):
    """The loopback push service, the site's VAPID key, and a fresh sender (stopped after)."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = b64(key.private_numbers().private_value.to_bytes(32, "big"))
    settings.POKER_VAPID_PRIVATE_KEY = private
    settings.POKER_VAPID_PUBLIC_KEY = vapid_public_key(private)
    settings.POKER_VAPID_SUBJECT = "mailto:ops@example.org"
    running = PushService()
    settings.POKER_PUSH_SERVICES = [running.url]
    sender = push.Sender()
    monkeypatch.setattr(push, "sender", sender)
    yield running
    sender.stop()
    running.server.shutdown()


def opted_in(player: Player, nudge: bool = True) -> Player:
    return player_set_preferences(
        player=player, deck_colours="four", large_cards=False, felt="green", turn_nudge=nudge
    )


def check_vapid(message: dict, service: PushService, settings) -> None:
    """The site signed the message (ES256 JWT for this push service's origin) with its key."""
    scheme, _, params = message["headers"]["authorization"].partition(" ")
    assert scheme == "vapid", message["headers"]
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == settings.POKER_VAPID_PUBLIC_KEY
    head, claims, signature = fields["t"].split(".")
    assert json.loads(unb64(claims))["aud"] == service.url
    assert json.loads(unb64(claims))["sub"] == "mailto:ops@example.org"
    raw = unb64(signature)
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(fields["k"]))
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))


def test_a_subscribed_player_gets_one_encrypted_nudge_per_turn_and_nobody_else_any(
    players, make_table, service, settings
):
    alice, bob, carol = players
    table = make_table(name="Night owls", action_seconds=40, time_bank_seconds=20)
    alices_phone = Browser(service.url + "/alice/phone")
    alices_phone.subscribe(opted_in(alice))
    opted_in(bob)  # opted in, but no browser subscribed: nothing to send to
    Browser(service.url + "/carol/laptop").subscribe(carol)  # subscribed, not opted in
    for player in players:
        seat_take(table=table, player=player, buy_in=100)

    alices_turns, _ = play_out_counting(table, alice)[alice.pk]
    push.sender.wait_idle()

    assert alices_turns >= 2, "the fixed deck gives alice at least two turns"
    assert [m["path"] for m in service.messages] == ["/alice/phone"] * alices_turns
    for message in service.messages:
        nudge = alices_phone.read(message)
        assert nudge["table"] == table.pk and nudge["name"] == "Night owls", nudge
        assert nudge["url"] == f"/tables/{table.pk}/"
        assert nudge["title"] == "Your turn · Night owls"
        assert message["headers"]["ttl"] == "60", "stale once her clock and bank run out"
        assert message["headers"]["urgency"] == "high"
        check_vapid(message, service, settings)
    assert PushSubscription.objects.count() == 2


def test_a_player_who_acts_twice_running_is_nudged_once(players, table, service):
    """Heads-up the big blind closes the preflop betting and is first on the flop: that is
    still the turn they are at, not a new one."""
    alice, bob, _ = players
    for player in (alice, bob):
        Browser(f"{service.url}/{player.user.username}/phone").subscribe(opted_in(player))
        seat_take(table=table, player=player, buy_in=100)

    turns = play_out_counting(table, alice, bob)
    push.sender.wait_idle()

    assert sum(again for _, again in turns.values()) >= 1, "the big blind acted twice running"
    for player in (alice, bob):
        sent = [m for m in service.messages if m["path"] == f"/{player.user.username}/phone"]
        assert len(sent) == turns[player.pk][0], (player, turns)


def play_out_counting(table, *players: Player) -> dict[int, tuple[int, int]]:
    """Deal a hand and play it out passively: for each of ``players`` (by id), the turns
    that passed to them and the times they were to act again right after acting."""
    hand = hand_start(table=table)
    state = hand_state(hand)
    ids = [start["player_id"] for start in hand.seats]
    counts = {player.pk: [0, 0] for player in players}
    if ids[state.actor] in counts:
        counts[ids[state.actor]][0] += 1
    while hand.is_running and state.actor is not None:
        acting = state.actor
        hand = act(table, passive_action(current_hand(table)))
        hand.refresh_from_db()
        state = hand_state(hand)
        if hand.is_running and state.actor is not None and ids[state.actor] in counts:
            counts[ids[state.actor]][state.actor == acting] += 1
    return {pk: (turns, again) for pk, (turns, again) in counts.items()}


def test_a_subscription_its_push_service_says_is_gone_is_forgotten(players, service):
    alice = opted_in(players[0])
    Browser(service.url + "/gone/old-phone").subscribe(alice)
    Browser(service.url + "/alice/new-phone").subscribe(alice)

    push.sender.send_later(push.TurnNudge(alice.pk, 1, "Main", version=7, ttl=30))
    push.sender.wait_idle()

    assert sorted(m["path"] for m in service.messages) == ["/alice/new-phone", "/gone/old-phone"]
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [
        service.url + "/alice/new-phone"
    ]
    # the same turn again (a second delivery of one commit) is not sent twice
    push.sender.send_later(push.TurnNudge(alice.pk, 1, "Main", version=7, ttl=30))
    push.sender.wait_idle()
    assert len(service.messages) == 2


def test_without_a_vapid_key_nothing_is_queued_or_sent(players, table, service, settings):
    alice, bob, _ = players
    Browser(service.url + "/alice/phone").subscribe(opted_in(alice))
    settings.POKER_VAPID_PRIVATE_KEY = ""
    for player in (alice, bob):
        seat_take(table=table, player=player, buy_in=100)
    hand_start(table=table)
    act(table, passive_action(current_hand(table)))

    assert push.sender.jobs.unfinished_tasks == 0
    push.sender.wait_idle()
    assert service.messages == []
    assert fresh(table).hands.count() == 1
    assert push.turn_passed not in hooks.turn_passed  # an action runs nothing of push


def test_turns_are_heard_while_the_site_has_a_vapid_key(settings):
    settings.POKER_VAPID_PRIVATE_KEY = ""
    assert push.turn_passed not in hooks.turn_passed
    settings.POKER_VAPID_PRIVATE_KEY = "a key"  # read only when a nudge is sent
    assert hooks.turn_passed.count(push.turn_passed) == 1


def test_an_action_that_does_not_commit_sends_nothing(players, table, service):
    """The message is queued when the action's transaction commits, never before: a deal
    rolled back (here by an error after it) nudges nobody."""
    alice, bob, _ = players
    for player in (alice, bob):
        Browser(f"{service.url}/{player.user.username}/phone").subscribe(opted_in(player))
        seat_take(table=table, player=player, buy_in=100)

    with pytest.raises(RuntimeError), transaction.atomic():
        hand_start(table=table)
        raise RuntimeError("the deal fails after the turn was given")
    push.sender.wait_idle()
    assert service.messages == [] and not fresh(table).hands.exists()

    hand_start(table=table)
    push.sender.wait_idle()
    assert len(service.messages) == 1, "the deal that commits nudges its first player"
