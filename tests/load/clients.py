"""Players for the load tests and the load benchmark, and how their play is measured.

- ``Socket``: a logged-in websocket player that acts only when the test tells it to.
- ``Client``: a logged-in websocket player (session cookie) that decides with the engine's
  bots from the JSON state frames its own socket receives (``?state=json``).
- ``Tracker``: when each action was sent and when every client at its table had its result.
- ``play``/``wait_for``: run clients until a condition holds, with a deadline that raises
  ``TimeoutError`` naming what was awaited. Nothing here sleeps.

The players ask for ``answers=inline``: an action carried out is answered inside the frame it
brings them, taken as an answer frame is.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time

import orjson

from pokerclient.backoff import Backoff
from pokerclient.live import StateFrames

#: The close code of a socket the server shed while busy (``tables.live.protocol``).
SERVER_BUSY = 4013
#: The load clients' reconnect pauses: short (the tests kill and restart servers), jittered.
RECONNECT_FIRST, RECONNECT_MOST = 0.05, 2.0
#: Seconds a player who was told "nothing was done, try again" waits before trying again.
TRY_AGAIN_SECONDS = 0.5


# --- clients -----------------------------------------------------------------------------------
def origin_of(base: str) -> str:
    """The page origin that goes with a socket's base URL (``ws`` with ``http``, ``wss`` with
    ``https``: behind nginx's TLS, the multi-host harness's players use ``wss``)."""
    scheme, _, rest = base.partition("://")
    return {"ws": "http", "wss": "https"}.get(scheme, scheme) + "://" + rest


class Tracker:
    """Per table: when each action was sent and when every client had seen its result.

    An action sent at table version ``v`` is delivered to a client when that client receives
    a state with a version above ``v``. ``latencies`` holds, per action, the seconds from the
    send until the last client at the table had it.
    """

    def __init__(self) -> None:
        self.clients: dict[int, set] = {}
        self.pending: dict[int, dict[int, tuple[float, set]]] = {}
        self.latencies: list[float] = []
        self.undelivered = 0

    def join(self, table_id: int, client) -> None:
        self.clients.setdefault(table_id, set()).add(client)

    def sent(self, table_id: int, version: int, now: float) -> None:
        waiting = set(self.clients.get(table_id, ()))
        self.pending.setdefault(table_id, {})[version] = (now, waiting)

    def received(self, table_id: int, client, version: int, now: float) -> None:
        pending = self.pending.get(table_id)
        if not pending:
            return
        for sent_version in [v for v in pending if v < version]:
            started, waiting = pending[sent_version]
            waiting.discard(client)
            if not waiting:
                self.latencies.append(now - started)
                del pending[sent_version]

    def refused(self, table_id: int, version: int) -> None:
        self.pending.get(table_id, {}).pop(version, None)

    def outstanding(self) -> int:
        return sum(len(p) for p in self.pending.values())


class Client:
    """A logged-in player's websocket that plays with an engine bot until ``stop`` is set.

    Reconnects (to ``servers`` in turn) whenever its socket drops or its handshake fails,
    after a jittered, growing pause (``pokerclient.backoff``, as every client the project
    ships; ``attempts`` counts the handshakes tried, ``shed`` the sockets the server closed
    for being busy). ``idle=True`` never acts
    (the clock acts for it) but sits back in whenever it was sat out. Records every version
    received (``versions``), every action sent and every refusal (``refusals``).
    """

    def __init__(
        self,
        *,
        servers: list[str],
        table_id: int,
        player: dict,
        tracker: Tracker,
        seed: int = 0,
        idle: bool = False,
        policy: str = "random",
        think: float = 0.0,
    ) -> None:
        from engine.bots import RandomBot, SensibleBot

        self.servers = servers
        self.table_id = table_id
        self.player = player
        self.tracker = tracker
        self.idle = idle
        rng = random.Random(seed)
        self.bot = SensibleBot(rng=rng, samples=30) if policy == "sensible" else RandomBot(rng=rng)
        self.versions: list[int] = []
        self.version_runs: list[list[int]] = [[]]
        self.sent: list[dict] = []
        self.requests = 0  # actions sent, numbering their ids
        self.awaiting: dict[int, dict] = {}  # id -> action sent on this socket, not answered
        self.refusals: list[str] = []
        self.answers = 0
        self.connects = 0
        self.attempts = 0  # handshakes tried (``connects`` of them opened)
        self.shed = 0  # sockets the server closed because it was busy (SERVER_BUSY)
        self.backoff = Backoff(RECONNECT_FIRST, RECONNECT_MOST, rng=random.Random(seed))
        self.frames = 0
        self.states = StateFrames()
        self.syncs = 0  # whole states asked for again (an update on another base)
        self.frame_sizes: list[int] = []  # bytes of each frame, while ``count_frames``
        self.table_frames = 0  # states and updates (one per version it was sent), likewise
        self.count_frames = False
        self.last_state: dict | None = None
        self.acted_on: tuple | None = None
        self.changed = asyncio.Event()
        self.think = think  # seconds a player takes to decide (the benchmark's pacing)
        self.quiet = False  # set to stop acting (e.g. to let the last updates arrive)
        self.rebuy = 0  # chips to sit down with again after busting (0: stay out)
        # Act again when told "nothing was done, try again" (as a person would: the owner of
        # the table was lost and another takes it over), not only on a new version.
        self.tries_again = False
        tracker.join(table_id, self)

    @property
    def name(self) -> str:
        return self.player["name"]

    async def run(self, stop: asyncio.Event) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidHandshake

        while not stop.is_set():
            base = self.servers[self.attempts % len(self.servers)]
            self.attempts += 1
            try:
                async with connect(
                    f"{base}/ws/tables/{self.table_id}/?state=json&frames=diff&answers=inline",
                    origin=origin_of(base),
                    additional_headers={"Cookie": f"sessionid={self.player['session']}"},
                    open_timeout=60,
                    ping_interval=None,
                    max_size=2**22,
                    compression=None,
                ) as ws:
                    self.connects += 1
                    self.states = StateFrames()  # the first frame is the whole state
                    self.version_runs.append([])
                    self.acted_on = None
                    reader = asyncio.ensure_future(self._read(ws))
                    stopper = asyncio.ensure_future(stop.wait())
                    await asyncio.wait({reader, stopper}, return_when=asyncio.FIRST_COMPLETED)
                    stopper.cancel()
                    if not reader.done():
                        reader.cancel()
                        await ws.close()
                    elif reader.exception() and not isinstance(
                        reader.exception(), ConnectionClosed
                    ):
                        raise reader.exception()
                    self._unanswered_lost()
                    if ws.close_code == SERVER_BUSY:
                        self.shed += 1
                    elif self.version_runs[-1]:
                        self.backoff.reset()  # it had the table: a fresh drop starts over
            except (TimeoutError, OSError, ConnectionClosed, InvalidHandshake):
                self._unanswered_lost()
            if stop.is_set():
                return
            # A server going away, or busy: try the next one (its socket queues us until it
            # is up) after a pause, so a crowd does not come back all at once.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), self.backoff.next_delay())

    def _unanswered_lost(self) -> None:
        """The socket dropped: an action it sent with no answer yet will never get one (it
        may or may not have been applied: the database tells)."""
        for sent in self.awaiting.values():
            sent["lost"] = True
        self.awaiting.clear()

    def _wake(self) -> None:
        """Wake whoever waits on this client's frames (``wait_for``)."""
        self.changed.set()
        self.changed = asyncio.Event()

    def settled(self) -> bool:
        """Every action sent has its answer, or its socket dropped before one came."""
        return not self.awaiting

    async def _read(self, ws) -> None:
        async for raw in ws:
            self.frames += 1
            if self.count_frames:
                self.frame_sizes.append(len(raw.encode()) if isinstance(raw, str) else len(raw))
            if not raw.startswith("{"):
                continue  # the HTML regions for htmx; the JSON frame says the same for us
            frame = orjson.loads(raw)  # the load generator must stay light (bench_load)
            if frame.get("type") == "answer":
                self._answered(ws, frame)
                continue
            if frame.get("type") not in ("state", "update"):
                continue
            answer = frame.pop("answer", None)  # its action's, first: as a frame of its own was
            if answer is not None:
                self._answered(ws, answer)
            if self.count_frames:
                self.table_frames += 1
            was_stale = self.states.stale
            frame = self.states.take(frame)  # an update applied on the state it is based on
            if frame is None:
                if self.states.stale and not was_stale:
                    self.syncs += 1
                    await ws.send('{"op": "sync"}')
                continue
            now = time.perf_counter()
            version = frame["version"]
            self.versions.append(version)
            self.version_runs[-1].append(version)
            self.last_state = frame
            self.tracker.received(self.table_id, self, version, now)
            self._wake()
            await self._maybe_act(ws, frame)

    def _answered(self, ws, answer: dict) -> None:
        self.answers += 1
        refused = bool(answer.get("error") and answer.get("message"))
        if refused:
            self.refusals.append(answer["message"])
        # Matched by id: a new state can prompt another action before the answer to the last
        # one arrives.
        sent = self.awaiting.pop(answer.get("id"), None)
        if sent is not None:
            sent["accepted"] = not refused
            if refused:
                self.tracker.refused(self.table_id, sent["version"])
                if self.tries_again and "try again" in answer["message"]:
                    self._try_again(ws, sent)
        self._wake()

    def _try_again(self, ws, sent: dict) -> None:
        """Decide again on the state the refused action answered, after a pause, unless the
        table moved on meanwhile (its new state prompts a decision of its own)."""
        frame = self.last_state
        if frame is None or frame["version"] != sent["version"]:
            return
        self.acted_on = None

        def again() -> None:
            if self.last_state is frame:
                asyncio.ensure_future(self._maybe_act(ws, frame))

        asyncio.get_running_loop().call_later(TRY_AGAIN_SECONDS, again)

    async def _maybe_act(self, ws, frame: dict) -> None:
        me = frame.get("me") or {}
        if self.rebuy and not me.get("seated") and not self.quiet:
            if (frame["version"], "take_seat") != self.acted_on:  # busted: sit down again
                self.acted_on = (frame["version"], "take_seat")
                await ws.send(json.dumps({"op": "take_seat", "seat": "", "buy_in": self.rebuy}))
            return
        if me.get("sitting_out") and not self.quiet:
            if (frame["version"], "sit_in") != self.acted_on:
                self.acted_on = (frame["version"], "sit_in")
                await ws.send(json.dumps({"op": "sit_in"}))
            return
        view = frame.get("view")
        if (
            self.quiet
            or self.idle
            or not frame.get("running")
            or not view
            or view.get("legal") is None
        ):
            return
        key = (frame["hand"], frame["version"])
        if key == self.acted_on:
            return
        self.acted_on = key
        if self.think:
            asyncio.get_running_loop().call_later(
                self.think, lambda: asyncio.ensure_future(self._act(ws, frame, view))
            )
            return
        await self._act(ws, frame, view)

    async def _act(self, ws, frame: dict, view: dict) -> None:
        if self.last_state is not frame or self.quiet:
            return  # the table moved on while thinking
        action = self.bot.decide(view)
        self.requests += 1
        message = {
            "op": "act",
            "hand": frame["hand"],
            "version": frame["version"],
            "kind": action.kind,
            "id": self.requests,
        }
        if action.kind == "raise":
            message["amount"] = action.amount
        sent = {**message, "accepted": None}
        self.sent.append(sent)
        self.awaiting[message["id"]] = sent
        self.tracker.sent(self.table_id, frame["version"], time.perf_counter())
        await ws.send(json.dumps(message))


class Socket:
    """A logged-in player's websocket (``?state=json``, a whole state per version, an action's
    answer inside the state it brings when it brings one: ``answers=inline``) that
    records what it receives and acts only when the test says (``act``): a scripted player.
    ``server``: the ``tests.load.processes.Server`` it connects to."""

    def __init__(self, server, table_id: int, player: dict) -> None:
        self.url = f"{server.ws}/ws/tables/{table_id}/?state=json&answers=inline"
        self.origin = server.http
        self.player = player
        self.states: list[dict] = []
        self.answers: list[dict] = []
        self.changed = asyncio.Event()

    @property
    def state(self) -> dict | None:
        return self.states[-1] if self.states else None

    @property
    def version(self) -> int:
        return self.state["version"] if self.state else 0

    @property
    def to_act(self) -> bool:
        view = (self.state or {}).get("view") or {}
        return bool(self.state and self.state["running"] and view.get("legal"))

    async def open(self) -> None:
        from websockets.asyncio.client import connect

        self.ws = await connect(
            self.url,
            origin=self.origin,
            open_timeout=30,
            ping_interval=None,
            additional_headers={"Cookie": f"sessionid={self.player['session']}"},
        )
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                if raw.startswith("{"):
                    frame = json.loads(raw)
                    if frame.get("type") == "state":
                        if "answer" in frame:  # before the state, as a frame of its own was
                            self.answers.append(frame.pop("answer"))
                        self.states.append(frame)
                    elif frame.get("type") == "answer":
                        self.answers.append(frame)
                self.changed.set()
                self.changed = asyncio.Event()
        finally:  # its server went away: whoever waits on it hears so at once
            self.changed.set()

    async def act(self, state: dict) -> dict:
        """Send a passive action for ``state`` and wait (bounded) for the server's answer (a
        check when it is not this player's turn: the server says no)."""
        legal = state["view"]["legal"] or {"check": True}
        kind = "check" if legal["check"] else "call"
        seen = len(self.answers)
        await self.ws.send(
            json.dumps(
                {"op": "act", "hand": state["hand"], "version": state["version"], "kind": kind}
            )
        )
        await wait_for(
            lambda: len(self.answers) > seen,
            timeout=30,
            what=f"an answer to {self.player['name']}'s {kind}",
            events=[self],
        )
        return self.answers[seen]

    async def close(self) -> None:
        self.reader.cancel()
        await self.ws.close()


def _waiting_for(clients: list[Client], tracker: Tracker) -> str:
    """What is still missing, for a timeout's message: the actions not yet seen by every
    client, and each client's newest version and actions without an answer."""
    pending = {
        table: {
            version: sorted(c.name for c in waiting) for version, (_, waiting) in actions.items()
        }
        for table, actions in tracker.pending.items()
        if actions
    }
    unanswered = {c.name: list(c.awaiting.values()) for c in clients if c.awaiting}
    return (
        f"actions not seen by every client (table: {{version: who}}): {pending}; newest "
        f"version per client: { {c.name: c.versions[-1:] for c in clients} }; unanswered: "
        f"{unanswered}"
    )


async def play(
    clients: list[Client], tracker: Tracker, until, *, timeout: float, what: str, during=None
) -> None:
    """Run ``clients`` until ``until()``; then they stop acting and every update is delivered.

    ``during`` (optional) is a coroutine run alongside (e.g. the chaos monkey); it is cancelled
    at the end and any error it raised is raised here.
    """
    stop = asyncio.Event()
    tasks = [asyncio.ensure_future(c.run(stop)) for c in clients]
    side = asyncio.ensure_future(during) if during is not None else None
    try:
        await wait_for(until, timeout=timeout, what=what, events=clients, side=side)
        if side is not None:
            side.cancel()
        for client in clients:
            client.quiet = True
        # The other sockets can have an action's update before its sender has the answer (a
        # frame of its own, or inside its own update): wait for both.
        try:
            await wait_for(
                lambda: tracker.outstanding() == 0 and all(c.settled() for c in clients),
                timeout=60,
                what="every client to get the last actions' updates and answers",
                events=clients,
            )
        except TimeoutError as error:
            raise TimeoutError(f"{error}: {_waiting_for(clients, tracker)}") from None
    finally:
        stop.set()
        if side is not None and not side.done():
            side.cancel()
        await asyncio.wait(tasks, timeout=30)
    for task in tasks:
        if task.done() and not task.cancelled() and task.exception():
            raise task.exception()


async def wait_for(predicate, *, timeout: float, what: str, events=(), side=None) -> None:
    """Until ``predicate()`` is true: re-checked whenever a client gets a frame (bounded).

    ``side``: a task whose failure ends the wait with its error.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if side is not None and side.done() and not side.cancelled() and side.exception():
            raise side.exception()
        left = deadline - loop.time()
        if left <= 0:
            raise TimeoutError(f"timed out after {timeout}s waiting for {what}")
        waiters = [asyncio.ensure_future(c.changed.wait()) for c in events]
        if not waiters:
            raise ValueError("wait_for needs clients whose frames wake it")
        done, rest = await asyncio.wait(
            waiters, timeout=min(left, 1.0), return_when=asyncio.FIRST_COMPLETED
        )
        for w in rest:
            w.cancel()


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, int(round(p / 100 * (len(ordered) - 1)))))
    return ordered[k]
