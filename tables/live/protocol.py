"""The table socket's protocol: what a frame may ask, what it is answered, what it is sent.

- A request is a JSON object from htmx's ``ws-send`` (``decode_frame``): ``op`` names one of
  ``OPERATIONS`` and the other fields are that operation's. Each operation is one row of the
  table: the parser of its fields (every number through ``tables.inputs.parse_whole_number``)
  and the one service it calls (``carry_out``). A refused request (``BadFrame``,
  ``NumberError`` or the service's ``ServiceError``) changed nothing and is answered to the
  sender only.
- An answer (``answer_json``) is ``{"type": "answer", "message", "error"}``, a refusal's
  stable ``code`` beside its message (a service error's ``code``, ``bad_request``,
  ``invalid_number``, ``rate_limited``, ``database_unavailable``, ``server_error``), and the
  request's ``id`` if it gave one (``request_id_of``); a browser gets the message line as HTML
  instead (``tables.presenters.render.render_message``).
- An update (``render_viewer``) is every region of the table as htmx out-of-band HTML or, for a
  ``?state=json`` socket, one ``state_json`` frame ``{"type": "state", "state", "version",
  "hand", "running", "view", "me", "html"}``: ``state`` is the play state
  (``tables.presenters.play_state``, the same object the REST API answers with); the others
  are the engine's view for this viewer (the same data the HTML shows) with the regions a
  browser would get, kept for the clients written before it.
- Close codes (websocket servers may send only 1000 and 3000-4999) are below.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

import orjson

from tables import services
from tables.inputs import NumberError, parse_whole_number
from tables.models import Table
from tables.presenters.models import Screen
from tables.presenters.play_state import play_state
from tables.presenters.render import render_regions
from tables.presenters.screen import table_screen
from tables.selectors.hands import player_in_running_hand
from tables.selectors.players import viewer_player
from tables.selectors.snapshot import Snapshot
from tables.services.seat_requests import seat_ask, top_up_ask

# Close codes.
NOT_LOGGED_IN = 4401  # also when the log-in ended
NO_SUCH_TABLE = 4404
TOO_MANY_SOCKETS = 4429
FLOODING = 4008
FRAME_TOO_BIG = 4009
SERVER_TROUBLE = 4011  # the channel layer failed under the feed: reconnect
#: The server is too busy to send this socket its table soon (a connect rush,
#: ``tables.live.admission``): reconnect after a jittered, growing pause (``pokerclient.backoff``).
#: 1013 "try again later" is the standard code, but a server may send only 1000 and 3000-4999.
SERVER_BUSY = 4013

#: The highest seat number a frame may name (the largest table).
MOST_SEATS = max(Table.MAX_SEATS.values())
#: The decisions of ``act``: the betting ones, and the answers to "run it twice?".
ACTION_KINDS = ("fold", "check", "call", "raise", "all_in", "run_once", "run_twice")


class BadFrame(ValueError):
    """A frame that is not a well-formed request (answered, nothing changes)."""

    code = "bad_request"


def error_code(error: Exception) -> str:
    """The stable code a refusal is answered with (``tables.services.errors`` has the
    services' own)."""
    if isinstance(error, NumberError):
        return "invalid_number"
    return getattr(error, "code", "server_error")


def decode_frame(text: str) -> dict:
    """A text frame as a request object; ``BadFrame`` if it is not JSON or not an object."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise BadFrame("Malformed request: nothing was done.") from None
    if not isinstance(data, dict):
        raise BadFrame("A request is a JSON object: nothing was done.")
    return data


def request_id_of(data: dict):
    """A request's ``id`` as its answer echoes it: a number or a short text, else None."""
    value = data.get("id")
    if isinstance(value, bool):
        return None
    if isinstance(value, int) or (isinstance(value, str) and len(value) <= 64):
        return value
    return None


def _number(data: dict, key: str, what: str, minimum: int = 1, **limits) -> int:
    return parse_whole_number(data.get(key), what=what, minimum=minimum, **limits)


# --- the operations: each parser turns a frame into its service's fields (raising BadFrame or
# NumberError, in the order the fields are checked); each carry_out calls the one service and
# returns the message for the sender.


def _act_fields(data: dict) -> dict:
    kind = data.get("kind")
    if kind not in ACTION_KINDS:
        raise BadFrame("Unknown action.")
    amount = _number(data, "amount", "The amount") if kind == "raise" else None
    return {
        "hand_id": _number(data, "hand", "The hand"),
        "version": _number(data, "version", "The version", minimum=0),
        "action": {"kind": kind, "amount": amount},
    }


def _act(table_id: int, player, **fields) -> str:
    services.hand_act(table=table_id, player=player, **fields)
    return ""


def _no_fields(data: dict) -> dict:
    return {}


def _sit_out(table_id: int, player) -> str:
    services.seat_sit_out(table=table_id, player=player)
    return "You are sitting out: you will be dealt out until you come back."


def _sit_in(table_id: int, player) -> str:
    services.seat_sit_in(table=table_id, player=player)
    if player_in_running_hand(Table(pk=table_id), player.pk):
        return "Welcome back: you are still dealt into this hand, and into the next ones."
    return "Welcome back: you are dealt in from the next hand."


def _leave(table_id: int, player) -> str:
    left = services.seat_leave(table=table_id, player=player)
    return "You left the table." if left else "You will leave when this hand ends."


def _top_up_fields(data: dict) -> dict:
    return {"amount": _number(data, "amount", "The top-up")}


def _top_up(table_id: int, player, amount: int) -> str:
    if top_up_ask(table=table_id, player=player, amount=amount).request is not None:
        return "Asked the host: your chips are added once they approve."
    return "Chips added."


def _take_seat_fields(data: dict) -> dict:
    seat = data.get("seat")
    number = (
        _number(data, "seat", "The seat", maximum=MOST_SEATS) - 1
        if seat not in (None, "")
        else None
    )
    return {"seat_number": number, "buy_in": _number(data, "buy_in", "The buy-in")}


def _take_seat(table_id: int, player, seat_number: int | None, buy_in: int) -> str:
    asked = seat_ask(table=table_id, player=player, buy_in=buy_in, seat_number=seat_number)
    if asked.request is not None:
        return "Asked the host: you sit down once they approve (requests expire in 5 minutes)."
    return "You sat down: you are dealt in from the next hand."


def _rabbit_fields(data: dict) -> dict:
    return {"hand_id": _number(data, "hand", "The hand")}


def _rabbit_hunt(table_id: int, player, hand_id: int) -> str:
    services.rabbit_hunt(table=table_id, player=player, hand_id=hand_id)
    return ""


def _chat_fields(data: dict) -> dict:
    text = data.get("text")
    if not isinstance(text, str):
        raise BadFrame("A chat message is text.")
    return {"text": text}


def _chat(table_id: int, player, text: str) -> str:
    services.chat_post(table=table_id, player=player, text=text)
    return ""


def _chat_mute_fields(data: dict) -> dict:
    muted = data.get("muted", "1")
    if muted not in ("0", "1", 0, 1, True, False):
        raise BadFrame("muted is 1 (mute) or 0 (unmute).")
    return {"player_id": _number(data, "player", "The player"), "muted": muted in ("1", 1, True)}


def _chat_mute(table_id: int, player, player_id: int, muted: bool) -> str:
    guest = services.chat_mute(table=table_id, host=player, player_id=player_id, muted=muted)
    return f"{guest.player.name} is {'muted' if muted else 'no longer muted'}."


@dataclass(frozen=True)
class Operation:
    parse: Callable[[dict], dict]  # the frame -> ``carry_out``'s fields
    carry_out: Callable[..., str]  # (table id, player, **fields) -> the sender's message


OPERATIONS: dict[str, Operation] = {
    "act": Operation(_act_fields, _act),
    "sit_out": Operation(_no_fields, _sit_out),
    "sit_in": Operation(_no_fields, _sit_in),
    "leave": Operation(_no_fields, _leave),
    "top_up": Operation(_top_up_fields, _top_up),
    "take_seat": Operation(_take_seat_fields, _take_seat),
    "chat": Operation(_chat_fields, _chat),
    "chat_mute": Operation(_chat_mute_fields, _chat_mute),
    "rabbit_hunt": Operation(_rabbit_fields, _rabbit_hunt),
}


def run_op(*, table_id: int, user, data: dict, player=None) -> str:
    """Carry out one request through one service; returns a message for the sender.

    ``player``: the socket's player if already known (resolved once at connect).
    Raises ``ServiceError``, ``BadFrame`` or ``NumberError`` (nothing changed) when refused.
    Each service locks the table row first (``table_lock``): nothing is read before it.
    """
    if player is None:
        player = viewer_player(user)
    if player is None:
        raise BadFrame("Log in to play.")
    op = data.get("op")
    operation = OPERATIONS.get(op) if isinstance(op, str) else None
    if operation is None:
        raise BadFrame(f"Unknown request (one of {', '.join(OPERATIONS)}).")
    return operation.carry_out(table_id, player, **operation.parse(data))


# --- what the socket sends ----------------------------------------------------------------


def answer_json(
    message: str, error: bool, request: int | str | None, code: str | None = None
) -> str:
    """The answer to a ``?state=json`` socket's request (``request``: its ``id``, if any;
    ``code``: a refusal's stable code)."""
    answer: dict = {"type": "answer", "message": message, "error": error}
    if code is not None:
        answer["code"] = code
    if request is not None:
        answer["id"] = request
    return json.dumps(answer)


#: What a ``?state=json`` frame tells of its viewer (``Viewer``'s fields).
STATE_ME_FIELDS = ("seated", "sitting_out", "in_hand", "stack")


def state_json(screen: Screen, view: dict | None, html: str, state: dict) -> str:
    """The ``?state=json`` frame: what the viewer may see, as data (``state``: the play
    state; ``view``: the engine's view for this viewer as JSON data, None without a hand) and
    as the browser's HTML."""
    me = screen.viewer
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
            "me": {k: getattr(me, k) if me is not None else None for k in STATE_ME_FIELDS},
            "html": html,
        }
    ).decode()


def render_viewer(
    snapshot: Snapshot,
    player,
    bankroll: int | None = None,
    json_state: bool = False,
    now: datetime | None = None,
    left_with: int = 0,
) -> tuple[int, str, str]:
    """(version, regions as oob HTML, JSON state with that HTML or "") of ``snapshot`` for
    one viewer (``bankroll`` and ``left_with``: theirs if they have no seat here, see
    ``table_screen``; ``now``: when the play state's clock counts its seconds left from,
    default now)."""
    screen = table_screen(snapshot, player, bankroll, left_with=left_with)
    html = render_regions(screen, oob=True)
    if not json_state:
        return snapshot.version, html, ""
    view = snapshot.view_dict(screen.viewer_index) if snapshot.hand is not None else None
    state = play_state(snapshot, screen, now)
    return snapshot.version, html, state_json(screen, view, html, state)
