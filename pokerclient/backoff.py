"""How long a client waits before it opens a dropped socket again: exponential backoff with
jitter, the same rule for every client the project ships (the terminal client and bot kit, the
load tests' and the benchmark's players; the browser's is ``static/js/table.js``).

The n-th retry in a row waits a random time between half and all of ``min(most, first * 2**n)``:
the bound doubles after each failure up to ``most``, and the jitter spreads a crowd that lost
its sockets at one moment (a server restart, a rush shed by the server) over that window, so
they do not all come back at the same instant. Never less than half the bound: a socket the
server shed for being busy does not come straight back. A socket that opened resets it.
"""

from __future__ import annotations

import random


class Backoff:
    """The delays of one socket's reconnects: ``next_delay()`` after each failure, ``reset()``
    once a connection is open again. ``rng``: injected in tests."""

    def __init__(
        self, first: float = 0.5, most: float = 15.0, rng: random.Random | None = None
    ) -> None:
        if not 0 < first <= most:
            raise ValueError(f"backoff needs 0 < first <= most, not first={first}, most={most}")
        self.first, self.most = first, most
        self.rng = rng or random.Random()
        self.failures = 0

    def bound(self) -> float:
        """The longest the next wait may be (before the jitter)."""
        longest: float = min(self.most, self.first * 2 ** min(self.failures, 64))
        return longest

    def next_delay(self) -> float:
        """Seconds to wait before the next try; each call counts one more failure."""
        bound = self.bound()
        self.failures += 1
        return self.rng.uniform(bound / 2, bound)

    def reset(self) -> None:
        self.failures = 0
