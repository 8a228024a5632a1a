"""How many frames a socket may send: a token bucket, and the flood that closes it.

Every frame a socket sends, binary ones included, takes a token (``RATE_BURST`` at most,
refilled at ``RATE_PER_SECOND``); a frame without one is refused, and ``FLOOD_CLOSE_AFTER``
refusals within ``FLOOD_WINDOW_SECONDS`` close the socket (``tables.live.consumer``).
"""

from __future__ import annotations

import time

RATE_PER_SECOND = 5.0
RATE_BURST = 10
#: Frames refused for the rate within ``FLOOD_WINDOW_SECONDS`` that close the socket: a
#: steady flood above the rate is closed too, though a token refills now and then.
FLOOD_CLOSE_AFTER = 30
FLOOD_WINDOW_SECONDS = 10.0


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
