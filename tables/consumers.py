"""The table's websocket (``ws/tables/<id>/``): one consumer per socket, thin.

- Connect: the socket is accepted, then closed with a code the client can read if it may not
  stay (see the close codes below): not logged in, no such table, too many sockets of its
  user. A handshake from a foreign page is refused before this, with HTTP 403
  (``pokersite.origins``). The socket joins the process's ``TableFeed`` of the table (one
  member of the group ``table-<id>`` per process) and gets the whole table rendered for its
  viewer.
- ``table.changed`` (table id + version, no cards): reload from the database and send every
  region, rendered for this socket's viewer (``tables.presenters``), swapped by htmx by id.
- A frame from the browser is JSON from htmx's ``ws-send``: ``op`` (act, sit_out, sit_in,
  leave, top_up, take_seat) and its fields; an action carries the hand id and the version the
  player saw. Every number goes through ``tables.inputs.parse_whole_number``. It calls one
  service; a refusal or a malformed frame is answered to the sender only, nothing changes.
- Limits: a frame over ``MAX_FRAME_BYTES`` closes the socket; every frame, binary ones
  included (refused), takes a token (``RATE_BURST``, refilled at ``RATE_PER_SECOND``); a
  frame without one is answered "slow down" (once) and ignored, and ``FLOOD_CLOSE_AFTER``
  such frames within ``FLOOD_WINDOW_SECONDS`` close the socket. A user may have
  ``POKER_SOCKETS_PER_USER_TABLE`` sockets on one table and ``POKER_SOCKETS_PER_USER`` in
  all, per server process (nginx sends a table's sockets to one process).
- A log-out closes that session's sockets, a password change all the user's
  (``tables.live_sessions``).
- Close codes (websocket servers may send only 1000 and 3000-4999): ``NOT_LOGGED_IN`` 4401
  (also when the log-in ended), ``NO_SUCH_TABLE`` 4404, ``TOO_MANY_SOCKETS`` 4429,
  ``FLOODING`` 4008, ``FRAME_TOO_BIG`` 4009, ``SERVER_TROUBLE`` 4011 (the channel layer failed
  under the feed: reconnect). However a socket ends (a close sent here, an error in a
  handler, the client gone), it leaves its feed and the registry at once.
- ``?state=json`` (load tests, the load benchmark, scripts): each update is one frame
  ``{"type": "state", "version", "hand", "running", "view", "me", "html"}`` — the engine's
  view for this viewer (the same data the HTML shows) with the regions a browser would get —
  and answers are ``{"type": "answer", "message", "error"}``.
- A browser's message line is only sent when it says something or clears what it said.
- The database briefly unreachable: the sender is told so and nothing was done (each service
  is one transaction); the next update or a reconnect brings the state back.
"""
from __future__ import annotations

import asyncio
import json
import logging
import time
from concurrent.futures import ThreadPoolExecutor

import orjson
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.consumer import get_handler_name
from channels.layers import InMemoryChannelLayer as _InMemoryChannelLayer
from django.conf import settings
from django.db import DatabaseError

from tables import services
from tables.inputs import NumberError, parse_whole_number
from tables.live_sessions import LiveSockets
from tables.models import Table
from tables.presenters import (
    Snapshot,
    following_snapshot,
    load_snapshot,
    render_message,
    render_regions,
    viewer_player,
)
from tables.selectors import running_hand
from tables.services.errors import ServiceError
from tables.services.events import local_listeners, table_changed_event, table_group

log = logging.getLogger(__name__)

MAX_FRAME_BYTES = 4096
RATE_PER_SECOND = 5.0
RATE_BURST = 10
#: Frames refused for the rate within ``FLOOD_WINDOW_SECONDS`` that close the socket: a
#: steady flood above the rate is closed too, though a token refills now and then.
FLOOD_CLOSE_AFTER = 30
FLOOD_WINDOW_SECONDS = 10.0

# Close codes (see the module doc).
NOT_LOGGED_IN = 4401
NO_SUCH_TABLE = 4404
TOO_MANY_SOCKETS = 4429
FLOODING = 4008
FRAME_TOO_BIG = 4009
SERVER_TROUBLE = 4011

#: The highest seat number a frame may name (the largest table).
MOST_SEATS = max(Table.MAX_SEATS.values())

OPS = ("act", "sit_out", "sit_in", "leave", "top_up", "take_seat")
#: How stale the bankroll shown to a viewer without a seat may get while the table changes.
BANKROLL_REFRESH_SECONDS = 5.0


class BadFrame(ValueError):
    """A frame that is not a well-formed request (answered, nothing changes)."""


def _number(data: dict, key: str, what: str, minimum: int = 1, **limits) -> int:
    return parse_whole_number(data.get(key), what=what, minimum=minimum, **limits)


def run_op(*, table_id: int, user, data: dict, player=None) -> str:
    """Carry out one browser request through one service; returns a message for the sender.

    ``player``: the socket's player if already known (resolved once at connect).
    Raises ``ServiceError``, ``BadFrame`` or ``NumberError`` (nothing changed) when refused.
    """
    if player is None:
        player = viewer_player(user)
    if player is None:
        raise BadFrame("Log in to play.")
    table = table_id  # each service locks the row first (``table_lock``): no read here
    op = data.get("op")
    if op == "act":
        kind = data.get("kind")
        if kind not in ("fold", "check", "call", "raise", "all_in"):
            raise BadFrame("Unknown action.")
        amount = _number(data, "amount", "The amount") if kind == "raise" else None
        services.hand_act(
            table=table, player=player, hand_id=_number(data, "hand", "The hand"),
            version=_number(data, "version", "The version", minimum=0),
            action={"kind": kind, "amount": amount},
        )
        return ""
    if op == "sit_out":
        services.seat_sit_out(table=table, player=player)
        return "You are sitting out: you will be dealt out until you come back."
    if op == "sit_in":
        services.seat_sit_in(table=table, player=player)
        hand = running_hand(Table(pk=table_id))
        if hand is not None and hand.seat_index_of(player.pk) is not None:
            return "Welcome back: you are still dealt into this hand, and into the next ones."
        return "Welcome back: you are dealt in from the next hand."
    if op == "leave":
        left = services.seat_leave(table=table, player=player)
        return "You left the table." if left else "You will leave when this hand ends."
    if op == "top_up":
        services.seat_top_up(table=table, player=player,
                             amount=_number(data, "amount", "The top-up"))
        return "Chips added."
    if op == "take_seat":
        seat = data.get("seat")
        number = (_number(data, "seat", "The seat", maximum=MOST_SEATS) - 1
                  if seat not in (None, "") else None)
        services.seat_take(
            table=table, player=player, buy_in=_number(data, "buy_in", "The buy-in"),
            seat_number=number,
        )
        return "You sat down: you are dealt in from the next hand."
    raise BadFrame(f"Unknown request (one of {', '.join(OPS)}).")


def render_viewer(snapshot: Snapshot, player, bankroll: int | None = None,
                  json_state: bool = False) -> tuple[int, str, str]:
    """(version, regions as oob HTML, JSON state with that HTML or "") of ``snapshot`` for
    one viewer."""
    screen = snapshot.screen(player, bankroll)
    html = render_regions(screen, oob=True)
    return snapshot.version, html, (state_json(screen, html) if json_state else "")


class SnapshotCache:
    """Per process: the latest ``Snapshot`` of each table, shared by all its sockets.

    ``get(table_id, version)`` returns a snapshot at ``version`` or newer: from the cache, or
    read from the database once however many sockets ask at the same time (they await one
    load). A snapshot older than what was asked for is never returned, and one read before
    the asked-for version committed is read again. ``created_at`` tells a table from an
    earlier one that had the same id (a test database flushed and refilled).
    """

    def __init__(self) -> None:
        self.snapshots: dict[int, Snapshot] = {}
        self.loading: dict[int, asyncio.Future] = {}
        self.loads = 0  # database reads, for tests and the benchmark

    def clear(self) -> None:
        self.snapshots.clear()

    def _fits(self, snap: Snapshot | None, version: int, created_at) -> bool:
        return snap is not None and snap.version >= version and (
            created_at is None or snap.created_at == created_at)

    async def get(self, table_id: int, version: int = 0, created_at=None) -> Snapshot | None:
        snap = self.snapshots.get(table_id)
        if self._fits(snap, version, created_at):
            return snap
        pending = self._pending(table_id)
        if pending is not None:
            snap = await asyncio.shield(pending)
            if snap is None or self._fits(snap, version, created_at):
                return snap
            pending = self._pending(table_id)  # read too early: join the next read or start one
            if pending is not None:
                snap = await asyncio.shield(pending)
                if snap is None or self._fits(snap, version, created_at):
                    return snap
        return await self._load(table_id)

    def _pending(self, table_id: int) -> asyncio.Future | None:
        """The read of ``table_id`` in flight on this event loop, if any."""
        future = self.loading.get(table_id)
        if future is not None and future.get_loop() is not asyncio.get_running_loop():
            return None
        return future

    async def _load(self, table_id: int) -> Snapshot | None:
        """Start one read of the table (its own task: a socket that goes away while waiting
        does not cancel it for the others) and wait for it."""
        task = asyncio.ensure_future(self._read(table_id))
        task.add_done_callback(lambda t: t.cancelled() or t.exception())  # always retrieved
        self.loading[table_id] = task
        return await asyncio.shield(task)

    async def _read(self, table_id: int) -> Snapshot | None:
        try:
            previous = self.snapshots.get(table_id)
            # This process's own player action needs no read: build it here rather than
            # send it to a thread and back.
            snap = following_snapshot(previous)
            if snap is None:
                self.loads += 1
                snap = await read_async(load_snapshot)(table_id, previous)
        finally:
            if self.loading.get(table_id) is asyncio.current_task():
                del self.loading[table_id]
        if snap is None:
            self.snapshots.pop(table_id, None)
        else:
            current = self.snapshots.get(table_id)
            if (current is None or current.created_at != snap.created_at
                    or current.version < snap.version):
                self.snapshots[table_id] = snap
        return snap


def reads_off_thread() -> bool:
    """Whether read-only work may run on a worker thread of its own (``thread_sensitive=False``)
    instead of the one thread shared with the writes. Not with an in-memory SQLite database
    (the test database): its shared cache locks whole tables instead of waiting."""
    from django.db import connections

    conn = connections["default"]
    return not (conn.vendor == "sqlite" and conn.is_in_memory_db())


def read_async(function):
    """``database_sync_to_async`` for reads: off the shared sync thread where that is safe."""
    return database_sync_to_async(function, thread_sensitive=not reads_off_thread())


#: The write threads of this process (``write_async``), made on first use.
_write_executors: list[ThreadPoolExecutor] = []


def write_executor(table_id: int) -> ThreadPoolExecutor | None:
    """The thread that runs ``table_id``'s writes, or None: the one shared sync thread.

    SQLite has one writer at a time, so there every write stays on the thread Django and
    Channels share. A server database takes writes to different tables at once: each table
    then has one of ``POKER_WRITE_THREADS`` threads (by its id), so its own writes stay in
    order while other tables' go on beside them, each service holding its table's row lock
    as it does against another server process (on one thread, every action waits for the
    other tables' round trips to PostgreSQL; the load benchmark's p99 moves too much between
    runs to show either way, see the README).
    """
    from django.conf import settings
    from django.db import connections

    threads = settings.POKER_WRITE_THREADS
    if connections["default"].vendor == "sqlite" or threads < 2:
        return None
    if not _write_executors:
        _write_executors.extend(
            ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"table-writes-{n}")
            for n in range(threads)
        )
    return _write_executors[table_id % len(_write_executors)]


def write_async(table_id: int, function):
    """``database_sync_to_async`` for a service that writes to table ``table_id``."""
    executor = write_executor(table_id)
    if executor is None:
        return database_sync_to_async(function)
    return database_sync_to_async(function, thread_sensitive=False, executor=executor)


class InMemoryChannelLayer(_InMemoryChannelLayer):
    """The in-process channel layer (one server process), with its expiry sweep at most once
    a second: channels' own sweeps every channel and group on every send and receive, which
    with hundreds of sockets costs more than delivering the message (py-spy: 8.7 % of the
    event loop at 100 tables). Messages expire after a minute, so a second changes nothing."""

    sweep_every = 1.0
    _swept_at = 0.0

    def _clean_expired(self):
        now = time.monotonic()
        if now - self._swept_at >= self.sweep_every:
            self._swept_at = now
            super()._clean_expired()


#: This process's table snapshots (one per table: the latest read).
snapshots = SnapshotCache()


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
    catch_up_tasks: dict = {}
    #: (event loop, channel layer, table id) -> feed
    feeds: dict[tuple, TableFeed] = {}

    def __init__(self, key: tuple, layer, table_id: int) -> None:
        self.key, self.layer, self.table_id = key, layer, table_id
        self.group = table_group(table_id)
        self.version = 0  # the newest version handed to its sockets
        self.awaited = 0  # a version the last catch-up pass found it had not been handed
        self.sockets: set = set()
        self.ready = asyncio.get_running_loop().create_future()
        self.channel = ""
        self.task: asyncio.Task | None = None

    @classmethod
    async def join(cls, consumer) -> None:
        layer = consumer.channel_layer
        key = (asyncio.get_running_loop(), layer, consumer.table_id)
        feed = cls.feeds.get(key)
        existing = feed is not None
        if not existing:
            feed = cls.feeds[key] = cls(key, layer, consumer.table_id)
            feed.task = asyncio.ensure_future(feed._run())
        feed.sockets.add(consumer)
        consumer.feed = feed
        if not isinstance(layer, _InMemoryChannelLayer):  # one process: nothing is lost
            cls._catch_up_running()
        try:
            await asyncio.shield(feed.ready)
            if existing and not feed.task.done():
                # Join the group again for each socket, as each socket used to: a Redis that
                # restarted has forgotten the group, and the sockets it cut off reconnect here.
                await layer.group_add(feed.group, feed.channel)
        except Exception:
            feed.sockets.discard(consumer)
            raise

    async def dispatch(self, event: dict) -> None:
        """Hand ``table.changed`` to each socket in turn (each skips a version it has sent)."""
        self.saw(event.get("version", 0))
        for consumer in list(self.sockets):
            try:
                await consumer.table_changed(event)
            except Exception:  # one broken socket must not starve the others
                log.exception("table %s: update not sent", self.group)

    @property
    def live(self) -> bool:
        """Subscribed and still following the group."""
        return self.ready.done() and not self.task.done()

    def saw(self, version: int) -> None:
        """Its sockets have been handed ``version`` (or are being handed it)."""
        self.version = max(self.version, version)

    @classmethod
    async def catch_up(cls) -> int:
        """One pass: hand each feed of this event loop that is behind the database, and was
        already behind at the previous pass, the change it did not hear of (one query for
        every table followed here). Returns how many were handed one."""
        loop = asyncio.get_running_loop()
        feeds = [feed for (feed_loop, _, _), feed in list(cls.feeds.items())
                 if feed_loop is loop and feed.live]
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
            log.info("%s: caught up with version %s, which the channel layer did not bring",
                     feed.group, current)
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
    def changed_here(cls, event: dict) -> None:
        """A change this process made (``tables.services.events.local_listeners``, on the
        event loop): its sockets get it now, not after a round trip through Redis and back
        (at 100 tables most of an action's p99 on PostgreSQL + Redis was that trip). The
        channel layer still brings it to every process, this one included: each socket
        skips a version it has already sent. An in-process layer delivers it here at once
        already, so its feeds are left to it."""
        from channels.layers import get_channel_layer

        layer = get_channel_layer()
        feed = cls.feeds.get((asyncio.get_running_loop(), layer, event.get("table_id")))
        if feed is not None and feed.live and not isinstance(layer, _InMemoryChannelLayer):
            asyncio.ensure_future(feed.dispatch(event))

    async def leave(self, consumer) -> None:
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
                if event.get("type") != "table.changed":
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
                try:
                    await consumer.close(code=SERVER_TROUBLE)
                except Exception:
                    pass


def _table_versions(table_ids: list[int]) -> dict[int, int]:
    return dict(Table.objects.filter(pk__in=table_ids).values_list("pk", "version"))


def _request_id(value):
    """A request's ``id`` as its answer echoes it: a number or a short text, else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int) or (isinstance(value, str) and len(value) <= 64):
        return value
    return None


def _viewer(user):
    """(player, table-independent) for a socket's user: resolved once at connect."""
    return viewer_player(user)


def _bankroll(player_id: int) -> int:
    from tables.models import Player

    return Player.objects.filter(pk=player_id).values_list("bankroll", flat=True)[0]


def state_json(screen: dict, html: str) -> str:
    """The ``?state=json`` frame: what the viewer may see, as data and as the browser's HTML
    (see the module doc)."""
    me = screen["me"] or {}
    # orjson: this frame goes to every JSON socket on every change (the stdlib's encoder was
    # a tenth of a render).
    return orjson.dumps({
        "type": "state", "version": screen["version"], "hand": screen["hand_id"] or None,
        "running": screen["running"], "view": screen.get("view"),
        "me": {k: me.get(k) for k in ("seated", "sitting_out", "in_hand", "stack")},
        "html": html,
    }).decode()


DATABASE_DOWN = "The database is not reachable just now: nothing was done, try again."


class TableConsumer(AsyncWebsocketConsumer):
    closed = False  # closed here or by the client: frames and changes are ignored from then
    feed: TableFeed | None = None
    live: LiveSockets | None = None  # this process's sockets by user, while registered

    async def __call__(self, scope, receive, send):
        """Channels' consumer, leaving its feed and the registry however it ends: also when a
        handler raised, or the server cancelled it, and ``disconnect`` never ran."""
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.closed = True
            await self._detach()

    async def _detach(self) -> None:
        """Stop following the table and leave the registry (again: a no-op)."""
        live, self.live = self.live, None
        if live is not None:
            live.discard(self)
        feed, self.feed = self.feed, None
        if feed is not None:
            await feed.leave(self)

    async def close(self, code=None, reason=None):
        """Close from here: detached at once, not when the client acknowledges."""
        if self.closed:
            return
        self.closed = True
        await self._detach()
        await super().close(code=code, reason=reason)

    async def refuse(self, code: int) -> None:
        """Accept, then close with ``code``: the client reads why (a refusal before accepting
        reaches it as a bare HTTP 403)."""
        if self.closed:
            return
        await self.accept()
        await self.close(code=code)

    async def session_ended(self) -> None:
        """This socket's log-in ended (log-out, password change: ``tables.live_sessions``)."""
        await self.close(code=NOT_LOGGED_IN)

    async def dispatch(self, message):
        """Channels' dispatch, less its ``aclose_old_connections()`` before every handler.

        That is a hop to the one thread shared by every write of the process, for every
        ``table.changed`` of every socket (six per action at a full table), which queued the
        writes behind it under load. Every database call of this consumer goes through
        ``database_sync_to_async``, which closes stale connections on its own thread.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self):
        from tables import croupier

        croupier.ensure_started()
        self.user = self.scope.get("user")
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.sent_version = -1  # nothing sent yet: the first frame goes whatever its version
        self.tokens = float(RATE_BURST)
        self.last_refill = time.monotonic()
        self.refused_since, self.refused = 0.0, 0  # frames refused for the rate in a window
        self.told_to_slow_down = False
        self.request_id = None  # of the request being answered (``answer``)
        self.json_state = b"state=json" in self.scope.get("query_string", b"")
        self.message_shown = True  # a reconnecting page may still show an earlier message
        self.bankroll, self.bankroll_read_at = None, 0.0
        self.answering = asyncio.Lock()  # held from a request until its answer is sent
        self.deferred = 0  # updates waiting for an answer to go first
        if self.user is None or not self.user.is_authenticated:
            await self.refuse(NOT_LOGGED_IN)
            return
        self.user_id = self.user.pk
        self.session_key = getattr(self.scope.get("session"), "session_key", None)
        on_table, in_all = LiveSockets.counts(self.channel_layer, self.user_id, self.table_id)
        if (on_table >= settings.POKER_SOCKETS_PER_USER_TABLE
                or in_all >= settings.POKER_SOCKETS_PER_USER):
            log.info("user %s: too many sockets (%s here, %s in all)",
                     self.user_id, on_table, in_all)
            await self.refuse(TOO_MANY_SOCKETS)
            return
        # Counted from now (no wait between the check and this), heard of if the log-in ends.
        self.live = live = LiveSockets.add(self.channel_layer, self)
        await live.followed()
        self.player = await read_async(_viewer)(self.user)
        found = await read_async(self._table_row)()
        if found is None:
            await self.refuse(NO_SUCH_TABLE)
            return
        self.created_at = found[1]
        if self.closed:  # its log-in ended meanwhile
            return
        await TableFeed.join(self)
        if self.closed:  # ended while joining (and so left the feed)
            return
        await self.accept()
        # The version after joining the feed: anything later reaches us as table.changed.
        found = await read_async(self._table_row)()
        await self.send_state(version=found[0] if found else 0)
        if self.feed is not None:
            self.feed.saw(self.sent_version)

    def _table_row(self):
        return Table.objects.filter(pk=self.table_id).values_list("version", "created_at").first()

    async def disconnect(self, code):
        self.closed = True
        await self._detach()

    async def table_changed(self, event):
        version = event.get("version", 0)
        if version <= self.sent_version or self.closed:
            return
        if self.answering.locked() or self.deferred:
            # This socket's own request is still being answered: its update follows the
            # answer (one socket's frames keep their order), without holding up the feed's
            # other sockets. Deferred updates wait on the lock in turn, so they stay in order.
            self.deferred += 1
            asyncio.ensure_future(self._after_answer(version))
            return
        await self.send_state(version=version)

    async def _after_answer(self, version: int) -> None:
        try:
            async with self.answering:
                await self.send_state(version=version)
        finally:
            self.deferred -= 1

    async def send_state(self, version: int = 0):
        """Send the table at ``version`` or newer, rendered for this socket's viewer; never
        one older than the socket has had (an update may overtake a read still in flight).

        The snapshot is shared by every socket of the process (``snapshots``); only this
        viewer's own parts are rendered here (``tables.presenters.Snapshot.screen``).
        """
        try:
            snap = await snapshots.get(self.table_id, version, getattr(self, "created_at", None))
            if snap is None:
                await self.close(code=NO_SUCH_TABLE)
                return
            if snap.version <= self.sent_version:
                return
            bankroll = await self._bankroll_unseated(snap)
        except DatabaseError:
            log.warning("table %s: database unreachable, update skipped", self.table_id)
            return
        if self.closed:
            return
        version, html, state = render_viewer(snap, self.player, bankroll, self.json_state)
        if version > self.sent_version:
            self.sent_version = version
            await self.send(text_data=state or html)

    async def _bankroll_unseated(self, snap: Snapshot) -> int | None:
        """The bankroll of a viewer who has no seat here (a seated one's comes with the
        snapshot): read when they get up and then at most every ``BANKROLL_REFRESH_SECONDS``,
        not on every change of a table they only watch."""
        if self.player is None or snap.seat_of(self.player.pk) is not None:
            self.bankroll = None
            return None
        now = time.monotonic()
        if self.bankroll is None or now - self.bankroll_read_at >= BANKROLL_REFRESH_SECONDS:
            self.bankroll = await read_async(_bankroll)(self.player.pk)
            self.bankroll_read_at = now
        return self.bankroll

    async def answer(self, message: str, error: bool = True):
        """Tell this socket alone how its request went (nothing for a silent success).

        A ``?state=json`` socket gets an answer to every request, with the request's ``id``
        if it gave one (a number or a text of up to 64 characters): a client with several
        requests in flight tells which one was answered."""
        if getattr(self, "json_state", False):
            answer = {"type": "answer", "message": message, "error": error}
            if self.request_id is not None:
                answer["id"] = self.request_id
            await self.send(text_data=json.dumps(answer))
        elif message or self.message_shown:
            await self.send(text_data=render_message(message, oob=True, error=error))
            self.message_shown = bool(message)

    def _take_token(self, now: float) -> bool:
        self.tokens = min(RATE_BURST, self.tokens + (now - self.last_refill) * RATE_PER_SECOND)
        self.last_refill = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def _flooding(self, now: float) -> bool:
        """Count a frame refused for the rate; True once the window holds too many."""
        if now - self.refused_since > FLOOD_WINDOW_SECONDS:
            self.refused_since, self.refused = now, 0
        self.refused += 1
        return self.refused >= FLOOD_CLOSE_AFTER

    async def receive(self, text_data=None, bytes_data=None):
        if self.closed:
            return
        self.request_id = None
        frame = text_data if text_data is not None else bytes_data
        if frame is None or len(frame) > MAX_FRAME_BYTES or (
                text_data is not None and len(text_data.encode()) > MAX_FRAME_BYTES):
            await self.close(code=FRAME_TOO_BIG)
            return
        now = time.monotonic()
        if not self._take_token(now):
            if self._flooding(now):
                await self.close(code=FLOODING)
            elif not self.told_to_slow_down:
                self.told_to_slow_down = True
                await self.answer("Too many messages: slow down.")
            return
        self.told_to_slow_down = False
        if text_data is None:
            await self.answer("Binary frames are not understood.")
            return
        try:
            data = json.loads(text_data)
        except (ValueError, RecursionError):
            await self.answer("Malformed request: nothing was done.")
            return
        if not isinstance(data, dict):
            await self.answer("A request is a JSON object: nothing was done.")
            return
        self.request_id = _request_id(data.get("id"))
        async with self.answering:
            try:
                message = await write_async(self.table_id, run_op)(
                    table_id=self.table_id, user=self.user, data=data, player=self.player
                )
            except (ServiceError, BadFrame, NumberError) as error:
                await self.answer(str(error))
                return
            except Table.DoesNotExist:
                await self.close(code=NO_SUCH_TABLE)
                return
            except DatabaseError:
                log.warning("table %s: database unreachable, request refused", self.table_id)
                await self.answer(DATABASE_DOWN)
                return
            except Exception:  # a bug must not cost the player their socket
                log.exception("table %s: request %r failed", self.table_id, data.get("op"))
                await self.answer("That request failed: nothing was done.")
                return
            await self.answer(message, error=False)


local_listeners.append(TableFeed.changed_here)
