"""What a socket is sent after a change: only what differs from what it already holds.

Each socket keeps what it was last sent (``SocketFrames.held``): a browser's ``PageParts``
(``tables.presenters.render``: each seat, region and log line as HTML), a ``frames=diff``
JSON socket's ``JsonState``. The next frame is made from what it holds and the table's new
version for its viewer:

- a browser gets the seats that changed (or the whole seats region when its own element
  changed: a new hand, street, or the face-up mark), each without its cards when the page
  shows them already (htmx's ``hx-preserve`` keeps them); the pots alone when nothing else
  changed on the board, the viewer's stack alone when nothing else changed in their
  controls; each other region that changed; the log's new lines appended (or the whole log
  when it is not the same hand's log grown);
- a ``frames=diff`` JSON socket gets ``{"type": "update", "version", "base", "patch"}``, a
  patch (``tables.live.patch``: JSON Patch spelt short) from its ``base`` version to
  ``version``;
- a socket that holds nothing (its first frame, a ``sync`` request, any doubt) gets the whole
  state; a JSON socket of the protocol's first frames (no ``frames=diff``) always does.

What a socket is sent depends only on the version and its viewer, never on the socket: the
screen, its parts and its JSON state are made once per version and viewer (kept in the
snapshot's ``memo``), and an update once per version for all the sockets that held the same
thing (every spectator's, once). Hidden cards: every part comes from the viewer's own screen
(``tables.presenters.screen.table_screen``: the spectator's view, with the viewer's own seat
from the viewer's filtered view), so a frame holds nothing its viewer's whole screen would
not.
"""

from __future__ import annotations

from typing import Any

import orjson

from tables.live.patch import diff
from tables.live.protocol import STATE_ME_FIELDS, render_viewer
from tables.presenters.models import Screen
from tables.presenters.play_state import play_state
from tables.presenters.render import PageParts, log_lines_oob_html, page_parts
from tables.presenters.screen import table_screen
from tables.selectors.snapshot import Snapshot


class JsonState:
    """One viewer's state at one version as a ``frames=diff`` socket holds it (``data``:
    the whole frame less its ``type`` and ``version``). Compared by identity."""

    __slots__ = ("data", "version", "_text")

    def __init__(self, version: int, data: dict[str, Any]) -> None:
        self.version, self.data, self._text = version, data, ""

    @property
    def text(self) -> str:
        """The whole state frame."""
        if not self._text:
            self._text = orjson.dumps(
                {"type": "state", "version": self.version, **self.data}
            ).decode()
        return self._text


def json_state(snapshot: Snapshot, screen: Screen) -> JsonState:
    """The viewer's JSON state: the play state and the engine's view (no HTML)."""
    me = screen.viewer
    view = snapshot.view_dict(screen.viewer_index) if snapshot.hand is not None else None
    return JsonState(
        snapshot.version,
        {
            "hand": screen.hand_id,
            "running": screen.running,
            "state": play_state(snapshot, screen),
            "view": view,
            "me": {k: getattr(me, k) if me is not None else None for k in STATE_ME_FIELDS},
        },
    )


def page_update(held: PageParts | None, now: PageParts) -> str:
    """The oob HTML that turns a page showing ``held`` into one showing ``now`` ("" when
    nothing changed; everything when it holds nothing)."""
    if held is None:
        return "".join((now.seats_region(), now.board, now.actions, now.controls, now.log_region()))
    out = []
    if held.seats_frame != now.seats_frame or len(held.seats) != len(now.seats):
        out.append(now.seats_region())
    else:
        panels = held.screen.seats.seats
        out.extend(
            now.seat(number, panels[number])
            for number, (old, new) in enumerate(zip(held.seats, now.seats, strict=True))
            if old != new
        )
    if held.board != now.board:
        out.append(now.pots() if held.board_frame == now.board_frame else now.board)
    if held.actions != now.actions:
        out.append(now.actions)
    if held.controls != now.controls:
        out.append(now.my_stack() if held.controls_frame == now.controls_frame else now.controls)
    grown = len(now.log_lines) - len(held.log_lines)
    if held.log_head != now.log_head or held.log_lines != now.log_lines[: len(held.log_lines)]:
        out.append(now.log_region())
    elif grown and now.log_head[0] is not None:  # a hand's log: new lines go at its end
        out.append(log_lines_oob_html(now.log_lines[len(held.log_lines) :]))
    elif grown:
        out.append(now.log_region())
    return "".join(out)


def json_update(held: JsonState, now: JsonState) -> str:
    """The ``update`` frame from ``held`` to ``now``."""
    return orjson.dumps(
        {
            "type": "update",
            "version": now.version,
            "base": held.version,
            "patch": diff(held.data, now.data),
        }
    ).decode()


class SocketFrames:
    """What one socket holds, and the frame that brings it to a new version.

    ``kind``: ``"page"`` (a browser: htmx oob HTML), ``"diff"`` (a ``?state=json&frames=diff``
    socket) or ``"json"`` (``?state=json``: the whole state with its HTML every time, the
    protocol's first frames, for the clients written before the updates)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.held: Any = None

    def forget(self) -> None:
        """Send the whole state next (a ``sync`` request, or any doubt)."""
        self.held = None

    def next_frame(
        self, snapshot: Snapshot, player: Any | None, bankroll: int | None, left_with: int = 0
    ) -> str:
        """The frame for ``snapshot`` to this socket's viewer ("" when it holds it all)."""
        if self.kind == "json":
            return render_viewer(snapshot, player, bankroll, True, left_with=left_with)[2]
        memo = snapshot.memo
        viewer = (self.kind, player.pk if player is not None else None, bankroll, left_with)
        now: PageParts | JsonState | None = memo.get(viewer)
        if now is None:
            screen = table_screen(snapshot, player, bankroll, left_with=left_with)
            now = page_parts(screen) if self.kind == "page" else json_state(snapshot, screen)
            memo[viewer] = now
        held, self.held = self.held, now
        if held is now:
            return ""
        if held is None and self.kind == "diff":
            assert isinstance(now, JsonState)  # a diff socket's memo holds its JSON states
            return now.text
        # Sockets that held the same thing share its update (every spectator's, once).
        key = ("update", held, now)
        frame = memo.get(key)
        if frame is None:
            # A page socket holds page parts, the others JSON states (``held`` too).
            frame = memo[key] = (
                page_update(held, now) if isinstance(now, PageParts) else json_update(held, now)
            )
        return frame
