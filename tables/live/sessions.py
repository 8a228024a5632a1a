"""Live table sockets by player: how many each has open, and closing them when a log-in ends.

A socket is authenticated once, at its handshake; without this it would go on acting for a
session that has since logged out, or after the password changed. So:

- log-out (``user_logged_out``): that session's sockets are closed;
- a password change, however it is made (the form, the admin, ``set_password`` + ``save``,
  ``manage.py changepassword``: a ``pre_save`` compares the stored hash): all the user's
  sockets are closed and their API token is deleted (``/api/auth/token/`` then issues a new
  key). Django re-hashing a password at log-in (a hasher upgrade) is not a change.

Each server process keeps its sockets by user (``LiveSockets``, also what the consumer's
per-user caps count) and follows one channel-layer group, ``live-sessions``, on one channel
of its own, subscribed with its first socket (not one subscription per socket): an ending is
one message to that group, and every process closes the matching sockets it holds. Over
Redis pub/sub a message sent while a process is not subscribed (Redis restarting) is lost;
those sockets go on until they close (their next handshake is refused as usual).

The same group carries ``notes.changed`` (``tables.services.events.notes_changed_on_commit``):
a user changed their notes on players, and their sockets read them again (their own seats
show them).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Protocol

from asgiref.sync import async_to_sync
from channels.layers import BaseChannelLayer, get_channel_layer
from django.contrib.auth.models import User
from django.db import transaction
from django.http import HttpRequest

from tables.services.events import LIVE_SESSIONS_GROUP, NOTES_CHANGED

log = logging.getLogger(__name__)

GROUP = LIVE_SESSIONS_GROUP
ENDED = "sessions.ended"
#: The mark ``on_user_saving`` leaves on a user for ``on_user_saved`` (no field of ``User``).
PASSWORD_REPLACED = "_password_replaced"


class LiveSocket(Protocol):
    """A table socket as the registry keeps it (``TableConsumer``)."""

    @property
    def user_id(self) -> int: ...
    @property
    def table_id(self) -> int: ...
    @property
    def session_key(self) -> str | None: ...
    async def session_ended(self) -> None: ...
    async def notes_changed(self) -> None: ...


class LiveSockets:
    """One event loop's (one server process's) open table sockets, by user id.

    A socket here has ``user_id``, ``table_id``, ``session_key`` and ``async
    session_ended()``. While there are any, the registry follows ``GROUP``.
    """

    #: Seconds before following the group again after the channel layer failed under it.
    RETRY_SECONDS = 1.0
    #: Seconds a first socket waits for the subscription before going on without it.
    FOLLOW_WAIT_SECONDS = 5.0
    #: (event loop, channel layer) -> registry
    registries: dict[tuple[asyncio.AbstractEventLoop, BaseChannelLayer], LiveSockets] = {}

    def __init__(
        self, key: tuple[asyncio.AbstractEventLoop, BaseChannelLayer], layer: BaseChannelLayer
    ) -> None:
        self.key, self.layer = key, layer
        self.by_user: dict[int, set[LiveSocket]] = {}
        self.following = asyncio.Event()
        self.closing: set[asyncio.Task[None]] = set()
        self.task = asyncio.ensure_future(self._follow())

    @classmethod
    def counts(cls, layer: BaseChannelLayer, user_id: int, table_id: int) -> tuple[int, int]:
        """(sockets of ``user_id`` open on ``table_id``, on all tables) in this process."""
        registry = cls.registries.get((asyncio.get_running_loop(), layer))
        sockets = registry.by_user.get(user_id, ()) if registry else ()
        return sum(1 for socket in sockets if socket.table_id == table_id), len(sockets)

    @classmethod
    def add(cls, layer: BaseChannelLayer, socket: LiveSocket) -> LiveSockets:
        """Register ``socket`` (synchronously: counted at once) and return its registry."""
        key = (asyncio.get_running_loop(), layer)
        registry = cls.registries.get(key)
        if registry is None:
            registry = cls.registries[key] = cls(key, layer)
        registry.by_user.setdefault(socket.user_id, set()).add(socket)
        return registry

    async def followed(self) -> None:
        """Wait (bounded) until the group is followed: an ending sent from then on is heard."""
        if not self.following.is_set():
            try:
                await asyncio.wait_for(self.following.wait(), self.FOLLOW_WAIT_SECONDS)
            except TimeoutError:
                log.warning("%s: not followed yet; this socket goes on without it", GROUP)

    def discard(self, socket: LiveSocket) -> None:
        sockets = self.by_user.get(socket.user_id)
        if sockets is None:
            return
        sockets.discard(socket)
        if not sockets:
            del self.by_user[socket.user_id]
        if not self.by_user and self.registries.get(self.key) is self:
            del self.registries[self.key]
            self.task.cancel()

    def end(self, user_id: int | None, session_key: str | None = None) -> int:
        """Close ``user_id``'s sockets here (only ``session_key``'s, if given); how many (none
        for a message without a user)."""
        if user_id is None:
            return 0
        ended = [
            socket
            for socket in self.by_user.get(user_id, ())
            if session_key is None or socket.session_key == session_key
        ]
        if ended:
            # Closed by a task of its own: the follower never waits on a socket (the last
            # socket leaving ends the follower).
            task = asyncio.ensure_future(_close_all(ended))
            self.closing.add(task)
            task.add_done_callback(self.closing.discard)
        return len(ended)

    def notes_changed(self, user_id: int | None) -> int:
        """``user_id`` changed their notes on players: their sockets here read them again
        (each in a task of its own, as ``end``); how many."""
        sockets = list(self.by_user.get(user_id, ())) if user_id is not None else []
        for socket in sockets:
            task = asyncio.ensure_future(_refresh_notes(socket))
            self.closing.add(task)
            task.add_done_callback(self.closing.discard)
        return len(sockets)

    async def _follow(self) -> None:
        channel = ""
        try:
            while True:
                try:
                    channel = await self.layer.new_channel()
                    await self.layer.group_add(GROUP, channel)
                    self.following.set()
                    while True:
                        message = await self.layer.receive(channel)
                        if message.get("type") == ENDED:
                            self.end(message.get("user_id"), message.get("session_key"))
                        elif message.get("type") == NOTES_CHANGED:
                            self.notes_changed(message.get("user_id"))
                except asyncio.CancelledError:
                    raise
                except Exception as error:
                    self.following.clear()
                    log.warning("%s: channel layer failed (%r); following again", GROUP, error)
                    await asyncio.sleep(self.RETRY_SECONDS)
        finally:
            if channel:
                try:
                    await self.layer.group_discard(GROUP, channel)
                except Exception:
                    log.warning("%s: could not leave the group", GROUP)


async def _close_all(sockets: Iterable[LiveSocket]) -> None:
    for socket in sockets:
        try:
            await socket.session_ended()
        except Exception:
            log.exception("a socket whose session ended could not be closed")


async def _refresh_notes(socket: LiveSocket) -> None:
    try:
        await socket.notes_changed()
    except Exception:
        log.exception("a socket's notes could not be refreshed")


def end_sessions(user_id: int, session_key: str | None = None) -> None:
    """Close ``user_id``'s table sockets in every server process: those of ``session_key``
    only, or all of them. Called from synchronous code (a view, a signal, a command)."""
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": ENDED, "user_id": user_id, "session_key": session_key}
    try:
        async_to_sync(layer.group_send)(GROUP, message)
    except Exception:  # the log-out or password change itself must still go through
        log.exception("could not close the sockets of user %s", user_id)


# --- signals (connected in ``tables.apps``) ---------------------------------------------------


def on_logged_out(
    sender: object, request: HttpRequest | None, user: User | None, **kwargs: object
) -> None:
    """Log-out: the sockets opened with this session end."""
    session = getattr(request, "session", None)
    if user is not None and session is not None and session.session_key:
        end_sessions(user.pk, session.session_key)


def on_user_saving(
    sender: type[User],
    instance: User,
    update_fields: frozenset[str] | None = None,
    using: str | None = None,
    **kwargs: object,
) -> None:
    """Before a user is saved: note whether the stored password hash is being replaced.

    Reads a library internal: ``pokersite.library_overrides`` (DJANGO_PASSWORD_CHANGED)."""
    setattr(instance, PASSWORD_REPLACED, False)
    if instance.pk is None or (update_fields is not None and "password" not in update_fields):
        return
    if update_fields == frozenset({"password"}) and getattr(instance, "_password", None) is None:
        return  # Django re-hashing at log-in: "hash upgrades shouldn't be password changes"
    stored = (
        sender._default_manager.using(using)
        .filter(pk=instance.pk)
        .values_list("password", flat=True)
        .first()
    )
    setattr(instance, PASSWORD_REPLACED, stored is not None and stored != instance.password)


def on_user_saved(
    sender: type[User],
    instance: User,
    created: bool = False,
    using: str | None = None,
    **kwargs: object,
) -> None:
    """After a user's password was replaced: their API token goes (in the same transaction),
    and once that commits, all their sockets close."""
    if created or not getattr(instance, PASSWORD_REPLACED, False):
        return
    from rest_framework.authtoken.models import Token

    setattr(instance, PASSWORD_REPLACED, False)
    Token.objects.using(using).filter(user_id=instance.pk).delete()
    user_id = instance.pk
    transaction.on_commit(lambda: end_sessions(user_id), using=using)
