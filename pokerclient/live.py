"""A table's socket (protocol version 1, ``/api/asyncapi.json``) as the client speaks it.

``TableSocket.run`` connects with the API token in the ``Authorization`` header (never in the
URL), hands every state frame to ``on_state`` and keeps going: a dropped connection (or one
the server shed while busy, close 4013) is opened again after a growing, jittered pause
(``pokerclient.backoff``), and the first frame after it is the whole table again. A close
the client cannot cure (logged out, no such table, too many sockets) ends it with a
``ClientError``. ``request`` sends one request and waits for its answer (matched by ``id``).
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Awaitable, Callable
from urllib.parse import urlsplit

import websockets
from websockets.asyncio.client import ClientConnection, connect

from pokerclient.backoff import Backoff
from pokerclient.config import ClientError

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
    return f"{scheme}://{parts.netloc}/ws/tables/{table_id}/?state=json"


class TableSocket:
    def __init__(
        self,
        server: str,
        table_id: int,
        token: str,
        on_state: Callable[[dict], Awaitable[None] | None],
        on_status: Callable[[str], None] = lambda line: None,
        trace: Callable[[str, str], None] | None = None,
    ) -> None:
        self.url = socket_url(server, table_id)
        self.token = token
        self.on_state = on_state
        self.on_status = on_status
        self.connection: ClientConnection | None = None
        self.waiting: dict[int, asyncio.Future] = {}
        self.ids = itertools.count(1)
        self.connected = asyncio.Event()
        self.stopped = False
        self.reconnects = 0
        self.backoff = Backoff(RETRY_FIRST, RETRY_MOST)
        self.trace = trace  # (">" sent or "<" received, the frame): ``poker bot --trace``

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
                    self.connected.set()
                    self.on_status("connected")
                    self.backoff.reset()
                    async for text in connection:
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
            if self.stopped:
                return
            if code in FATAL_CLOSES:
                raise ClientError(FATAL_CLOSES[code])
            pause = self.backoff.next_delay()
            self.on_status(f"connection lost ({code}): reconnecting in {pause:.1f}s")
            self.reconnects += 1
            await asyncio.sleep(pause)

    async def _frame(self, text: str) -> None:
        if self.trace is not None:
            self.trace("<", text)
        try:
            data = json.loads(text)
        except ValueError:
            return
        if data.get("type") == "state":
            result = self.on_state(data)
            if asyncio.iscoroutine(result):
                await result
        elif data.get("type") == "answer":
            future = self.waiting.pop(data.get("id"), None)
            if future is not None and not future.done():
                future.set_result(data)
            elif data.get("error"):
                self.on_status(data.get("message", "refused"))

    def _fail_waiting(self) -> None:
        for future in self.waiting.values():
            if not future.done():
                future.set_exception(ClientError("the connection dropped: nothing was confirmed"))
        self.waiting.clear()

    async def request(self, op: str, **fields) -> dict:
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
