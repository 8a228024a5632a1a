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
  ``version`` (its states and their updates: ``tables.live.json_updates``);
- a socket that holds nothing (its first frame, a ``sync`` request, any doubt) gets the whole
  state; a JSON socket of the protocol's first frames (no ``frames=diff``) always does.

What a socket is sent depends only on the version and its viewer, never on the socket: a
page's screen and parts, a JSON socket's state, are made once per version and viewer (kept in
the snapshot's ``memo``), and an update once per version for all the sockets that held the
same thing (every spectator's, once). Hidden cards: every part comes from the spectator's
screen and the viewer's own parts of theirs (``tables.presenters.screen.viewer_parts``: their
seat from their filtered view), so a frame holds nothing its viewer's whole screen would not;
a JSON state is made from those parts without the whole screen (which is for a page's HTML).
A seated player's own parts are not made again where every input of them is the same as for
the state their socket holds (``tables.presenters.own_signature``: about half of their
versions, where another player acted): the new state takes the very same ``own`` dict, and
its update says nothing of them; or the same but what they may tick in advance (after a bet
or a new street) and, on their turn and after it, their legal actions, made again alone.
A page without a seat of a hand broadcast with its players' agreement (issue 53) also
depends on how many streets' hole cards its delay shows by now
(``tables.presenters.broadcast``): part of the viewer's key, so spectators still share.
"""

from __future__ import annotations

import functools
import time
from datetime import datetime
from typing import Any

import orjson
from django.utils import timezone

from tables.db.threads import work_cpu
from tables.live.json_updates import JsonState, SharedJson, json_update
from tables.live.patch import MISSING
from tables.live.protocol import STATE_ME_FIELDS
from tables.presenters.broadcast import broadcast_reveal, broadcast_view_seats
from tables.presenters.models import NO_NOTES, NoteMarks, Screen, Viewer
from tables.presenters.own_signature import (
    OwnSignature,
    own_legal,
    own_pre_actions,
    own_signature,
)
from tables.presenters.play_state import play_state, viewer_members
from tables.presenters.render import PageParts, page_parts, page_update, render_regions
from tables.presenters.screen import ViewerParts, table_screen, viewer_parts, viewer_screen
from tables.selectors.snapshot import Snapshot

#: The own parts a socket's reused own parts take anew (``own_pre_actions``, ``own_legal``).
PRE_ACTIONS = "/state/pre_actions"
LEGAL, VIEW_LEGAL = "/state/legal", "/view/legal"


def json_state(
    snapshot: Snapshot, parts: ViewerParts, signature: OwnSignature | None = None
) -> JsonState:
    """The JSON state of the viewer of ``parts`` (``tables.presenters.screen.viewer_parts``):
    the play state and the engine's view (no HTML), as the version's shared state and what
    only this viewer sees, made from their parts without their whole screen (``signature``:
    their inputs', ``JsonState.signature``)."""
    shared, _ = _shared_json(snapshot)
    if parts.viewer is None and not parts.panels:  # a spectator's is the shared state
        return JsonState(shared, {})
    members, own_seats = viewer_members(snapshot, parts)
    own = {f"/state/{path}": value for path, value in members.items()}
    own.update((f"/state/seats/{number}", seat) for number, seat in own_seats.items())
    index = parts.index
    if parts.shared.board.hand_id is not None:  # the view is of the hand on screen (none: none)
        view = snapshot.view_own(index)
        own.update((f"/view/{key}", value) for key, value in view.items() if key != "seat")
        own.update((f"/view/log/{n}", line) for n, line in snapshot.view_own_lines(index).items())
        if index is not None:
            own[f"/view/seats/{index}"] = view["seat"]
        else:  # a viewer without a seat: the hole-card broadcast's seats in the view too
            own.update(
                (f"/view/seats/{n}", seat)
                for n, seat in broadcast_view_seats(snapshot, parts.panels).items()
            )
    own["/me"] = state_me(parts.viewer)
    return JsonState(shared, own, signature)


@functools.lru_cache(maxsize=4096)
def state_me(me: Viewer | None) -> dict[str, Any]:
    """A frame's ``me``: the very same dict while the viewer's facts stay the same (an
    update's diff passes it over); nothing may change it."""
    return {k: getattr(me, k) if me is not None else None for k in STATE_ME_FIELDS}


def state_json(
    screen: Screen, view: dict[str, Any] | None, html: str, state: dict[str, Any]
) -> str:
    """The ``?state=json`` frame: what the viewer may see, as data (``state``: the play
    state; ``view``: the engine's view for this viewer as JSON data, None without a hand) and
    as the browser's HTML."""
    # orjson: this frame goes to every JSON socket on every change (the stdlib's encoder was
    # a tenth of a render).
    return orjson.dumps(
        {
            "type": "state",
            "state": state,
            "version": screen.version,
            "hand": screen.hand_id,
            "running": screen.running,
            "view": view,
            "me": state_me(screen.viewer),
            "html": html,
        }
    ).decode()


def render_viewer(
    snapshot: Snapshot,
    player: Any | None,
    bankroll: int | None = None,
    json_state: bool = False,
    now: datetime | None = None,
    left_with: int = 0,
    reseat_at_ms: int | None = None,
    revealed: int = 0,
) -> tuple[int, str, str]:
    """(version, regions as oob HTML, JSON state with that HTML or "") of ``snapshot`` for
    one viewer (``bankroll``, ``left_with``, ``reseat_at_ms``: theirs if they have no seat here, see
    ``table_screen``; ``now``: when the play state's clock counts its seconds left from,
    default now; ``revealed``: a viewer without a seat's hole-card broadcast, see
    ``table_screen``)."""
    parts = viewer_parts(snapshot, player, bankroll, left_with, revealed)
    screen = viewer_screen(snapshot, parts, reseat_at_ms)
    html = render_regions(screen, oob=True)
    if not json_state:
        return snapshot.version, html, ""
    view = snapshot.view_dict(screen.viewer_index) if screen.hand_id is not None else None
    if revealed and view is not None:  # the broadcast seats' cards in the engine's view too
        seats = list(view["seats"])
        for index, seat in broadcast_view_seats(snapshot, parts.panels).items():
            seats[index] = seat
        view = {**view, "seats": seats}
    state = play_state(snapshot, screen, now)
    return snapshot.version, html, state_json(screen, view, html, state)


def _shared_json(snapshot: Snapshot) -> tuple[SharedJson, Screen]:
    """The spectator's JSON state of ``snapshot`` and their screen, built once per version."""
    found: tuple[SharedJson, Screen] | None = snapshot.memo.get("json")
    if found is None:
        screen = table_screen(snapshot, None)
        view = snapshot.view_dict(None) if screen.hand_id is not None else None
        data = {
            "hand": screen.hand_id,
            "running": screen.running,
            "state": play_state(snapshot, screen),
            "view": view,
            "me": state_me(screen.viewer),
        }
        found = snapshot.memo["json"] = (SharedJson(snapshot.version, data), screen)
    return found


class SocketFrames:
    """What one socket holds, and the frame that brings it to a new version.

    ``kind``: ``"page"`` (a browser: htmx oob HTML), ``"diff"`` (a ``?state=json&frames=diff``
    socket) or ``"json"`` (``?state=json``: the whole state with its HTML every time, the
    protocol's first frames, for the clients written before the updates)."""

    def __init__(self, kind: str, room_screen: bool = False) -> None:
        self.kind = kind
        self.room_screen = room_screen  # a room screen's (the broadcast there is its host's)
        self.held: Any = None

    def forget(self) -> None:
        """Send the whole state next (a ``sync`` request, or any doubt)."""
        self.held = None

    def next_frame(
        self,
        snapshot: Snapshot,
        player: Any | None,
        bankroll: int | None,
        left_with: int = 0,
        reseat_at_ms: int | None = None,
        notes: NoteMarks = NO_NOTES,
    ) -> str:
        """The frame for ``snapshot`` to this socket's viewer ("" when it holds it all), its
        CPU time counted as the frames' (``work_cpu``).

        ``notes``: the viewer's own notes on players, shown on a browser's seats (part of the
        viewer's own screen, and of its key here: never in what spectators share). A JSON
        socket's state has none: a program reads its notes from the API."""
        start = time.thread_time()
        try:
            return self._frame(snapshot, player, bankroll, left_with, reseat_at_ms, notes)
        finally:
            work_cpu.add("frames", time.thread_time() - start)

    def _frame(
        self,
        snapshot: Snapshot,
        player: Any | None,
        bankroll: int | None,
        left_with: int,
        reseat_at_ms: int | None,
        notes: NoteMarks,
    ) -> str:
        player_id = player.pk if player is not None else None
        # The hole-card broadcast, for a viewer without a seat (0: none, as for a hand not
        # broadcast, the usual): what it shows depends on the time as well as the version.
        hand = snapshot.hand
        revealed = (
            broadcast_reveal(snapshot, player_id, timezone.now(), self.room_screen)
            if hand is not None and hand.broadcast
            else 0
        )
        if self.kind == "json":  # the whole state, unless it holds this one (a reveal's again)
            if self.held == (snapshot.version, revealed):
                return ""
            self.held = (snapshot.version, revealed)
            return render_viewer(
                snapshot,
                player,
                bankroll,
                True,
                left_with=left_with,
                reseat_at_ms=reseat_at_ms,
                revealed=revealed,
            )[2]
        memo = snapshot.memo
        if self.kind != "page" or player is None:
            notes = NO_NOTES
        viewer = (self.kind, player_id, bankroll, left_with, reseat_at_ms, notes, revealed)
        now: PageParts | JsonState | None = memo.get(viewer)
        if now is None and self.kind == "diff":
            now = memo[viewer] = self._json_state(snapshot, player, bankroll, left_with, revealed)
        elif now is None:
            parts = viewer_parts(snapshot, player, bankroll, left_with, revealed)
            now = memo[viewer] = page_parts(viewer_screen(snapshot, parts, reseat_at_ms, notes))
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
                page_update(held, now)
                if isinstance(now, PageParts)
                else json_update(held, now, memo)
            )
        return frame

    def _json_state(
        self,
        snapshot: Snapshot,
        player: Any | None,
        bankroll: int | None,
        left_with: int,
        revealed: int,
    ) -> JsonState:
        """The viewer's JSON state of ``snapshot``: their own parts those of the state this
        socket holds where every input of them is the same (most of a seated player's
        versions: another player acted, or their turn came), what they may tick in advance
        and their legal actions made again; else built from their parts alone (their whole
        screen is for the page: its HTML)."""
        if player is None and not revealed:  # a spectator's: the shared state (``json_state``)
            return JsonState(_shared_json(snapshot)[0], {})
        player_id = player.pk if player is not None else None
        signature = own_signature(snapshot, player_id, bankroll, left_with, revealed)
        held = self.held
        was = held.signature if isinstance(held, JsonState) else None
        if signature is not None and was is not None and was.parts == signature.parts:
            assert player_id is not None and isinstance(held, JsonState)  # a seated player's
            shared, _ = _shared_json(snapshot)
            own = held.own
            if was.pre_actions != signature.pre_actions:  # a bet or a street since
                pre_actions = own_pre_actions(snapshot, player_id)
                if own.get(PRE_ACTIONS, MISSING) is not pre_actions:
                    own = {**own, PRE_ACTIONS: pre_actions}
            if was.acting or signature.acting:  # their turn came or went: their legal actions
                index = snapshot.hand_index_of(player_id)
                assert index is not None  # acting: dealt in
                legal, view_legal = own_legal(snapshot, index)
                own = {**own, LEGAL: legal, VIEW_LEGAL: view_legal}
            return JsonState(shared, own, signature)
        parts = viewer_parts(snapshot, player, bankroll, left_with, revealed)
        return json_state(snapshot, parts, signature)
