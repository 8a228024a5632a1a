"""``TableFeed``: this process's one subscription to a table's channel-layer group, shared by
its sockets on that table (and the catch-up that finds changes the channel layer lost)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Protocol

from channels.layers import BaseChannelLayer, InMemoryChannelLayer, get_channel_layer
from django.db import DatabaseError

from tables.db.threads import read_async
from tables.live.protocol import SERVER_TROUBLE
from tables.models import Table
from tables.services.events import table_changed_event, table_group

log = logging.getLogger(__name__)

#: A feed's key: (event loop, channel layer, table id).
FeedKey = tuple[asyncio.AbstractEventLoop, BaseChannelLayer | None, int]


class FeedSocket(Protocol):
    """A socket as its feed serves it (``TableConsumer``, which the feed does not import)."""

    feed: TableFeed | None

    @property
    def channel_layer(self) -> BaseChannelLayer: ...
    @property
    def table_id(self) -> int: ...
    async def table_changed(self, event: dict[str, Any]) -> None: ...
    async def table_chat(self, event: dict[str, Any]) -> None: ...
    async def close(self, code: int | bool | None = None, reason: str | None = None) -> None: ...


class TableFeed:
    """This process's one subscription to a table's group, shared by its sockets here.

    ``table.changed`` then crosses the channel layer once per process and table, not once
    per socket (at a full table: one message through Redis instead of six, and one dispatch),
    and the feed hands it to each of its sockets in turn, in order. Sockets ``join`` once
    the subscription is in place (so they miss nothing after it) and ``leave`` on
    disconnect; the last one out ends the subscription. Each join adds the feed to the group
    again (a no-op while it is there). If the channel layer fails under the feed itself, its
    sockets are closed: browsers reconnect and subscribe again, as they would if each socket
    had failed on its own.

    Over Redis a message can be lost without anything failing here: pub/sub keeps nothing
    for a process that was not listening (a Redis restart, which redis-py's subscriptions
    outlive, or a publish that failed after its change committed). So every
    ``CATCH_UP_SECONDS`` each process reads the versions of the tables it follows, in one
    query, and hands a feed that is still behind a version it was already behind at the
    previous pass the change it missed (``catch_up``): a message merely on its way is not
    sent twice.
    """

    #: Seconds between a process's checks that its feeds missed no change (over Redis).
    CATCH_UP_SECONDS = 2.0
    #: event loop -> its catch-up task (while it has feeds).
    catch_up_tasks: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = {}
    #: (event loop, channel layer, table id) -> feed
    feeds: dict[FeedKey, TableFeed] = {}

    def __init__(self, key: FeedKey, layer: BaseChannelLayer, table_id: int) -> None:
        self.key, self.layer, self.table_id = key, layer, table_id
        self.group = table_group(table_id)
        self.version = 0  # the newest version handed to its sockets
        self.awaited = 0  # a version the last catch-up pass found it had not been handed
        self.sockets: set[FeedSocket] = set()
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.channel = ""
        self.task: asyncio.Task[None] | None = None

    @classmethod
    async def join(cls, consumer: FeedSocket) -> None:
        layer = consumer.channel_layer
        key: FeedKey = (asyncio.get_running_loop(), layer, consumer.table_id)
        feed = cls.feeds.get(key)
        existing = feed is not None
        if feed is None:
            feed = cls.feeds[key] = cls(key, layer, consumer.table_id)
            feed.task = asyncio.ensure_future(feed._run())
        feed.sockets.add(consumer)
        consumer.feed = feed
        if not isinstance(layer, InMemoryChannelLayer):  # one process: nothing is lost
            cls._catch_up_running()
        try:
            await asyncio.shield(feed.ready)
            if existing and feed.task is not None and not feed.task.done():
                # Join the group again for each socket, as each socket used to: a Redis that
                # restarted has forgotten the group, and the sockets it cut off reconnect here.
                await layer.group_add(feed.group, feed.channel)
        except Exception:
            feed.sockets.discard(consumer)
            raise

    async def dispatch(self, event: dict[str, Any]) -> None:
        """Hand ``table.changed`` to each socket in turn (each skips a version it has sent),
        or ``table.chat`` (a chat line or a mute: no version; each skips a line it has sent)."""
        chat = event.get("type") == "table.chat"
        if not chat:
            self.saw(event.get("version", 0))
        for consumer in list(self.sockets):
            try:
                if chat:
                    await consumer.table_chat(event)
                else:
                    await consumer.table_changed(event)
            except Exception:  # one broken socket must not starve the others
                log.exception("table %s: update not sent", self.group)

    @property
    def live(self) -> bool:
        """Subscribed and still following the group."""
        return self.ready.done() and self.task is not None and not self.task.done()

    def saw(self, version: int) -> None:
        """Its sockets have been handed ``version`` (or are being handed it)."""
        self.version = max(self.version, version)

    @classmethod
    async def catch_up(cls) -> int:
        """One pass: hand each feed of this event loop that is behind the database, and was
        already behind at the previous pass, the change it did not hear of (one query for
        every table followed here). Returns how many were handed one."""
        loop = asyncio.get_running_loop()
        feeds = [
            feed
            for (feed_loop, _, _), feed in list(cls.feeds.items())
            if feed_loop is loop and feed.live
        ]
        if not feeds:
            return 0
        versions = await read_async(_table_versions)([feed.table_id for feed in feeds])
        lost = []
        for feed in feeds:
            current = versions.get(feed.table_id, 0)
            if current <= feed.version:
                feed.awaited = 0
            elif feed.awaited and feed.version < feed.awaited:
                lost.append((feed, current))  # a whole pass later: not on its way
            else:
                feed.awaited = current  # committed just now, its message may be on its way
        for feed, current in lost:
            log.info(
                "%s: caught up with version %s, which the channel layer did not bring",
                feed.group,
                current,
            )
            feed.awaited = 0
            await feed.dispatch(table_changed_event(feed.table_id, current))
        return len(lost)

    @classmethod
    def _catch_up_running(cls) -> None:
        loop = asyncio.get_running_loop()
        task = cls.catch_up_tasks.get(loop)
        if task is None or task.done():
            cls.catch_up_tasks[loop] = loop.create_task(cls._catch_up_while_following())

    @classmethod
    async def _catch_up_while_following(cls) -> None:
        loop = asyncio.get_running_loop()
        try:
            while any(key[0] is loop for key in cls.feeds):
                await asyncio.sleep(cls.CATCH_UP_SECONDS)
                try:
                    await cls.catch_up()
                except DatabaseError:
                    log.warning("catch-up skipped: database unreachable")
                except Exception:
                    log.exception("catch-up failed")
        finally:
            if cls.catch_up_tasks.get(loop) is asyncio.current_task():
                del cls.catch_up_tasks[loop]

    @classmethod
    def changed_here(cls, event: dict[str, Any]) -> None:
        """A change this process made (``tables.services.events.local_listeners``, on the
        event loop): its sockets get it now, not after a round trip through Redis and back
        (at 100 tables most of an action's p99 on PostgreSQL + Redis was that trip). The
        channel layer still brings it to every process, this one included: each socket
        skips a version it has already sent. An in-process layer delivers it here at once
        already, so its feeds are left to it. Registered in ``tables.apps``."""
        layer = get_channel_layer()
        table_id = event.get("table_id")
        feed = (
            cls.feeds.get((asyncio.get_running_loop(), layer, table_id))
            if isinstance(table_id, int)
            else None
        )
        if feed is not None and feed.live and not isinstance(layer, InMemoryChannelLayer):
            asyncio.ensure_future(feed.dispatch(event))

    # --- what a process follows (for its operators and tests) ----------------------------
    @classmethod
    def following(cls, table_id: int) -> TableFeed | None:
        """This process's feed of ``table_id`` on the running event loop and the default
        channel layer, or None when none of its sockets follows that table."""
        return cls.feeds.get((asyncio.get_running_loop(), get_channel_layer(), table_id))

    @property
    def followers(self) -> int:
        """How many of this process's sockets the feed serves."""
        return len(self.sockets)

    async def ended(self) -> None:
        """Wait until the feed has left its group (after its last socket left, or a failure)."""
        if self.task is not None:
            await asyncio.wait({self.task})  # its outcome (cancelled, failed) is not ours

    @classmethod
    def catching_up(cls) -> bool:
        """Whether the running event loop has a catch-up task (only over Redis, while it
        follows a table)."""
        task = cls.catch_up_tasks.get(asyncio.get_running_loop())
        return task is not None and not task.done()

    async def leave(self, consumer: FeedSocket) -> None:
        self.sockets.discard(consumer)
        if not self.sockets and self.feeds.get(self.key) is self:
            del self.feeds[self.key]
            if self.task is not None:
                self.task.cancel()

    async def _run(self) -> None:
        try:
            self.channel = await self.layer.new_channel()
            await self.layer.group_add(self.group, self.channel)
            self.ready.set_result(None)
            while True:
                event = await self.layer.receive(self.channel)
                if event.get("type") not in ("table.changed", "table.chat"):
                    continue
                await self.dispatch(event)
        except asyncio.CancelledError:
            if not self.ready.done():
                self.ready.cancel()
            if self.channel:
                try:
                    await self.layer.group_discard(self.group, self.channel)
                except Exception:
                    log.warning("%s: could not leave the group", self.group)
            raise
        except Exception as error:
            log.warning("%s: channel layer failed (%r); closing its sockets", self.group, error)
            if not self.ready.done():
                self.ready.set_exception(error)
            if self.feeds.get(self.key) is self:
                del self.feeds[self.key]
            for consumer in list(self.sockets):
                with contextlib.suppress(Exception):
                    await consumer.close(code=SERVER_TROUBLE)


def _table_versions(table_ids: list[int]) -> dict[int, int]:
    return dict(Table.objects.filter(pk__in=table_ids).values_list("pk", "version"))
