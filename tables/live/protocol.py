"""The table socket's protocol: what a frame may ask, what it is answered, what it is sent.

- A request is a JSON object from htmx's ``ws-send`` (``decode_frame``): ``op`` names one of
  ``OPERATIONS`` (``tables.operations``, the command layer the REST play API shares) and the
  other fields are that operation's. A refused request (``BadFrame``, ``NumberError`` or the
  service's ``ServiceError``) changed nothing and is answered to the sender only.
- An answer (``answer_json``) is ``{"type": "answer", "message", "error"}``, a refusal's
  stable ``code`` beside its message (a service error's ``code``, ``bad_request``,
  ``invalid_number``, ``rate_limited``, ``database_unavailable``, ``server_error``), and the
  request's ``id`` if it gave one (``request_id_of``); a browser gets the message line as HTML
  instead (``tables.presenters.render.render_message``). A socket opened with
  ``answers=inline`` gets a carried-out request's answer as the ``answer`` member of the
  first state or update frame sent to it while the request is handled (``with_answer``: one
  frame fewer per action), or alone when no frame goes to it meanwhile; refusals always
  come alone.
- What a socket is sent after a change is made in ``tables.live.frames``: only what changed
  since what it holds (a browser's regions as htmx out-of-band HTML; a ``frames=diff`` JSON
  socket's ``update`` patches). A ``?state=json`` socket without ``frames=diff`` gets one
  ``state_json`` frame every time (``render_viewer``): ``{"type": "state", "state",
  "version", "hand", "running", "view", "me", "html"}``: ``state`` is the play state
  (``tables.presenters.play_state``, the same object the REST API answers with); the others
  are the engine's view for this viewer (the same data the HTML shows) with the regions a
  browser would get, kept for the clients written before it.
- Acting in advance (``pre_action``): a player in the hand who is not to act ticks a choice;
  the server keeps it on their seat and takes it in the same step as the action that brings
  their turn (``tables.services.pre_actions``), so that action's version (or the next) already
  shows theirs: no request of theirs is needed. Their state's ``pre_actions`` lists what they
  may tick and what they ticked (their own only).
- How many frames a socket may send (``FrameBudget``): every frame, binary ones included,
  takes a token (``RATE_BURST`` at most, refilled at ``RATE_PER_SECOND``); a frame without
  one is refused, and ``FLOOD_CLOSE_AFTER`` refusals within ``FLOOD_WINDOW_SECONDS`` close the
  socket (``FLOODING``, ``tables.live.consumer``).
- Close codes (websocket servers may send only 1000 and 3000-4999) are below.
"""

from __future__ import annotations

import functools
import json
import time
from datetime import datetime
from typing import Any

import orjson

from tables.inputs import BadFrame, NumberError
from tables.presenters.broadcast import broadcast_view_seats
from tables.presenters.models import Screen, Viewer
from tables.presenters.play_state import play_state
from tables.presenters.render import render_regions
from tables.presenters.screen import viewer_parts, viewer_screen
from tables.selectors.snapshot import Snapshot

# Close codes.
NOT_LOGGED_IN = 4401  # also when the log-in ended
NO_SUCH_TABLE = 4404
TOO_MANY_SOCKETS = 4429
FLOODING = 4008
FRAME_TOO_BIG = 4009
SERVER_TROUBLE = 4011  # the channel layer failed, or the first state could not be read: reconnect
#: The server is too busy to send this socket its table soon (a connect rush,
#: ``tables.live.admission``), or it is stopping (``TableRuntime.drain``): reconnect after a
#: jittered, growing pause (``pokerclient.backoff``).
#: 1013 "try again later" is the standard code, but a server may send only 1000 and 3000-4999.
SERVER_BUSY = 4013

#: The requests the socket answers itself, not through a service: log in by the first frame,
#: and send the whole state again (``sync``: a ``frames=diff`` client that doubts its state).
SOCKET_REQUESTS = ("auth", "sync")


# --- what a socket may send ----------------------------------------------------------------

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


def error_code(error: Exception) -> str:
    """The stable code a refusal is answered with (``tables.services.errors`` has the
    services' own)."""
    if isinstance(error, NumberError):
        return "invalid_number"
    return getattr(error, "code", "server_error")


def decode_frame(text: str) -> dict[str, Any]:
    """A text frame as a request object; ``BadFrame`` if it is not JSON or not an object."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise BadFrame("Malformed request: nothing was done.") from None
    if not isinstance(data, dict):
        raise BadFrame("A request is a JSON object: nothing was done.")
    return data


def request_id_of(data: dict[str, Any]) -> int | str | None:
    """A request's ``id`` as its answer echoes it: a number or a short text, else None."""
    value = data.get("id")
    if isinstance(value, bool):
        return None
    if isinstance(value, int) or (isinstance(value, str) and len(value) <= 64):
        return value
    return None


# --- what the socket sends ----------------------------------------------------------------


def answer_json(
    message: str, error: bool, request: int | str | None, code: str | None = None
) -> str:
    """The answer to a ``?state=json`` socket's request (``request``: its ``id``, if any;
    ``code``: a refusal's stable code)."""
    return json.dumps({"type": "answer", **_answer_members(message, error, request, code)})


def with_answer(frame: str, message: str, request: int | str | None) -> str:
    """A state or update ``frame`` (a JSON object's text) with a carried-out request's answer
    as its ``answer`` member (``answers=inline``): the answer frame's members less ``type``.
    A new string: the frame's text is shared with the other sockets of its viewer."""
    return f'{frame[:-1]},"answer":{json.dumps(_answer_members(message, False, request))}}}'


def _answer_members(
    message: str, error: bool, request: int | str | None, code: str | None = None
) -> dict[str, object]:
    """An answer's members, in a frame of its own or inside a state or update."""
    answer: dict[str, object] = {"message": message, "error": error}
    if code is not None:
        answer["code"] = code
    if request is not None:
        answer["id"] = request
    return answer


#: What a ``?state=json`` frame tells of its viewer (``Viewer``'s fields).
STATE_ME_FIELDS = ("seated", "sitting_out", "in_hand", "stack")


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
