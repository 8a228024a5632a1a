"""Who runs a live table: the part of ``TableRuntime`` (``tables.live.runtime``) that takes and
keeps its table's lease, listens to its group on the channel layer (changes, chat, followers,
forwarded requests and their replies), forwards its sockets' requests to the owner when
another process runs the table, hands the table over when the process stops, and runs each
event loop's clock (leases renewed, expired ones taken, changes the channel layer lost caught up).

The lease itself is ``tables.services.leases``; failover as a whole: docs/architecture/one-click.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from channels.layers import BaseChannelLayer, InMemoryChannelLayer
from django.db import DatabaseError

from tables.db.threads import read_async, write_async
from tables.live.database_reach import DatabaseReach
from tables.live.protocol import SERVER_BUSY, SERVER_TROUBLE
from tables.models import Player
from tables.selectors.players import player_by_id
from tables.selectors.table_rows import table_versions
from tables.services.errors import ServiceError
from tables.services.events import TABLE_OWNED, publish, table_changed_event
from tables.services.leases import (
    LEASE_MARGIN_SECONDS,
    LEASE_SECONDS,
    MOVING,
    PROCESS,
    LeaseLost,
    lease_owner,
    lease_owners,
    lease_release,
    lease_take,
    leases_renew,
)

if TYPE_CHECKING:
    import itertools
    from collections import Counter, deque

    from tables.selectors.snapshot import Snapshot
    from tables.services.live_hand import LiveHand

log = logging.getLogger("tables.live.runtime")  # one logger for the runtime and its lease
T = TypeVar("T")

#: Seconds between two passes of a loop's clock (leases, catch-up).
KEEP_UP_SECONDS = 1.0
#: Seconds a forwarded request waits for the owner's answer.
FORWARD_SECONDS = 5.0
#: Seconds an owner goes on putting its changes on the layer after a process following its
#: table last said so (each follows on every pass of its clock).
FOLLOWED_SECONDS = 3 * KEEP_UP_SECONDS
#: Seconds a socket's request waits for its turn and its result before it is answered.
REQUEST_SECONDS = 30.0
TOO_SLOW = "The table did not answer in time: it may not have been done, try again."
#: Seconds between two looks of a drain at the tables still in a hand.
DRAIN_LOOK_SECONDS = 0.1

#: A runtime's key: (event loop, channel layer, table id).
RuntimeKey = tuple[asyncio.AbstractEventLoop, BaseChannelLayer | None, int]
#: A runtime's queued work and the future its caller waits on.
Queued = tuple[Callable[[], Awaitable[Any]], asyncio.Future[Any]]


class TableOwnership:
    """The lease, forwarding, stopping and clock half of ``TableRuntime``: the table's clock
    (``tick``) and the loop's."""

    #: (event loop, channel layer, table id) -> runtime (``TableRuntime.runtimes``)
    runtimes: ClassVar[dict[RuntimeKey, Any]]
    #: event loop -> its clock (while it has runtimes)
    clocks: ClassVar[dict[asyncio.AbstractEventLoop, asyncio.Task[None]]] = {}
    #: The process is stopping (``drain``): it takes no lease and no new socket.
    draining: ClassVar[bool] = False
    #: An owner's: until when (monotonic) a process following its table said it follows it.
    followed_until = 0.0

    if TYPE_CHECKING:  # the runtime's own (``TableRuntime``)
        forwarded_seconds: ClassVar[deque[float]]
        totals: ClassVar[Counter[str]]
        table_id: int
        layer: BaseChannelLayer
        loop: asyncio.AbstractEventLoop
        group: str
        channel: str
        epoch: int | None
        held_until: float
        owner_channel: str
        snapshot: Snapshot | None
        live: LiveHand | None
        sockets: set[Any]  # the runtime's sockets (``RuntimeSocket``)
        key: RuntimeKey
        ready: asyncio.Future[None]
        worker: asyncio.Task[None] | None
        queue: asyncio.Queue[Queued]
        forwarded: dict[int, asyncio.Future[dict[str, Any]]]
        requesters: dict[int, Player]
        forwards: int
        ids: itertools.count[int]
        awaited: int
        version: int

        @property
        def shown(self) -> int: ...
        def followed(self) -> bool: ...
        def changed(self, version: int, acted: list[Any] | None = None) -> None: ...
        async def call(self, work: Callable[[], Awaitable[T]]) -> T: ...
        async def _refresh(self) -> None: ...
        def reveal_if_due(self) -> None: ...
        async def _write(
            self, epoch: int, request: Callable[[], Any], live: Any, name: str
        ) -> Any: ...  # a ``Written``
        async def _publish_and_show(self, written: Any) -> None: ...
        async def _command(self, user: Any, player: Player, *request: Any) -> str: ...

    # --- followers -------------------------------------------------------------------------
    # An owner's own change goes on the channel layer only while another process follows the
    # table (``followed``); that process says so to the owner on each pass of its clock
    # (``_follow``). A change published while nobody had said so yet is caught up: the owner
    # publishes its version on hearing a new follower, and each clock's catch-up reads what
    # no message brought.
    async def _follow(self) -> None:
        """A follower tells its table's owner that it follows (nothing else may tell it)."""
        if self.epoch is None and self.owner_channel and self.channel:
            with contextlib.suppress(Exception):  # the next pass says it again
                await self.layer.send(
                    self.owner_channel, {"type": "runtime.follow", "table_id": self.table_id}
                )

    async def _heard_follower(self) -> None:
        """A process follows this table: its changes go on the layer; a new follower is told
        the version now, which it may have missed."""
        new = not self.followed()
        self.followed_until = time.monotonic() + FOLLOWED_SECONDS
        if new and self.epoch is not None and self.version:
            await self.layer.group_send(
                self.group, table_changed_event(self.table_id, self.version)
            )

    # --- the channel layer -----------------------------------------------------------------
    async def _listen(self) -> None:
        try:
            self.channel = await self.layer.new_channel()
            await self.layer.group_add(self.group, self.channel)
            if isinstance(self.layer, InMemoryChannelLayer):
                await self._take()  # one process: always the owner
            else:
                with contextlib.suppress(DatabaseError):
                    await self._take_if_free()
            self.ready.set_result(None)
            while True:
                event = await self.layer.receive(self.channel)
                kind = event.get("type")
                if kind == "table.changed":
                    self.changed(int(event.get("version", 0)), event.get("acted"))
                elif kind == "table.chat":
                    for consumer in list(self.sockets):
                        try:
                            await consumer.table_chat(event)
                        except Exception:
                            log.exception("table %s: chat line not sent", self.group)
                elif kind == "runtime.follow":
                    await self._heard_follower()
                elif kind == "runtime.request":
                    asyncio.ensure_future(self._serve_forwarded(event))
                elif kind == "runtime.reply":
                    future = self.forwarded.get(int(event.get("id") or 0))
                    if future is not None and not future.done():
                        future.set_result(event)
        except asyncio.CancelledError:
            if not self.ready.done():
                self.ready.cancel()
            if self.channel:
                with contextlib.suppress(Exception):
                    await self.layer.group_discard(self.group, self.channel)
            raise
        except Exception as error:
            log.warning("%s: channel layer failed (%r); closing its sockets", self.group, error)
            if not self.ready.done():
                self.ready.set_exception(error)
            if self.runtimes.get(self.key) is self:
                del self.runtimes[self.key]
            if self.worker is not None:
                self.worker.cancel()
            for consumer in list(self.sockets):
                with contextlib.suppress(Exception):
                    await consumer.close(code=SERVER_TROUBLE)

    # --- forwarding ------------------------------------------------------------------------
    async def _take_if_free(self) -> bool:
        return await self._follow_or_take(await read_async(lease_owner)(self.table_id))

    async def _follow_or_take(self, held: tuple[str, str] | None) -> bool:
        """Follow the process holding the lease (``held``: its name and channel), else take
        the lease; whether it took it."""
        if held is not None and held[0] != PROCESS:
            self.owner_channel = held[1]
            await self._follow()
            return False
        return await self._take()

    async def _take(self) -> bool:
        if self.draining:
            return False
        epoch = await write_async(self.table_id, lease_take)(self.table_id, PROCESS, self.channel)
        if epoch is None:
            return False
        self.owner_channel = ""
        became = self.epoch is None
        self.epoch, self.held_until = epoch, held_until()
        if became:
            self.totals["takes"] += 1
            # the timers here left the table to the process that held it: its clock now
            await publish({"type": TABLE_OWNED, "table_id": self.table_id}, others=False)
        if became and self.snapshot is not None:  # what it showed may be behind the log
            log.info(
                "table %s: owned here (epoch %s)",
                self.table_id,
                epoch,
                extra={"table": self.table_id},
            )
            self.queue.put_nowait((self._reload, self.loop.create_future()))
        return True

    async def _reload(self) -> None:
        """Owner from now: the table as the database log has it."""
        self.snapshot = None
        await self._refresh()

    async def _forward(self, player: Player, data: dict[str, Any], fields: Any = None) -> str:
        if not self.owner_channel:
            raise LeaseLost(MOVING)
        request_id = next(self.ids)
        future: asyncio.Future[dict[str, Any]] = self.loop.create_future()
        self.forwarded[request_id] = future
        self.forwards += 1
        self.totals["forwards"] += 1
        sent_at = time.monotonic()
        try:
            await self.layer.send(
                self.owner_channel,
                {
                    "type": "runtime.request",
                    "id": request_id,
                    "reply_to": self.channel,
                    "player_id": player.pk,
                    "data": data,
                    "fields": fields,
                },
            )
            reply = await asyncio.wait_for(future, FORWARD_SECONDS)
            self.forwarded_seconds.append(time.monotonic() - sent_at)
        except TimeoutError:
            self.owner_channel = ""  # look for the owner again
            raise LeaseLost(MOVING) from None
        finally:
            self.forwarded.pop(request_id, None)
        if reply.get("refused") is not None:
            error = ServiceError(reply["refused"])
            error.code = reply.get("code") or "refused"
            raise error
        return str(reply.get("message", ""))

    async def _serve_forwarded(self, message: dict[str, Any]) -> None:
        reply: dict[str, Any] = {"type": "runtime.reply", "id": message.get("id")}
        try:
            player = await self._requester(message.get("player_id"))
            request = message.get("data") or {}, None, message.get("fields")
            reply["message"] = await self.call(lambda: self._command(player.user, player, *request))
        except Exception as error:  # every refusal goes back to the sender's process
            reply["refused"] = str(error) or "That request failed: nothing was done."
            reply["code"] = getattr(error, "code", None)
        with contextlib.suppress(Exception):
            await self.layer.send(str(message.get("reply_to")), reply)

    async def _requester(self, player_id: object) -> Player:
        """The player a forwarded request is from: read once while this runtime lives, as a
        socket here keeps its player from its connection on."""
        player = self.requesters.get(player_id) if isinstance(player_id, int) else None
        if player is None:
            player = await read_async(player_by_id)(player_id)
            if player is None:
                raise ServiceError("Log in to play.")
            self.requesters[player.pk] = player
        return player

    # --- stopping ---------------------------------------------------------------------------
    @classmethod
    async def drain(cls, wait_seconds: float, socket_held: bool = False) -> None:
        """The process is stopping: each table of this loop is handed over between hands (its
        lease given up, its sockets closed with ``SERVER_BUSY`` so that they reconnect to
        another process, which takes the table); one still in a hand after ``wait_seconds``
        is handed over as it is (the next owner goes on from the database log). Returns once
        no runtime is left here; from the start no lease is taken, no socket joins and no
        table of this process is dealt a new hand (``parked``).

        ``socket_held``: the listening socket outlives the process (``poker@.socket``): the
        players reconnect to the same port and wait in its backlog for the next process, so
        every socket is kept until no table here is in a hand (or ``wait_seconds``), then all
        go at once, rather than wait past nginx's patience (and go to another process that
        the same deploy restarts later: a second reconnect)."""
        cls.draining = True
        loop = asyncio.get_running_loop()
        until = loop.time() + wait_seconds
        if socket_held:
            while loop.time() < until and any(
                r.epoch is not None and r.mid_hand
                for (rl, _, _), r in list(cls.runtimes.items())
                if rl is loop
            ):
                await asyncio.sleep(DRAIN_LOOK_SECONDS)
            until = loop.time()
        gone: set[Any] = set()  # handed over (each ends once its sockets are closed)
        while here := [r for (rl, _, _), r in list(cls.runtimes.items()) if rl is loop]:
            mid_hand = loop.time() >= until
            # Every table's turn at once, then all their players: none waits on another's write.
            todo = [r for r in here if r not in gone]
            going = await asyncio.gather(*(runtime._going(mid_hand) for runtime in todo))
            gone.update(r for r, go in zip(todo, going, strict=True) if go)
            leaving = [c for r in here if r in gone for c in list(r.sockets)]
            await asyncio.gather(
                *(c.close(code=SERVER_BUSY) for c in leaving), return_exceptions=True
            )
            await asyncio.sleep(DRAIN_LOOK_SECONDS)

    async def _going(self, mid_hand: bool) -> bool:  # _hand_over, in the table's turn
        try:
            return await self.call(functools.partial(self._hand_over, mid_hand))
        except LeaseLost:  # the runtime ended meanwhile
            return True

    @property
    def mid_hand(self) -> bool:
        """A hand is being played at the table (as this runtime last showed it)."""
        return self.snapshot is not None and self.snapshot.running

    @property
    def parked(self) -> bool:
        """Stopping, between hands: no new hand is dealt here (the next owner deals it)."""
        return self.draining and not self.mid_hand

    async def _hand_over(self, mid_hand: bool) -> bool:
        """In the table's turn while draining: give up its lease unless a hand is under way
        (or ``mid_hand`` too); whether its sockets may go."""
        if self.epoch is None:
            return True
        if not mid_hand and self.mid_hand:
            return False
        self.epoch = None
        with contextlib.suppress(DatabaseError):  # else it expires on its own
            await write_async(self.table_id, lease_release)([self.table_id], PROCESS)
        log.info("table %s: handed over (draining)", self.table_id, extra={"table": self.table_id})
        return True

    @classmethod
    async def let_go(cls) -> None:
        """The process is cut off from the database (``DatabaseReach.cut_off``; its owners
        have stopped acting): every table of this loop goes, its ownership given up (the
        lease expires: another process takes it) and its sockets closed with
        ``SERVER_TROUBLE``, so that their clients reconnect, through nginx, to a process
        that reaches the database (this one refuses their handshakes meanwhile)."""
        loop = asyncio.get_running_loop()
        for (rl, _, _), runtime in list(cls.runtimes.items()):
            if rl is not loop:
                continue
            if runtime.epoch is not None:
                runtime.epoch = None
                log.warning(
                    "table %s: database unreachable, no longer owned here",
                    runtime.table_id,
                    extra={"table": runtime.table_id},
                )
            for consumer in list(runtime.sockets):
                with contextlib.suppress(Exception):
                    await consumer.close(code=SERVER_TROUBLE)

    # --- the table's clock ------------------------------------------------------------------
    async def tick(self, work: Callable[[LiveHand | None], Any], name: str = "clock") -> Any:
        """The table's clock (``work``: the croupier's tick, on the write thread, fenced by
        this process's lease; or a run-out's odds, ``name``), in the table's turn, given the
        runtime's hand in memory where it holds the table as it is (a bot or a timeout acts on
        it in place, and the next version is built from it); the new version shown to the
        sockets. An owner that lost its lease does nothing (it follows, or takes the table
        again)."""

        async def ticked() -> Any:
            epoch = self.epoch
            if epoch is None:  # lost since
                return None
            current = self.snapshot is not None and self.snapshot.version == self.version
            live = self.live if current else None
            try:
                written = await self._write(epoch, functools.partial(work, live), live, name)
            except LeaseLost:
                log.warning(
                    "table %s: lease lost, no longer owned here",
                    self.table_id,
                    extra={"table": self.table_id},
                )
                self.epoch = None
                return None
            await self._publish_and_show(written)
            self.reveal_if_due()
            return written.result

        return await self.call(ticked)

    # --- the loop's clock: leases and catch-up ---------------------------------------------
    @classmethod
    def _clock_running(cls) -> None:
        loop = asyncio.get_running_loop()
        task = cls.clocks.get(loop)
        if task is None or task.done():
            cls.clocks[loop] = loop.create_task(cls._keep_up_while_running())

    @classmethod
    async def _keep_up_while_running(cls) -> None:
        loop = asyncio.get_running_loop()
        try:
            while any(key[0] is loop for key in cls.runtimes):
                await asyncio.sleep(KEEP_UP_SECONDS)
                try:
                    await cls.keep_up()
                    DatabaseReach.answered()
                except DatabaseError:
                    log.warning("runtimes: database unreachable, leases not renewed")
                    DatabaseReach.failed()
                    if DatabaseReach.cut_off():
                        await cls.let_go()
                except Exception:
                    log.exception("runtimes: keeping up failed")
        finally:
            if cls.clocks.get(loop) is asyncio.current_task():
                del cls.clocks[loop]

    @classmethod
    async def keep_up(cls) -> None:
        """One pass: renew the owners' leases (an owner whose lease is gone stops), let the
        followers take expired ones, and catch up with changes the layer lost."""
        loop = asyncio.get_running_loop()
        here = [r for (rl, _, _), r in list(cls.runtimes.items()) if rl is loop and r.ready.done()]
        for runtime in here:  # a timed hole-card broadcast's cards come on time (issue 53)
            runtime.reveal_if_due()
        owned = [r for r in here if r.epoch is not None]
        if owned:
            held = await write_async(0, leases_renew)([r.table_id for r in owned], PROCESS)
            for runtime in owned:
                if runtime.table_id in held:
                    runtime.held_until = held_until()
                else:
                    log.warning(
                        "table %s: lease lost, no longer owned here",
                        runtime.table_id,
                        extra={"table": runtime.table_id},
                    )
                    runtime.epoch = None
        # a follower takes a lease run out, else says it follows (the leases read at once)
        followers = [r for r in here if r.epoch is None and r.sockets]
        if followers:
            with contextlib.suppress(DatabaseError):
                owners = await read_async(lease_owners)([r.table_id for r in followers])
                for runtime in followers:
                    with contextlib.suppress(DatabaseError):
                        await runtime._follow_or_take(owners.get(runtime.table_id))
        if here:  # in one process too: another process may write the database (a command)
            await cls.catch_up(here)

    @classmethod
    async def catch_up(cls, runtimes: list[Any]) -> int:
        """Hand each runtime whose sockets show less than the database has, and showed less
        already at the previous pass, the change it missed: one it did not hear of, or heard
        of but could not read (a message merely on its way is not handled twice). Returns how
        many were handed one."""
        versions = await read_async(table_versions)([r.table_id for r in runtimes])
        lost = 0
        for runtime in runtimes:
            current = versions.get(runtime.table_id, 0)
            if current <= runtime.shown:
                runtime.awaited = 0
            elif runtime.awaited and runtime.shown < runtime.awaited:
                log.info("%s: caught up with version %s", runtime.group, current)
                runtime.awaited = 0
                runtime.version = max(runtime.version, current)
                runtime.queue.put_nowait((runtime._refresh, runtime.loop.create_future()))
                lost += 1
            else:
                runtime.awaited = current
        return lost


def held_until() -> float:
    return time.monotonic() + LEASE_SECONDS - LEASE_MARGIN_SECONDS
