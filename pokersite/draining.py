"""Stopping a server process without stopping its games: SIGTERM (what systemd sends on
``systemctl stop`` or ``restart``) drains the process, then it exits.

Draining (``TableRuntime.drain``): the process stops listening (new connections are refused,
so nginx sends them to the other processes; on a socket systemd holds, ``poker@.socket``, they
wait for the next process instead, and the tables' sockets all go at the end, see
``TableRuntime.drain``), ``/readyz`` answers 503 on a connection still
open, no new table socket joins (one that got in is refused with 4013, so its client
reconnects), and each table this process runs is handed over between hands: its lease given
up and its sockets closed with 4013, so that they reconnect to another process, which takes
the table. A hand still running after ``POKER_DRAIN_SECONDS`` is handed over as it is (the
next owner carries it on from the database). Then daphne stops and the process ends at once
(``_exit_now``). A second SIGTERM stops it at once; systemd's ``TimeoutStopSec``
(``deploy/systemd/poker@.service``) must be longer than the drain.

Daphne's reactor (Twisted's, on asyncio) installs its own SIGTERM handler, which stops at once,
when it starts running; this one replaces it just after (``callWhenRunning``). Nothing happens
outside daphne (tests, ``manage.py``): the reactor never runs there.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from types import FrameType
from typing import Any

from django.conf import settings
from twisted.internet import tcp

from tables.live.runtime import TableRuntime

log = logging.getLogger(__name__)


def drain_on_sigterm() -> None:
    """Under daphne: SIGTERM drains the process, then stops it (installed once it runs)."""
    reactor = sys.modules.get("twisted.internet.reactor")
    if reactor is not None:
        reactor.callWhenRunning(_install, reactor)


def _install(reactor: Any) -> None:
    def on_sigterm(signum: int, frame: FrameType | None) -> None:
        reactor.callFromThread(_sigterm, reactor)

    signal.signal(signal.SIGTERM, on_sigterm)


def _sigterm(reactor: Any) -> None:
    """On the event loop: the first SIGTERM starts the drain, a second one stops now."""
    if TableRuntime.draining:
        log.warning("SIGTERM again: stopping now")
        reactor.stop()
        return
    seconds = settings.POKER_DRAIN_SECONDS
    log.warning("SIGTERM: draining (tables handed over between hands, at most %ss)", seconds)
    held = _stop_listening(reactor)
    drained = asyncio.ensure_future(TableRuntime.drain(seconds, socket_held=held))
    reactor.addSystemEventTrigger("after", "shutdown", _exit_now)

    def stop(task: asyncio.Future[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("draining failed", exc_info=task.exception())
        else:
            log.warning("drained: stopping")
        if reactor.running:
            reactor.stop()

    drained.add_done_callback(stop)


def _exit_now() -> None:
    """Once daphne has stopped after a drain: every table is handed over and every socket
    closed, so the interpreter's own ending (joining the database threads, freeing the heap)
    serves nothing and only delays the next process on the same socket, whose players wait
    in its backlog meanwhile."""
    log.warning("stopped: exiting")
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def _stop_listening(reactor: Any) -> bool:
    """No new connection is taken from now. On a port of its own the process closes it: new
    connections are refused and nginx sends them to another process at once (its
    ``proxy_next_upstream error``), the reconnecting sockets of the tables handed over too.
    On a socket it was handed (``daphne --fd``: systemd's ``poker@.socket``) the socket stays
    open in its holder, and new connections wait in its backlog for the next process. Returns
    whether a socket was held (then the drain lets its players go all at once, at the end).
    Connections already open (a socket, an HTTP keep-alive) go on."""
    held = False
    readers: list[Any] = reactor.getReaders()
    for reader in readers:
        if isinstance(reader, tcp.Port):  # a listening socket (TCP or Unix)
            port: Any = reader  # Twisted's method is untyped
            # Twisted's mark of an adopted socket: it is closed here, never shut down.
            held = held or port._shouldShutdown is False
            port.stopListening()
    return held
