"""In the table's turn: what the rest of the site hands to the runtime of a table in this
process (``tables.live.runtime``), through the registries the layers below keep (registered
by ``tables.apps``):

- the croupier's clock (``tables.timers.turn_runners``): a table's tick, on the runtime's
  hand, where this process owns the table;
- the REST play API's moves (``tables.operations.move_runners``): in order with the
  runtime's sockets' requests, an action taken on the hand it holds in memory and the next
  version built from it, as a socket's is; a runtime that does not own the table forwards
  the move to its owner. Where no runtime here follows the table, the move's service carries
  it out at once and the runtimes elsewhere read the change;
- a host's controls (``tables.operations.turn_writers``): where this process owns the table,
  carried out by its runtime as a command, its next version shown at once;
- the REST play API's state (``tables.selectors.held.held_runners``): made from the table
  as the owner's runtime holds it, in its turn, instead of loading it and replaying its hand.

A REST view runs on a thread of its own (Django runs a synchronous view off the event loop):
its work is handed to the runtime's loop and the view waits for it there; a view inside a
transaction (an ``Idempotency-Key``'s) does its work itself, in that transaction.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, TypeVar

from asgiref.sync import SyncToAsync
from channels.layers import get_channel_layer
from django.db import transaction

from tables.live.ownership import FORWARD_SECONDS, REQUEST_SECONDS, TOO_SLOW
from tables.live.runtime import TableRuntime
from tables.models import Player
from tables.operations import NOT_IN_TURN
from tables.selectors.held import HeldRead
from tables.services.leases import LeaseLost
from tables.services.live_hand import LiveHand

T = TypeVar("T")


def tick_in_turn(table_id: int, work: Callable[[LiveHand | None], Any]) -> Awaitable[Any] | None:
    """The croupier's tick of ``table_id`` (``tables.timers.turn_runners``): in the turn of
    its runtime here, on its hand, when this process owns the table; nothing at all when
    another process does (its own clock ticks it); None when no socket here follows it."""
    runtime = TableRuntime.following(table_id)
    if runtime is None or not runtime.ready.done():
        return None
    if runtime.epoch is None or runtime.parked:  # parked: stopping, no new hand dealt here
        return _nothing()
    return runtime.tick(work)


async def _nothing() -> None:
    return None


#: Seconds a REST move waits for its runtime beyond the runtime's own limits.
SLACK_SECONDS = 5.0


def move_in_turn(
    table_id: int, user: Any, player: Player, op: str, fields: dict[str, Any]
) -> str | None:
    """The move carried out in the turn of the table's runtime here (the sender's message; it
    raises what the service raised), or None where no runtime here follows the table."""
    runtime = _runtime_here(table_id)
    if runtime is None:
        return None
    return _waited(runtime, runtime.request(user, player, {"op": op}, fields=fields))


def write_in_turn(table_id: int, work: Callable[[], T], name: str) -> T | object:
    """``work`` (a service's change of the table) carried out by the table's runtime here as
    a command (``TableRuntime.carry_out``), where this process owns the table; else
    ``NOT_IN_TURN``: the caller does it at once."""
    runtime = _runtime_here(table_id)
    if runtime is None or not runtime.owner:
        return NOT_IN_TURN
    return _waited(runtime, runtime.carry_out(work, name))


def read_in_turn(table_id: int, read: HeldRead) -> dict[str, Any] | None:
    """``read`` of the table as its runtime here holds it now, in its turn, where this process
    owns the table (None: it does not, or no runtime here follows it)."""
    runtime = _runtime_here(table_id)
    if runtime is None or not runtime.owner:
        return None
    try:
        return _waited(runtime, runtime.held(read))
    except LeaseLost:  # the runtime ended or moved meanwhile: the table is read
        return None


def _waited(runtime: TableRuntime, work: Coroutine[Any, Any, T]) -> T:
    """``work`` on the runtime's loop, waited for here."""
    # Handed over from a context of its own: the view's (asgiref's sync thread waiting here)
    # would send the runtime's work on the shared sync thread to this one, which waits.
    future = contextvars.Context().run(asyncio.run_coroutine_threadsafe, work, runtime.loop)
    try:
        return future.result(REQUEST_SECONDS + FORWARD_SECONDS + SLACK_SECONDS)
    except FutureTimeout:
        future.cancel()
        raise LeaseLost(TOO_SLOW) from None


def _runtime_here(table_id: int) -> TableRuntime | None:
    """The runtime of ``table_id`` on the default channel layer, on an event loop running on
    another thread than this one (a view on the loop's own thread could not wait for it);
    None inside a transaction (the runtime's turn may wait for it: the work is the caller's)
    or on the shared sync thread."""
    if transaction.get_connection().in_atomic_block:
        return None
    if SyncToAsync.deadlock_context.get(False):
        # On asgiref's one shared sync thread (a view called without a request's thread of
        # its own: a test's or a command's ``sync_to_async``): the runtime's database work
        # may need this very thread (SQLite's), so it would wait out its limit.
        return None
    try:
        here = asyncio.get_running_loop()
    except RuntimeError:
        here = None
    layer = get_channel_layer()
    for (loop, runtime_layer, table), runtime in list(TableRuntime.runtimes.items()):
        if table != table_id or runtime_layer is not layer or loop is here:
            continue
        if loop.is_closed() or not loop.is_running() or not runtime.ready.done():
            continue
        if runtime.ready.cancelled() or runtime.ready.exception() is not None:
            continue
        return runtime
    return None
