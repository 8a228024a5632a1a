"""A table's socket (protocol version 1, ``/api/asyncapi.json``) as the client speaks it.

Every text in a frame is made safe to print (``safe.printable``) as it comes in.
``TableSocket.run`` connects with the API token in the ``Authorization`` header (never in the
URL), hands every state to ``on_state`` and keeps going: the first frame is the whole state,
each ``update`` after it a patch on the version it names, applied here (``StateFrames``;
on another base it asks for the whole state again). A dropped connection (or one the server
shed while busy, close 4013) is opened again after a growing, jittered pause
(``pokerclient.backoff``, started over once a socket has given the table), and the first
frame after it is the whole table again. A close
the client cannot cure (logged out, no such table, too many sockets) ends it with a
``ClientError``. ``request`` sends one request and waits for its answer (matched by ``id``):
an answer frame, or (``answers=inline``) the ``answer`` member of the state or update frame
the request brought.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

import websockets
from websockets.asyncio.client import ClientConnection, connect

from pokerclient.backoff import Backoff
from pokerclient.config import ClientError
from pokerclient.safe import printable_data

#: Closes that reconnecting would not cure -> the line the user reads.
FATAL_CLOSES = {
    4401: "the server refused the log-in: run `poker login` again",
    4404: "no such table",
    4429: "too many sockets open on this account",
}
RETRY_FIRST, RETRY_MOST = 0.5, 8.0
ANSWER_SECONDS = 15.0


def socket_url(server: str, table_id: int) -> str:
    parts = urlsplit(server)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}/ws/tables/{table_id}/?state=json&frames=diff&answers=inline"


class PatchError(ValueError):
    """An update that does not apply to the state held (another base): ask for the whole."""


def apply_patch(document: Any, patch: list[list[Any]]) -> Any:
    """``document`` (JSON data) changed by ``patch``, as a new document: what an operation
    changes is copied, what it does not is shared with ``document``, which is left as it was.

    An operation (the server's ``tables.live.patch``) is ``[path, value]``: set the value at
    the JSON Pointer ``path`` (add or replace an object member, replace a list item, append
    at ``/-``), or ``[path]``: remove it."""
    copied: set[int] = set()

    def own(container: Any) -> Any:
        """A copy of ``container`` made in this call (the same one if made already)."""
        if id(container) in copied:
            return container
        fresh = list(container) if isinstance(container, list) else dict(container)
        copied.add(id(fresh))
        return fresh

    for op in patch:
        if not isinstance(op, list) or len(op) not in (1, 2) or not isinstance(op[0], str):
            raise PatchError(f"not an operation: {op!r}")
        path = op[0]
        if path == "" and len(op) == 2:
            document = op[1]
            continue
        if not path.startswith("/"):
            raise PatchError(f"bad path {path!r}")
        *parents, last = (p.replace("~1", "/").replace("~0", "~") for p in path[1:].split("/"))
        try:
            document = target = own(document)
            for part in parents:
                key = int(part) if isinstance(target, list) else part
                target[key] = own(target[key])
                target = target[key]
            if isinstance(target, list) and len(op) == 2:
                if last == "-":
                    target.append(op[1])
                else:
                    target[int(last)] = op[1]
            elif isinstance(target, list):
                del target[int(last)]
            elif isinstance(target, dict) and len(op) == 2:
                target[last] = op[1]
            elif isinstance(target, dict):
                del target[last]
            else:
                raise PatchError(f"{path} is inside a value")
        except (KeyError, IndexError, ValueError, TypeError, AttributeError) as error:
            if isinstance(error, PatchError):
                raise
            raise PatchError(f"{op!r}: {error!r}") from None
    return document


class StateFrames:
    """The whole state a ``frames=diff`` socket is following: its first ``state`` frame, then
    each ``update`` (``{"version", "base", "patch"}``) applied on the version it names.
    ``take(frame)`` returns the state to hand on (a new dict each time, the parts that did not
    change shared with the last), or None: nothing new, or an update on another base
    (``stale`` is set: send ``{"op": "sync"}``)."""

    def __init__(self) -> None:
        self.state: dict[str, Any] | None = None
        self.stale = False

    def take(self, data: dict[str, Any]) -> dict[str, Any] | None:
        if data.get("type") == "state":
            self.state, self.stale = data, False
            return data
        if data.get("type") != "update" or self.stale:
            return None
        if self.state is None or data.get("base") != self.state.get("version"):
            self.stale = True
            return None
        try:
            state = apply_patch(self.state, data.get("patch") or [])
        except PatchError:
            self.stale = True
            return None
        state = {**state, "type": "state", "version": data["version"]}
        self.state = state
        return state


class TableSocket:
    def __init__(
        self,
        server: str,
        table_id: int,
        token: str,
        on_state: Callable[[dict[str, Any]], Awaitable[None] | None],
        on_status: Callable[[str], None] = lambda line: None,
        trace: Callable[[str, str], None] | None = None,
    ) -> None:
        self.url = socket_url(server, table_id)
        self.token = token
        self.on_state = on_state
        self.on_status = on_status
        self.connection: ClientConnection | None = None
        self.waiting: dict[int, asyncio.Future[Any]] = {}
        self.ids = itertools.count(1)
        self.connected = asyncio.Event()
        self.stopped = False
        self.reconnects = 0
        self.backoff = Backoff(RETRY_FIRST, RETRY_MOST)
        self.trace = trace  # (">" sent or "<" received, the frame): ``poker bot --trace``
        self.frames = StateFrames()

    async def run(self) -> None:
        """Follow the table until ``stop()``; reconnects by itself."""
        while not self.stopped:
            try:
                async with connect(
                    self.url,
                    additional_headers={"Authorization": f"Token {self.token}"},
                    open_timeout=10,
                ) as connection:
                    self.connection = connection
                    self.frames = StateFrames()  # the first frame is the whole state
                    self.connected.set()
                    self.on_status("connected")
                    async for text in connection:
                        # the server sends text frames only; a binary one is not JSON
                        if isinstance(text, str):
                            await self._frame(text)
                    code = connection.close_code
            except websockets.ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd is not None else None
            except websockets.InvalidStatus as refused:
                status = refused.response.status_code
                if status in (401, 403, 404):
                    raise ClientError(f"the server refused the socket (HTTP {status})") from None
                code = None
                self.on_status(f"the server answered HTTP {status}: retrying")
            except (OSError, TimeoutError, websockets.InvalidHandshake) as error:
                code = None
                self.on_status(f"cannot connect ({type(error).__name__}): retrying")
            finally:
                self.connection = None
                self.connected.clear()
                self._fail_waiting()
            if self.stop_asked():
                return
            if code in FATAL_CLOSES:
                raise ClientError(FATAL_CLOSES[code])
            pause = self.backoff.next_delay()
            self.on_status(f"connection lost ({code}): reconnecting in {pause:.1f}s")
            self.reconnects += 1
            await asyncio.sleep(pause)

    def stop_asked(self) -> bool:
        """Whether ``stop()`` was called (while the loop awaited: a method, not the attribute,
        so that the loop's own test of ``stopped`` does not settle it for the type checker)."""
        return self.stopped

    async def _frame(self, text: str) -> None:
        if self.trace is not None:
            self.trace("<", text)
        try:
            data = printable_data(json.loads(text))
        except ValueError:
            return
        if not isinstance(data, dict):
            return
        if data.get("type") in ("state", "update"):
            answer = data.pop("answer", None)  # not part of the state
            if isinstance(answer, dict):  # its request's answer first, as a frame of its own was
                self._answered(answer)
            was_stale = self.frames.stale
            state = self.frames.take(data)
            if state is None:
                if self.frames.stale and not was_stale and self.connection is not None:
                    await self.connection.send(json.dumps({"op": "sync"}))  # the whole again
                return
            # It had the table: a later drop starts the pauses over. (Not on opening: the
            # server accepts at once and may then shed the socket, 4013, or close it, 4011.)
            self.backoff.reset()
            result = self.on_state(state)
            if asyncio.iscoroutine(result):
                await result
        elif data.get("type") == "answer":
            self._answered(data)

    def _answered(self, answer: dict[str, Any]) -> None:
        """An answer, alone or inside a frame: to the request waiting for it, else a refusal's
        message shown."""
        answer_id = answer.get("id")
        future = self.waiting.pop(answer_id, None) if isinstance(answer_id, int) else None
        if future is not None and not future.done():
            future.set_result(answer)
        elif answer.get("error"):
            self.on_status(answer.get("message", "refused"))

    def _fail_waiting(self) -> None:
        for future in self.waiting.values():
            if not future.done():
                future.set_exception(ClientError("the connection dropped: nothing was confirmed"))
        self.waiting.clear()

    async def request(self, op: str, **fields: Any) -> dict[str, Any]:
        """Send one request and return its answer (``error``, ``message``, ``code``)."""
        connection = self.connection
        if connection is None:
            raise ClientError("not connected just now: try again")
        request_id = next(self.ids)
        future = asyncio.get_running_loop().create_future()
        self.waiting[request_id] = future
        text = json.dumps({"op": op, "id": request_id, **fields})
        if self.trace is not None:
            self.trace(">", text)
        await connection.send(text)
        try:
            return await asyncio.wait_for(future, ANSWER_SECONDS)
        except TimeoutError:
            self.waiting.pop(request_id, None)
            raise ClientError("the server did not answer in time") from None

    async def stop(self) -> None:
        self.stopped = True
        if self.connection is not None:
            await self.connection.close()
