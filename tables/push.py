"""The turn nudge by Web Push: when it becomes a player's turn and they opted in (the turn
nudge) with a browser subscribed (``tables.services.push``), a push message through their
browser's push service, which the site's service worker shows unless a tab of that table is
in front (templates/pwa/service-worker.js). Nothing at all without a VAPID key
(``POKER_VAPID_PRIVATE_KEY``).

What an action pays: nothing without a VAPID key (``turn_passed`` is then no listener).
With one, ``turn_passed`` runs inside the action's transaction (a
``tables.services.hooks.turn_passed`` listener) and only looks the player up in a set in
memory, the players with a subscription; for one of them it queues the message once the
transaction commits. Everything else (reading the subscriptions, encrypting, posting) runs on
this process's one sender thread, never on the event loop nor inside a transaction. The set
is read again every ``REFRESH_SECONDS`` (a subscription made through another process counts
from then on; one made here at once). One message per turn: a turn is its table version.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.db import close_old_connections, transaction

from tables.models import Hand, PushSubscription, Table
from tables.services import hooks
from tables.services.push import push_forget

log = logging.getLogger(__name__)

#: Seconds between readings of which players have a subscription.
REFRESH_SECONDS = 60.0
#: Seconds a push service has to answer one message.
POST_TIMEOUT = 10.0
#: The turns remembered as sent (a turn is never sent twice).
REMEMBERED_TURNS = 1000


@dataclass(frozen=True)
class TurnNudge:
    """One push message: ``player_id``'s turn at ``table_id``'s ``version``."""

    player_id: int
    table_id: int
    table_name: str
    version: int
    ttl: int  # seconds: a nudge after the player's clock has run out is no use

    def payload(self) -> bytes:
        """What the service worker gets (encrypted on the way: the push service sees none)."""
        url = f"/tables/{self.table_id}/"
        return json.dumps(
            {
                "title": f"Your turn · {self.table_name}",
                "body": f"It is your turn to act at {self.table_name}.",
                "table": self.table_id,
                "name": self.table_name,
                "url": url,
                "tag": f"turn-{url}",  # the page's own nudge uses the same: one per table
            }
        ).encode()


class Sender:
    """This process's push sender: a queue and the one thread that empties it."""

    def __init__(self) -> None:
        self.jobs: queue.Queue[TurnNudge | None] = queue.Queue()  # None: stop
        self.subscribed: frozenset[int] | None = None  # None: not read yet
        self.sent: OrderedDict[tuple[int, int, int], None] = OrderedDict()
        self.thread: threading.Thread | None = None
        self.running = False
        self.lock = threading.Lock()
        self.read_at = 0.0  # time.monotonic() of the last reading of ``subscribed``

    def wanted(self, player_id: int) -> bool:
        """``player_id`` may have a subscription (the set is not read yet, or has them)."""
        self.start()
        return self.subscribed is None or player_id in self.subscribed

    def note_subscribed(self, player_id: int) -> None:
        if self.subscribed is not None:
            self.subscribed = self.subscribed | {player_id}

    def send_later(self, nudge: TurnNudge) -> None:
        self.start()
        self.jobs.put_nowait(nudge)

    def start(self) -> None:
        # a flag, not Thread.is_alive (a lock each time): the thread ends only in stop()
        if self.running:
            return
        with self.lock:
            if not self.running:
                self.thread = threading.Thread(target=self._run, name="push-sender", daemon=True)
                self.thread.start()
                self.running = True

    def wait_idle(self) -> None:
        """Return once every message queued so far was handled (tests)."""
        self.jobs.join()

    def stop(self) -> None:
        """End the thread once the messages queued so far are handled."""
        with self.lock:
            if self.thread is not None and self.running:
                self.jobs.put_nowait(None)
                self.thread.join()
            self.running = False

    def _run(self) -> None:
        while True:
            try:
                nudge = self.jobs.get(timeout=REFRESH_SECONDS)
            except queue.Empty:
                nudge = None
            else:
                if nudge is None:
                    self.jobs.task_done()
                    return
            try:
                close_old_connections()
                if self.subscribed is None or time.monotonic() >= self.read_at + REFRESH_SECONDS:
                    self._read_subscribed()
                if nudge is not None:
                    self.deliver(nudge)
            except Exception:  # one bad message or a database away must not end the thread
                log.exception("push: turn nudge not sent")
            finally:
                close_old_connections()
                if nudge is not None:
                    self.jobs.task_done()

    def _read_subscribed(self) -> None:
        self.read_at = time.monotonic()
        players = PushSubscription.objects.values_list("player_id", flat=True).distinct()
        self.subscribed = frozenset(players)

    def deliver(self, nudge: TurnNudge) -> int:
        """Post ``nudge`` to each of its player's subscriptions (if they opted in); the number
        posted. A subscription its push service says is gone is forgotten."""
        key = (nudge.player_id, nudge.table_id, nudge.version)
        if key in self.sent or not settings.POKER_VAPID_PRIVATE_KEY:
            return 0
        self.sent[key] = None
        while len(self.sent) > REMEMBERED_TURNS:
            self.sent.popitem(last=False)
        subscriptions = list(
            PushSubscription.objects.filter(
                player_id=nudge.player_id, player__turn_nudge=True
            ).values_list("endpoint", "p256dh", "auth")
        )
        posted = 0
        for endpoint, p256dh, auth in subscriptions:
            posted += self._post(nudge, endpoint, p256dh, auth)
        return posted

    def _post(self, nudge: TurnNudge, endpoint: str, p256dh: str, auth: str) -> int:
        from pywebpush import WebPushException, webpush

        info: dict[str, Any] = {"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}}
        try:
            webpush(
                subscription_info=info,
                data=nudge.payload(),
                vapid_private_key=settings.POKER_VAPID_PRIVATE_KEY,
                vapid_claims={"sub": settings.POKER_VAPID_SUBJECT},  # pywebpush adds to it
                ttl=nudge.ttl,
                headers={"Urgency": "high"},
                timeout=POST_TIMEOUT,
            )
        except WebPushException as error:
            status = getattr(error.response, "status_code", None)
            if status in (404, 410):  # unsubscribed, or expired: it never comes back
                push_forget(endpoint=endpoint)
                log.info("push: subscription gone (%s), forgotten", status)
            else:
                log.warning("push: %s refused a turn nudge (%s)", _service(endpoint), status)
            return 0
        except Exception as error:  # the push service unreachable: this turn goes without
            log.warning("push: %s not reached (%r)", _service(endpoint), error)
            return 0
        return 1


def _service(endpoint: str) -> str:
    return endpoint.split("/")[2] if endpoint.count("/") >= 2 else "?"


sender = Sender()


def note_subscribed(player_id: int) -> None:
    """``player_id`` has a subscription now (a ``hooks.push_subscribed`` listener)."""
    sender.note_subscribed(player_id)


def hear_turns() -> None:
    """Listen for the turns passing (``hooks.turn_passed``) while the site has a VAPID key, and
    not at all without one: an action at a site without Web Push runs nothing of this module.
    Called at start (``AppConfig.ready``) and whenever the key's setting changes (tests)."""
    if settings.POKER_VAPID_PRIVATE_KEY:
        hooks.register(hooks.turn_passed, turn_passed)
    elif turn_passed in hooks.turn_passed:
        hooks.turn_passed.remove(turn_passed)


def _key_changed(*, setting: str, **_: object) -> None:
    if setting == "POKER_VAPID_PRIVATE_KEY":
        hear_turns()


setting_changed.connect(_key_changed, dispatch_uid="tables.push.key")


def turn_passed(table: Table, hand: Hand, player_id: int) -> None:
    """It became ``player_id``'s turn at ``table`` (inside the action's transaction, the
    table at its new version): queue their nudge for when it commits, if they may want one.
    Heard only while the site has a VAPID key (``hear_turns``)."""
    if not sender.wanted(player_id):
        return
    nudge = TurnNudge(
        player_id=player_id,
        table_id=table.pk,
        table_name=table.name,
        version=table.version,
        ttl=max(30, table.action_seconds + table.time_bank_seconds),
    )
    transaction.on_commit(lambda: sender.send_later(nudge))
