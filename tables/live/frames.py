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
from collections.abc import Collection, Hashable, Set as AbstractSet
from datetime import datetime
from typing import Any

import orjson
from django.utils import timezone

from tables.db.threads import work_cpu
from tables.live.patch import MISSING, diff, value_at
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


class SharedJson:
    """The JSON state of one version as a spectator sees it, built once for every viewer:
    each viewer's state is this with their own parts put in (``JsonState``)."""

    __slots__ = ("version", "data", "__weakref__")

    def __init__(self, version: int, data: dict[str, Any]) -> None:
        self.version, self.data = version, data


class JsonState:
    """One viewer's state at one version as a ``frames=diff`` socket holds it: the version's
    ``shared`` state with the viewer's ``own`` parts (JSON Pointer -> value: their seat, their
    controls, their log, their engine view's private members; none for a spectator). ``data``
    is the whole frame less its ``type`` and ``version``. Compared by identity.

    ``signature``: every input ``own`` was built from
    (``tables.presenters.own_signature``), or None: a later version of the same signature
    takes this ``own`` as it is (of the same but what the viewer may tick in advance, with
    that member made anew)."""

    __slots__ = ("shared", "own", "signature", "_data", "_text")

    def __init__(
        self, shared: SharedJson, own: dict[str, Any], signature: OwnSignature | None = None
    ) -> None:
        self.shared, self.own, self.signature = shared, own, signature
        self._data: dict[str, Any] | None = None
        self._text = ""

    @property
    def version(self) -> int:
        return self.shared.version

    @property
    def data(self) -> dict[str, Any]:
        """The viewer's whole state (the shared one with their own parts put in)."""
        if self._data is None:
            data = self.shared.data
            for pointer, value in self.own.items():
                data = _put(data, pointer.split("/")[1:], value)
            self._data = data
        return self._data

    @property
    def text(self) -> str:
        """The whole state frame."""
        if not self._text:
            self._text = orjson.dumps(
                {"type": "state", "version": self.version, **self.data}
            ).decode()
        return self._text


def _put(container: Any, keys: list[str], value: Any) -> Any:
    """A copy of ``container`` with ``value`` at ``keys`` (each container on the way copied,
    the rest shared)."""
    if not keys:
        return value
    key, rest = keys[0], keys[1:]
    if isinstance(container, list):
        index = int(key)
        copied = list(container)
        copied[index] = _put(copied[index], rest, value)
        return copied
    copied_dict = dict(container)
    copied_dict[key] = _put(copied_dict[key], rest, value)
    return copied_dict


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


def json_update(held: JsonState, now: JsonState, memo: dict[Hashable, Any]) -> str:
    """The ``update`` frame from ``held`` to ``now``.

    The shared states' patch is made once per pair of versions for every viewer (``memo``:
    the newer snapshot's); each viewer's frame is that patch less what it says of their own
    parts (``held``'s and ``now``'s), then their own parts' patch: a part that became theirs
    from the spectator's value before, a part no longer theirs to the spectator's value now.
    Where their own parts moved within each other (a whole part and parts of it) or a part
    is not found, they get the patch of their whole states."""
    own, was = now.own, held.own
    same = own is was or own.keys() == was.keys()
    mine = own.keys() if same else own.keys() | was.keys()
    if not same and not _apart(mine):
        return _whole_update(held, now)
    key = ("shared patch", held.shared, now.shared)
    shared: SharedPatch | None = memo.get(key)
    if shared is None:
        shared = memo[key] = SharedPatch(diff(held.shared.data, now.shared.data))
    above = _above(tuple(own) if same else tuple(sorted(mine)))
    gone: Collection[str] = () if same else was.keys() - own.keys()
    parts: list[bytes] = []
    overwritten: set[str] = set()
    if shared.under.isdisjoint(mine) and shared.at.isdisjoint(above):
        # Most often: no shared operation at, under or above a part of theirs (all of it).
        if own is was or not (own or was):  # nothing of their own (``own_signature``)
            return shared.frame(now, held)
        if shared.text:
            parts.append(shared.text)
    else:
        _shared_parts(shared, mine, above, gone, parts, overwritten)
    for part, value in own.items():
        before = was.get(part, MISSING)
        if part in overwritten:  # set whole by a shared operation above it: put it back
            parts.append(orjson.dumps([part, value]))
        elif before is MISSING and (before := value_at(held.shared.data, part)) is MISSING:
            parts.append(orjson.dumps([part, value]))  # new: the shared patch made its place
        elif before is not value:
            parts.extend(_patch_at(part, before, value))
    for part in gone:
        if part in overwritten:  # set or removed by a shared operation at it or above it
            continue
        spectators = value_at(now.shared.data, part)
        if spectators is MISSING:
            return _whole_update(held, now)
        parts.extend(_patch_at(part, was[part], spectators))
    return _update_frame(now, held, parts)


class SharedPatch:
    """The patch between two versions' shared states, made once for all their viewers: each
    operation's pointers (``_pointers_to`` its path) and JSON text, the texts joined
    (``text``), every pointer an operation is at or under (``under``) and every path one is
    at (``at``): a viewer none of whose parts they reach takes the joined text as it is."""

    __slots__ = ("operations", "text", "under", "at", "_frame")

    def __init__(self, operations: list[Any]) -> None:
        self.operations = [(_pointers_to(op[0]), orjson.dumps(op)) for op in operations]
        self.text = b",".join(text for _, text in self.operations)
        self.under = {pointer for pointers, _ in self.operations for pointer in pointers}
        self.at = {pointers[-1] if pointers else "" for pointers, _ in self.operations}
        self._frame = ""

    def frame(self, now: JsonState, held: JsonState) -> str:
        """The update from ``held`` to ``now`` of a viewer whose own parts it says nothing
        of: the same text for all of them (a spectator, a player whose parts were reused)."""
        if not self._frame:
            self._frame = _update_frame(now, held, [self.text] if self.text else [])
        return self._frame


def _shared_parts(
    shared: SharedPatch,
    mine: AbstractSet[str],
    above: frozenset[str],
    gone: Collection[str],
    parts: list[bytes],
    overwritten: set[str],
) -> None:
    """The shared operations a viewer of parts ``mine`` gets (put in ``parts``), less those
    at or under a part of theirs but one at a part no longer theirs (``gone``: as for all);
    the parts a shared operation at or above them set whole go in ``overwritten``."""
    for pointers, text in shared.operations:
        if not mine.isdisjoint(pointers):
            if pointers[-1] in gone:  # set or removed at a part no longer theirs: as for all
                overwritten.add(pointers[-1])
                parts.append(text)
            continue  # the spectator's value of a part this viewer has their own of
        path = pointers[-1] if pointers else ""
        if path in above:
            overwritten.update(part for part in mine if part.startswith(path + "/"))
        parts.append(text)


def _patch_at(part: str, before: Any, after: Any) -> list[bytes]:
    """The operations that turn ``before`` into ``after`` at pointer ``part``."""
    return [orjson.dumps([part + op[0], *op[1:]]) for op in diff(before, after)]


def _whole_update(held: JsonState, now: JsonState) -> str:
    return _update_frame(now, held, [orjson.dumps(op) for op in diff(held.data, now.data)])


def _apart(parts: Collection[str]) -> bool:
    """Whether no part is within another (each is patched on its own)."""
    return not any(pointer in parts for part in parts for pointer in _pointers_to(part)[:-1])


@functools.lru_cache(maxsize=256)
def _above(own: tuple[str, ...]) -> frozenset[str]:
    """The pointers above a viewer's own parts, and the document's own ("")."""
    return frozenset(("", *(pointer for mine in own for pointer in _pointers_to(mine)[:-1])))


@functools.lru_cache(maxsize=4096)
def _pointers_to(path: str) -> tuple[str, ...]:
    """``path`` and the pointers above it, the document's own ("") left out: ``/a/b`` ->
    ``("/a", "/a/b")``."""
    parts = path.split("/")
    return tuple("/".join(parts[:n]) for n in range(2, len(parts) + 1))


def _update_frame(now: JsonState, held: JsonState, operations: list[bytes]) -> str:
    return (
        b'{"type":"update","version":%d,"base":%d,"patch":[%b]}'
        % (now.version, held.version, b",".join(operations))
    ).decode()


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
