"""The table's websocket (``ws/tables/<id>/``): one consumer per socket, reading its frames
and answering them.

What a frame may ask, what it is answered and sent, and the close codes: ``tables.live.protocol``
(its words; a frame's reading and its answers are here: ``decode_frame``, ``FrameBudget``,
``answer_json``, ``with_answer``). How a socket connects, logs in and joins:
``tables.live.joining``.

- Connect: the socket is accepted at once (before any database work), then closed with a
  code the client can read if it may not stay: not logged in, no such table, too many
  sockets of its user (a spectator's: of its address), or the server too busy to serve it
  soon (``SERVER_BUSY``: a connect rush; joins wait their turn, ``tables.live.admission``).
  A program's socket logs in with an API token instead of the session cookie
  (``tables.live.auth``): in a handshake header, or in the first frame of a ``?state=json``
  socket, which then joins the table; a page socket without a log-in is a spectator of a
  public table (``tables.live.spectators``), and so is a room screen's (``?view=tv``, issue 53:
  whoever's browser shows it; a private game's with its host's key); how it joins:
  ``tables.live.joining``. A handshake from a foreign page is refused before this, with
  HTTP 403 (``pokersite.origins``). The socket joins the process's
  ``TableRuntime`` of the table (``tables.live.runtime``: the table's one home in the
  process, one member of the group ``table-<id>``) and gets the whole table for its viewer.
- ``table.chat``: a chat line or a mute, no version (``tables.live.chat``).
- The viewer's notes on players (issue 51) are read when a browser's socket joins and again
  when they change one (``notes_changed``, told by ``tables.live.sessions``): only their own
  seats show them, never a frame another viewer gets.
- Each new version of the table: the runtime calls ``show`` with it, sent for this socket's
  viewer as what changed since what the socket holds (``tables.live.frames``): htmx swaps
  each part by id; a ``frames=diff`` JSON socket gets a patch. ``{"op": "sync"}`` asks for
  the whole state again.
- A request is carried out by the table's runtime (in the table's turn, by the process that
  owns the table: an action straight to ``hand_act``, another request through its operation,
  ``tables.operations.run_op``); a refusal or a malformed frame is answered to the sender
  only, nothing changes. A JSON socket opened with ``answers=inline`` gets a carried-out
  request's answer inside the first frame it is sent while the request is handled
  (``show``), alone if none goes to it; refusals come alone.
- Limits: a frame over ``MAX_FRAME_BYTES`` closes the socket; every frame, binary ones
  included (refused), takes a token (``FrameBudget``); a frame
  without one is answered "slow down" (once) and ignored, and a flood of them closes the
  socket. Per server process (nginx sends a table's sockets to one process), a user may
  have ``POKER_SOCKETS_PER_USER_TABLE`` sockets on one table and ``POKER_SOCKETS_PER_USER``
  in all, an address ``POKER_SPECTATOR_SOCKETS_PER_ADDRESS`` spectators.
- A log-out closes that session's sockets, a password change all the user's
  (``tables.live.sessions``). However a socket ends (a close sent here, an error in a
  handler, the client gone), it leaves its runtime and the registry at once.
- A browser's message line is only sent when it says something or clears what it said.
- The database briefly unreachable: the sender is told so and nothing was done (each service
  is one transaction); the next update or a reconnect brings the state back.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import TYPE_CHECKING, Any, cast

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.db import DatabaseError

from tables.db.threads import read_async
from tables.live.admission import SERVER_SEND
from tables.live.chat import ChatSocket
from tables.live.joining import TableJoin
from tables.live.protocol import (
    FLOOD_CLOSE_AFTER,
    FLOOD_WINDOW_SECONDS,
    FLOODING,
    FRAME_TOO_BIG,
    NO_SUCH_TABLE,
    NOT_LOGGED_IN,
    RATE_BURST,
    RATE_PER_SECOND,
)
from tables.live.spectators import spectator_release
from tables.metrics import (
    ACTION_SECONDS,
    ACTIONS,
    FRAME_BYTES_SENT,
    FRAMES_SENT,
    SOCKETS_OPEN,
)
from tables.models import Table
from tables.presenters.render import render_message
from tables.selectors.hosting import left_table
from tables.selectors.players import player_bankroll
from tables.selectors.snapshot import Snapshot
from tables.services.errors import ServiceError
from tables.text import BadFrame, NumberError

if TYPE_CHECKING:
    from asgiref.typing import ASGIReceiveCallable, ASGISendCallable
    from channels.consumer import _ChannelScope


log = logging.getLogger(__name__)

MAX_FRAME_BYTES = 4096
#: How stale the bankroll shown to a viewer without a seat may get while the table changes.
BANKROLL_REFRESH_SECONDS = 5.0

DATABASE_DOWN = "The database is not reachable just now: nothing was done, try again."


class FrameBudget:
    """One socket's tokens and its refusals in the current window."""

    def __init__(self) -> None:
        self.tokens = float(RATE_BURST)
        self.last_refill = time.monotonic()
        self.refused_since, self.refused = 0.0, 0

    def take(self, now: float) -> bool:
        """Take a token for a frame arriving at ``now``; False when there is none."""
        self.tokens = min(RATE_BURST, self.tokens + (now - self.last_refill) * RATE_PER_SECOND)
        self.last_refill = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def flooding(self, now: float) -> bool:
        """Count a frame refused for the rate; True once the window holds too many."""
        if now - self.refused_since > FLOOD_WINDOW_SECONDS:
            self.refused_since, self.refused = now, 0
        self.refused += 1
        return self.refused >= FLOOD_CLOSE_AFTER


def error_code(error: Exception) -> str:
    """The stable code a refusal is answered with (``tables.services.errors`` has the
    services' own)."""
    if isinstance(error, NumberError):
        return "invalid_number"
    return getattr(error, "code", "server_error")


def decode_frame(text: str) -> dict[str, Any]:
    """A text frame as a request object; ``BadFrame`` if it is not JSON or not an object."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise BadFrame("Malformed request: nothing was done.") from None
    if not isinstance(data, dict):
        raise BadFrame("A request is a JSON object: nothing was done.")
    return data


def request_id_of(data: dict[str, Any]) -> int | str | None:
    """A request's ``id`` as its answer echoes it: a number or a short text, else None."""
    value = data.get("id")
    if isinstance(value, bool):
        return None
    if isinstance(value, int) or (isinstance(value, str) and len(value) <= 64):
        return value
    return None


def answer_json(
    message: str, error: bool, request: int | str | None, code: str | None = None
) -> str:
    """The answer to a ``?state=json`` socket's request (``request``: its ``id``, if any;
    ``code``: a refusal's stable code)."""
    return json.dumps({"type": "answer", **_answer_members(message, error, request, code)})


def with_answer(frame: str, message: str, request: int | str | None) -> str:
    """A state or update ``frame`` (a JSON object's text) with a carried-out request's answer
    as its ``answer`` member (``answers=inline``): the answer frame's members less ``type``.
    A new string: the frame's text is shared with the other sockets of its viewer."""
    return f'{frame[:-1]},"answer":{json.dumps(_answer_members(message, False, request))}}}'


def _answer_members(
    message: str, error: bool, request: int | str | None, code: str | None = None
) -> dict[str, object]:
    """An answer's members, in a frame of its own or inside a state or update."""
    answer: dict[str, object] = {"message": message, "error": error}
    if code is not None:
        answer["code"] = code
    if request is not None:
        answer["id"] = request
    return answer


class TableConsumer(ChatSocket, TableJoin, AsyncWebsocketConsumer):
    closed = False  # closed here or by the client: frames and changes are ignored from then
    accepted = False
    received_at = 0.0  # monotonic: the request being answered arrived (``_answered_as``)
    inline_answers = False  # ``?state=json&answers=inline``: a success's answer in its frame
    answer_due: str | None = None  # that answer's message, until a frame (or alone) takes it

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.budget = FrameBudget()  # the frames it may send (``receive``)
        self.told_to_slow_down = False
        self.request_id: int | str | None = None  # of the request being answered (``answer``)
        self.answering = asyncio.Lock()  # held from a request until its answer is sent
        self.message_shown = True  # a reconnecting page may still show an earlier message
        self.dealt_into: int | None = None  # the last hand this viewer was seen dealt into
        self.spoke = False  # this socket's own answer is on the message line
        self.bankroll: int | None = None
        self.bankroll_read_at = 0.0
        self.left_with = 0  # chips taken from this table within the hour (unseated viewer)
        self.reseat_at_ms: int | None = None  # when they may sit here again (left moments ago)

    async def __call__(
        self, scope: _ChannelScope, receive: ASGIReceiveCallable, send: ASGISendCallable
    ) -> None:
        """Channels' consumer, leaving its runtime and the registry however it ends (a handler
        raised, the server cancelled it, ``disconnect`` never ran)."""
        SOCKETS_OPEN.inc()
        try:
            await super().__call__(scope, receive, send)
        finally:
            SOCKETS_OPEN.dec()
            self.closed = True
            self._ended_without_state()
            await self._detach()

    async def accept(
        self, subprotocol: str | None = None, headers: list[tuple[str, str]] | None = None
    ) -> None:
        """Accept once (``connect`` first; a refusal before it closes); one ``accept_at_once``
        accepted sends straight to the server from then on."""
        if not self.accepted:
            self.accepted = True
            server_send = self.scope.get(SERVER_SEND)
            if server_send is not None:
                self.base_send = cast("ASGISendCallable", server_send)
                return
            await super().accept(subprotocol, headers)

    async def send(  # type: ignore[override]  # AsyncWebsocketConsumer's own, as channels has it
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        """Channels' send, each frame and its bytes counted for the operators."""
        if text_data is not None or bytes_data is not None:
            FRAMES_SENT.inc()
            FRAME_BYTES_SENT.inc(
                len(text_data.encode()) if text_data is not None else len(bytes_data or b"")
            )
        await super().send(text_data, bytes_data, close)

    async def _detach(self) -> None:
        """Stop following the table and leave the registry (again: a no-op)."""
        waiting, self.awaiting_auth = self.awaiting_auth, None
        if waiting is not None and waiting is not asyncio.current_task():
            waiting.cancel()
        live, self.live = self.live, None
        if live is not None:
            live.discard(self)
        spectator_of, self.spectator_of = self.spectator_of, None
        if spectator_of is not None:
            spectator_release(spectator_of)
        runtime, self.runtime = self.runtime, None
        if runtime is not None:
            await runtime.leave(self)

    async def close(self, code: int | bool | None = None, reason: str | None = None) -> None:
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
        """This socket's log-in ended (log-out, password change: ``tables.live.sessions``)."""
        await self.close(code=NOT_LOGGED_IN)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch, less its ``aclose_old_connections()`` before every handler.

        That is a hop to the one thread shared by every write of the process for every frame
        a socket receives, which queued behind the writes under load. Every database call of
        this consumer goes through ``tables.db.threads``, which has Django look at its
        thread's connections there.
        Overrides a library internal: ``pokersite.library_overrides`` (CHANNELS_DISPATCH).
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def disconnect(self, code: int) -> None:
        self.closed = True
        await self._detach()

    async def show(self, snapshot: Snapshot, again: bool = False) -> None:
        """Send the table at ``snapshot``'s version for this socket's viewer, as what changed
        since what the socket holds (``tables.live.frames``); never one older than the
        socket has had. Called by the table's runtime, in the table's turn: what a viewer
        sees of a version is made once per version and viewer, not per socket. ``again``:
        the version it was sent already, whose time-delayed broadcast cards are now due
        (nothing goes to a socket whose view did not change)."""
        if self.closed or snapshot.version < self.sent_version:
            return
        if snapshot.version == self.sent_version and not again:
            return
        try:
            bankroll = await self._bankroll_unseated(snapshot)
        except DatabaseError:
            log.warning("table %s: database unreachable, update skipped", self.table_id)
            return
        if self.closed or snapshot.version < self.sent_version:
            return
        if snapshot.version == self.sent_version and not again:
            return
        self.sent_version = snapshot.version
        frame = self.frames.next_frame(
            snapshot, self.player, bankroll, self.left_with, self.reseat_at_ms, self.notes
        )
        if frame:
            due, self.answer_due = self.answer_due, None
            if due is not None:  # the sender's own socket: a new text, the frame is shared
                frame = with_answer(frame, due, self.request_id)
            try:
                await self.send(text_data=frame)
            except BaseException:
                self.frames.forget()  # whether it arrived is in doubt: the whole next
                raise
        await self._clear_message_when_dealt_in(snapshot)
        if snapshot.table.host_id != self.chat_host_of:  # a hand-over, or the first version
            await self.chat_follow_host(snapshot.table)

    async def _clear_message_when_dealt_in(self, snap: Snapshot) -> None:
        """A new hand this viewer is dealt into makes the last message old news ("You sat
        down: you are dealt in from the next hand" while it is already their turn)."""
        player_id = self.player.pk if self.player is not None else None
        dealt_into = (
            snap.hand.pk
            if snap.running and snap.hand is not None and snap.hand_index_of(player_id) is not None
            else None
        )
        if dealt_into is None or dealt_into == self.dealt_into:
            return
        self.dealt_into = dealt_into
        if self.spoke:
            await self.send(text_data=render_message("", oob=True, error=False))
            self.message_shown = self.spoke = False

    async def _bankroll_unseated(self, snap: Snapshot) -> int | None:
        """The bankroll of a viewer who has no seat here (a seated one's comes with the
        snapshot), with the chips they left this table with (``self.left_with``: the
        sit-down form's least buy-in): read when they get up and then at most every
        ``BANKROLL_REFRESH_SECONDS``, not on every change of a table they only watch."""
        if self.player is None or snap.seat_of(self.player.pk) is not None:
            self.bankroll, self.left_with, self.reseat_at_ms = None, 0, None
            return None
        now = time.monotonic()
        if self.bankroll is None or now - self.bankroll_read_at >= BANKROLL_REFRESH_SECONDS:
            self.bankroll, self.left_with, self.reseat_at_ms = await read_async(
                self._unseated_reads
            )()
            self.bankroll_read_at = now
        return self.bankroll

    def _unseated_reads(self) -> tuple[int, int, int | None]:
        assert self.player is not None  # read for a viewer without a seat: a player
        left = left_table(self.table_id, self.player)
        return player_bankroll(self.player.pk), left.minimum, left.wait_until_ms

    async def answer(self, message: str, error: bool = True, code: str | None = None) -> None:
        """Tell this socket alone how its request went (nothing for a silent success). A
        ``?state=json`` socket gets an answer to every request, with its ``id`` if it gave one
        (a number or up to 64 characters): a client tells which of its requests it answers."""
        if getattr(self, "json_state", False):
            await self.send(text_data=answer_json(message, error, self.request_id, code))
        elif message or self.message_shown:
            await self.send(text_data=render_message(message, oob=True, error=error))
            self.message_shown = self.spoke = bool(message)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.closed:
            return
        self.request_id = None
        frame = text_data if text_data is not None else bytes_data
        if (
            frame is None
            or len(frame) > MAX_FRAME_BYTES
            or (text_data is not None and len(text_data.encode()) > MAX_FRAME_BYTES)
        ):
            await self.close(code=FRAME_TOO_BIG)
            return
        now = self.received_at = time.monotonic()
        if not self.budget.take(now):
            if self.budget.flooding(now):
                await self.close(code=FLOODING)
            elif not self.told_to_slow_down:
                self.told_to_slow_down = True
                await self.answer("Too many messages: slow down.", code="rate_limited")
            return
        self.told_to_slow_down = False
        if text_data is None:
            await self.answer("Binary frames are not understood.", code="bad_request")
            return
        try:
            data = decode_frame(text_data)
        except BadFrame as error:
            await self.answer(str(error), code=error_code(error))
            return
        self.request_id = request_id_of(data)
        if self.awaiting_auth is not None:
            await self._log_in(data)
            return
        if data.get("op") == "auth":
            await self.answer("This socket is logged in already.", code="bad_request")
            return
        if data.get("op") == "sync":  # the client doubts what it holds: the whole state
            async with self.answering:
                await self.send_state()
                await self.answer("", error=False)
            return
        # Not logged in, a socket is closed or awaits its auth frame (handled above).
        assert self.user is not None
        if self.player is None:  # a spectator: refused here, not on the table's write thread
            await self.answer("Log in to play: you are watching.", code="bad_request")
            return
        runtime = self.runtime
        if runtime is None:  # not joined yet (or gone): nothing to act on
            await self.answer("Not joined to the table yet: try again.", code="bad_request")
            return
        async with self.answering:
            try:
                try:
                    await runtime.request(self.user, self.player, data, self._answered)
                finally:  # an inline answer no frame took, before any error's: alone
                    await self._answer_if_due()
            except (ServiceError, BadFrame, NumberError) as error:
                await self.answer(str(error), code=error_code(error))
                self._answered_as("refused")
                return
            except Table.DoesNotExist:
                await self.close(code=NO_SUCH_TABLE)
                return
            except DatabaseError:
                log.warning("table %s: database unreachable, request refused", self.table_id)
                await self.answer(DATABASE_DOWN, code="database_unavailable")
                self._answered_as("failed")
                return
            except Exception:  # a bug must not cost the player their socket
                log.exception("table %s: request %r failed", self.table_id, data.get("op"))
                await self.answer("That request failed: nothing was done.", code="server_error")
                self._answered_as("failed")

    async def _answered(self, message: str) -> None:
        """A request carried out: the sender is told before the new version goes out, or
        (``answers=inline``) in the first frame of it that ``show`` sends the sender."""
        if self.inline_answers:
            self.answer_due = message
        else:
            await self.answer(message, error=False)
        self._answered_as("accepted")

    async def _answer_if_due(self) -> None:
        due, self.answer_due = self.answer_due, None
        if due is not None:
            await self.answer(due, error=False)

    def _answered_as(self, result: str) -> None:
        """The operators' figures (``tables.metrics``): a request answered, and how long after
        its receipt."""
        ACTIONS.labels(result).inc()
        ACTION_SECONDS.observe(time.monotonic() - self.received_at)
