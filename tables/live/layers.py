"""The channel layer of the embedded set-up (one server process, no Redis).

``pokersite.settings`` names ``InMemoryChannelLayer`` here when ``REDIS_URL`` is unset.
"""

from __future__ import annotations

import time

from channels.layers import InMemoryChannelLayer as ChannelsInMemoryChannelLayer


class InMemoryChannelLayer(ChannelsInMemoryChannelLayer):
    """The in-process channel layer (one server process), with its expiry sweep at most once
    a second: channels' own sweeps every channel and group on every send and receive, which
    with hundreds of sockets costs more than delivering the message (py-spy: 8.7 % of the
    event loop at 100 tables). Messages expire after a minute, so a second changes nothing.

    Overrides a library internal: ``pokersite.library_overrides`` (CHANNELS_CLEAN_EXPIRED).
    """

    sweep_every = 1.0
    _swept_at = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._swept_at >= self.sweep_every:
            self._swept_at = now
            super()._clean_expired()  # type: ignore[misc]  # private: not in the stubs
