"""How a table socket connects and joins its table (a base class of ``TableConsumer``): the
socket accepted at once and what its query asks (``?state=json``, ``frames=diff``,
``answers=inline``, a room screen's ``?view=tv``); its log-in by an API token (in a handshake
header, or the first frame of a ``?state=json`` socket, within ``AUTH_WAIT_SECONDS``); its
turn among the process's joins (``tables.live.admission``), counted under its user or
address; the viewer and the table read (and a browser's viewer's notes on players), the
table's runtime joined, the first state sent; then the chat's last lines. Also the whole
state again (``send_state``: the first frame, a ``sync``, new notes) and a browser's notes
read again (``notes_changed``).

A socket that ends without its first state after ``SLOW_JOIN_SECONDS`` (its client gave up
waiting) logs where its join stood, which tells a connect rush's stuck socket from a slow one.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import datetime
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import DatabaseError

from tables import croupier
from tables.db.threads import read_async
from tables.live.admission import CLIENT_GONE, admission
from tables.live.auth import (
    AUTH_WAIT_SECONDS,
    INVALID_TOKEN,
    NOT_AUTHENTICATED,
    header_token,
    token_user,
)
from tables.live.database_reach import DatabaseReach
from tables.live.frames import SocketFrames
from tables.live.protocol import (
    NO_SUCH_TABLE,
    NOT_LOGGED_IN,
    SERVER_BUSY,
    SERVER_TROUBLE,
    TOO_MANY_SOCKETS,
)
from tables.live.runtime import TableRuntime
from tables.live.sessions import LiveSockets
from tables.live.spectators import spectator_admit
from tables.models import Player, Table
from tables.presenters.models import NO_NOTES, NoteMarks
from tables.presenters.notes import note_marks
from tables.selectors.access import can_see_table
from tables.selectors.notes import notes_by_subject
from tables.selectors.players import viewer_player
from tables.selectors.room_screen import room_screen_allowed

if TYPE_CHECKING:
    from tables.http import Viewer
    from tables.selectors.snapshot import Snapshot

log = logging.getLogger(__name__)

#: A socket that ends without its first state after this long is logged with where it waited.
SLOW_JOIN_SECONDS = 10.0


class TableJoin(AsyncWebsocketConsumer):
    #: Where the socket's join stands: one that ends without its first state says where it
    #: waited (``_ended_without_state``).
    join_stage = "accepted"
    connected_at = 0.0
    runtime: TableRuntime | None = None
    live: LiveSockets | None = None  # this process's sockets by user, while registered
    spectator_of: str | None = None  # a logged-out spectator's address, while counted
    player: Player | None = None  # the viewer's player (None: a spectator), resolved at join
    notes: NoteMarks = NO_NOTES  # a browser's viewer's notes on players: read at join
    room_screen = False  # a room screen's socket (``?view=tv``): a spectator, whoever's browser
    room_key: str | None = None  # its host's key, for a private game's room screen
    awaiting_auth: asyncio.Task[None] | None = None  # closes a socket not logged in in time

    if TYPE_CHECKING:  # the table socket's own (``TableConsumer``)
        closed: bool
        table_id: int
        user: Viewer | None
        sent_version: int
        created_at: datetime
        frames: SocketFrames
        user_id: int
        session_key: str | None
        answering: asyncio.Lock

        async def answer(
            self, message: str, error: bool = True, code: str | None = None
        ) -> None: ...
        async def refuse(self, code: int) -> None: ...
        async def show(self, snapshot: Snapshot, again: bool = False) -> None: ...
        async def chat_join(self) -> None: ...
        async def table_chat(self, event: dict[str, Any]) -> None: ...
        async def session_ended(self) -> None: ...

    async def connect(self) -> None:
        croupier.ensure_started()
        # channels' lazy proxy of a User or AnonymousUser (or None without the auth middleware)
        self.user = cast("Viewer | None", self.scope.get("user"))
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.sent_version = -1  # nothing sent yet: the first frame goes whatever its version
        self.connected_at = time.monotonic()
        query = self.scope.get("query_string", b"")
        self.json_state = b"state=json" in query
        # A room screen (``?view=tv``, issue 53): a spectator whoever's browser it is in,
        # with its host's key for a private game (``tables.selectors.room_screen``).
        asked = parse_qs(query.decode("latin-1"))
        self.room_screen = not self.json_state and asked.get("view") == ["tv"]
        self.inline_answers = self.json_state and asked.get("answers") == ["inline"]
        keys = asked.get("key", [])
        self.room_key = keys[0] if self.room_screen and keys else None
        if self.room_screen:
            self.user = AnonymousUser()  # never a player: no hole card, no request
        # What it holds and is sent next: a JSON socket opts in to updates (``frames=diff``).
        self.frames = SocketFrames(
            ("diff" if b"frames=diff" in query else "json") if self.json_state else "page",
            room_screen=self.room_screen,
        )
        # The handshake first, before any database work: however busy the server, the client
        # never times out on it (and then tries again at once, adding to the rush).
        await self.accept()
        if self.room_screen:
            pass  # a spectator: joins as one (its key is checked with the table)
        elif self.user is None or not self.user.is_authenticated:
            key = header_token(self.scope)
            if key is not None:
                self.user = await read_async(token_user)(key)
                if self.user is None:
                    await self.refuse_login(INVALID_TOKEN, "invalid_token")
                    return
            elif self.json_state:  # the first frame logs in (``_log_in``)
                self.awaiting_auth = asyncio.ensure_future(self._auth_deadline())
                return
            # else a logged-out visitor's page: a spectator of a public table
        await self._join()

    async def refuse_login(self, message: str, code: str) -> None:
        await self.answer(message, code=code)
        await self.close(code=NOT_LOGGED_IN)

    async def _auth_deadline(self) -> None:
        await asyncio.sleep(AUTH_WAIT_SECONDS)
        if self.awaiting_auth is asyncio.current_task():
            self.awaiting_auth = None
            await self.refuse_login(NOT_AUTHENTICATED, "not_authenticated")

    async def _log_in(self, data: dict[str, Any]) -> None:
        """The first frame of a socket without a log-in: ``{"op": "auth", "token"}``."""
        user = None
        if data.get("op") == "auth":
            user = await read_async(token_user)(data.get("token"))
            if user is None:
                await self.refuse_login(INVALID_TOKEN, "invalid_token")
                return
        waiting, self.awaiting_auth = self.awaiting_auth, None
        if waiting is not None:
            waiting.cancel()
        if user is None:
            await self.refuse_login(NOT_AUTHENTICATED, "not_authenticated")
            return
        self.user = user
        await self.answer(f"Logged in as {user.get_username()}.", error=False)
        await self._join()

    async def _join(self) -> None:
        """A logged-in socket waits its turn to join (``tables.live.admission``: at most a few
        at once, so a rush of first states never starves the players' actions), or is shed
        with ``SERVER_BUSY`` when its turn would come too late, or has not come in time, or
        when the process is stopping (``TableRuntime.drain``)."""
        if TableRuntime.draining:  # the process is stopping: the client reconnects elsewhere
            self.join_stage = "refused: the server is stopping"
            await self.close(code=SERVER_BUSY)
            return
        gate = admission()
        self.join_stage = "waiting its turn to join"
        async with gate.turn() as placed:
            if not placed:
                self.join_stage = "shed: its turn would not come in time"
                log.info("table %s: busy, socket shed (%s so far)", self.table_id, gate.shed)
                await self.close(code=SERVER_BUSY)
                return
            self.join_stage = "joining"
            gone = self.scope.get(CLIENT_GONE)
            if isinstance(gone, asyncio.Event) and gone.is_set():
                self.join_stage = "left before its turn"
                return  # left while it waited: its join would be work for nobody
            joined = await self._join_table()
        if joined:  # the chat's last lines after its turn: a read the next join need not wait for
            await self.chat_join()

    async def _join_table(self) -> bool:
        """Counted, its table followed, the table sent; False if it was not."""
        self.join_stage = "counted"
        if not await self._counted():
            await self.refuse(TOO_MANY_SOCKETS)
            return False
        self.join_stage = "reading the viewer and the table"
        self.player, created_at = await read_async(self._viewer_and_table)()  # resolved once
        if created_at is None:
            await self.refuse(NO_SUCH_TABLE)
            return False
        self.created_at = created_at
        if self.ended_meanwhile():  # its log-in ended meanwhile
            self.join_stage = "closed while joining"
            return False
        self.join_stage = "following the table"
        await TableRuntime.join(self)
        if self.ended_meanwhile():  # ended while joining (and so left the runtime)
            self.join_stage = "closed while following the table"
            return False
        self.join_stage = "reading its first state"
        await self.send_state(first=True)
        if self.sent_version < 0 and not self.closed:
            # The first state could not be read (the database failed meanwhile: send_state
            # logged it). Left open, the socket would wait for the table's next change with
            # nothing on screen; closed, its client reconnects after its backoff.
            DatabaseReach.doubted()  # the next handshake looks at the database first
            await self.close(code=SERVER_TROUBLE)
            return False
        return True

    async def send_state(self, first: bool = False) -> None:
        """The whole table as it is now, in the table's turn (the ``first`` frame, a ``sync``,
        new notes): what the socket holds is forgotten first. A first state goes only to a
        socket sent nothing yet: a change the runtime showed its sockets between this one's
        joining and its turn here sent it the whole table already, at the latest version."""
        runtime = self.runtime
        if runtime is None:
            return

        async def whole() -> None:
            if first and self.sent_version >= 0:
                return
            self.frames.forget()
            self.sent_version = -1
            try:
                snapshot = await runtime.show_latest(self)
            except DatabaseError:
                log.warning("table %s: database unreachable, state not sent", self.table_id)
                return
            if snapshot is None:
                await self.close(code=NO_SUCH_TABLE)

        await runtime.call(whole)

    async def notes_changed(self) -> None:
        """The viewer changed their notes on players (``tables.live.sessions``): a browser
        reads them again and is sent the table with the new notes on its seats."""
        if self.closed or self.player is None or self.frames.kind != "page":
            return
        player_id = self.player.pk
        try:
            notes = await read_async(lambda: note_marks(notes_by_subject(player_id)))()
        except DatabaseError:
            log.warning("table %s: database unreachable, notes not refreshed", self.table_id)
            return
        if notes == self.notes:
            return
        async with self.answering:
            self.notes = notes
            await self.send_state()

    async def _counted(self) -> bool:
        """Count the socket under its user (heard of if the log-in ends) or, a logged-out
        spectator's, under its address (``tables.live.spectators``); False past the caps."""
        user = self.user
        if user is None or not user.is_authenticated:  # a spectator: by its address
            self.spectator_of = spectator_admit(self.scope.get("client"))
            return self.spectator_of is not None
        self.user_id = user.pk
        self.session_key = getattr(self.scope.get("session"), "session_key", None)
        on_table, in_all = LiveSockets.counts(self.channel_layer, self.user_id, self.table_id)
        if (
            on_table >= settings.POKER_SOCKETS_PER_USER_TABLE
            or in_all >= settings.POKER_SOCKETS_PER_USER
        ):
            log.info(
                "user %s: too many sockets (%s here, %s in all)", self.user_id, on_table, in_all
            )
            return False
        # Counted from now (no wait between the check and this), heard of if the log-in ends.
        self.live = live = LiveSockets.add(self.channel_layer, self)
        await live.followed()
        return True

    def ended_meanwhile(self) -> bool:
        """Closed while this socket awaited (the type checker takes ``closed`` as it was
        before the await)."""
        return self.closed

    def _viewer_and_table(self) -> tuple[Player | None, datetime | None]:
        """The viewer's player and the table's ``created_at``, None for a table this viewer
        may not see (a private game is refused to outsiders as if it did not exist): a
        join's reads in one trip to a thread, which a rush's joins queue for. Its state is read
        in the runtime's turn, after the socket follows the table: a change in between is not
        missed."""
        player = viewer_player(self.user)
        if player is not None and self.frames.kind == "page":  # a browser shows its notes
            self.notes = note_marks(notes_by_subject(player.pk))
        table = (
            Table.objects.filter(pk=self.table_id)
            .only("pk", "private", "created_at", "invite_token")
            .first()
        )
        if table is None:
            return player, None
        if self.room_screen:  # a private game's room screen: with its host's key
            if not room_screen_allowed(table, self.room_key):
                return player, None
        elif not can_see_table(table, self.user):
            return player, None
        return player, table.created_at

    def _ended_without_state(self) -> None:
        """A socket that ends without its first state after ``SLOW_JOIN_SECONDS`` (its client
        gave up waiting; the server cancels a join still under way) says where its join
        stood: it tells a rush's stuck socket from a slow one."""
        waited = time.monotonic() - self.connected_at
        if self.connected_at and self.sent_version < 0 and waited >= SLOW_JOIN_SECONDS:
            log.warning(
                "table %s: socket ended after %.0f s without its first state (at: %s)",
                self.table_id,
                waited,
                self.join_stage,
            )
