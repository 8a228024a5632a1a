"""Logged-out visitors' table sockets (spectators), counted per address in this process.

A spectator watches a public table live with the view of anyone not dealt in (no hole card
but those shown): no player, no bankroll, no request but ``sync``. With no user to count
under, its sockets are counted under its address (``tables.ratelimit.address_key``: IPv4, or
the IPv6 /64): ``POKER_SPECTATOR_SOCKETS_PER_ADDRESS`` per server process (nginx sends a
table's sockets to one process), more are closed with ``TOO_MANY_SOCKETS``.
"""

from __future__ import annotations

import logging
from collections import Counter

from django.conf import settings

from tables.ratelimit import address_key

log = logging.getLogger(__name__)

_open: Counter[str] = Counter()


def _address(client: object) -> str:
    """The counting key of an ASGI scope's ``client`` (``[host, port]``; "unknown" when the
    server was given none: all such sockets share one count)."""
    host = client[0] if isinstance(client, list | tuple) and client else None
    return address_key(host if isinstance(host, str) else None) or "unknown"


def spectator_admit(client: object) -> str | None:
    """Count one more spectator's socket of the ASGI scope's ``client``: the address it is
    counted under, or None (not counted) past the limit."""
    address = _address(client)
    if _open[address] >= settings.POKER_SPECTATOR_SOCKETS_PER_ADDRESS:
        log.info("address %s: too many spectator sockets", address)
        return None
    _open[address] += 1
    return address


def spectator_release(address: str) -> None:
    """A counted socket of ``address`` ended."""
    _open[address] -= 1
    if _open[address] <= 0:
        del _open[address]
