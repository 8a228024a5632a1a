"""The table socket's protocol as JSON Schemas: every message in both directions, in one place.

Version ``PROTOCOL_VERSION`` of the ``?state=json`` socket (``tables.live.protocol`` is the
code that speaks it): the requests (``REQUESTS``, one schema per operation, ``auth`` and
``sync`` included), the answer to each request (``ANSWER``, with a refusal's stable
``code``), the state frame (``STATE``, carrying the play state: ``PLAY_STATE_COMPONENT``), a
``frames=diff`` socket's updates (``UPDATE``: a patch on a base version), an ``answers=inline``
socket's answer to a request carried out inside either (``INLINE_ANSWER``) and the close
codes (``CLOSE_CODES``). ``tables.live.asyncapi`` publishes them as an AsyncAPI document;
the tests validate real frames against that document.

Requests may carry more fields than these (htmx sends its ``HEADERS`` and the form's other
fields): the server reads only the ones named here. Numbers may come as JSON integers or as
text of ASCII digits (forms send text); ``id``, if given, is echoed in the answer.
"""

from __future__ import annotations

from typing import Any

from engine import pre_actions
from engine.variants import ALL_STREETS
from tables import operations
from tables.live import protocol
from tables.presenters.play_state import PLAY_STATE
from tables.services.errors import ServiceError
from tables.text import ACTION_KINDS

PROTOCOL_VERSION = 1

#: Close codes (websocket servers may send only 1000 and 3000-4999) -> what they mean.
CLOSE_CODES: dict[int, str] = {
    protocol.NOT_LOGGED_IN: "Not logged in, a wrong API token, or the log-in ended "
    "(log-out, password change): log in again.",
    protocol.NO_SUCH_TABLE: "No such table (or it was removed).",
    protocol.TOO_MANY_SOCKETS: "Too many sockets of this user (on this table or in all).",
    protocol.FLOODING: "Too many frames over the rate limit.",
    protocol.FRAME_TOO_BIG: "A frame over 4096 bytes.",
    protocol.SERVER_TROUBLE: "The server's channel layer failed, or its database before the "
    "socket's first state: reconnect.",
    protocol.SERVER_BUSY: "The server is too busy to send the table soon (a connect rush), or "
    "it is stopping (its tables move to another server): "
    "reconnect after a pause that grows and is jittered (e.g. a random 0.25-0.5 s, then "
    "0.5-1 s, ... up to 15 s); the socket was shed, nothing else happened.",
}

#: A JSON Schema document (or part of one), as data.
JsonSchema = dict[str, Any]

#: Codes of refusals that are the socket's own (beside every service error's code).
SOCKET_CODES = (
    "bad_request",
    "invalid_number",
    "rate_limited",
    "database_unavailable",
    "server_error",
    "invalid_token",
    "not_authenticated",
)


def error_codes() -> list[str]:
    """The codes an answer may carry: the socket's and each service error's class code (an
    illegal action's names its rule: ``engine.errors.IllegalAction``)."""
    codes, todo = set(SOCKET_CODES), [ServiceError]
    while todo:
        cls = todo.pop()
        codes.add(cls.code)
        todo.extend(cls.__subclasses__())
    return sorted(codes)


def _whole(minimum: int, description: str, maximum: int | None = None) -> JsonSchema:
    as_int: JsonSchema = {"type": "integer", "minimum": minimum}
    if maximum is not None:
        as_int["maximum"] = maximum
    return {
        "description": description,
        "oneOf": [as_int, {"type": "string", "pattern": r"^[ \t]*[0-9]{1,16}[ \t]*$"}],
    }


def _optional(schema: JsonSchema) -> JsonSchema:
    """``schema``, or "not given" (null or empty text)."""
    return {
        "description": schema["description"],
        "oneOf": [*schema["oneOf"], {"type": "null"}, {"type": "string", "maxLength": 0}],
    }


REQUEST_ID = {
    "description": "Echoed in the answer: tells which request an answer is for.",
    "oneOf": [{"type": "integer"}, {"type": "string", "maxLength": 64}],
}


def _request(
    op: str,
    summary: str,
    fields: dict[str, JsonSchema] | None = None,
    required: tuple[str, ...] = (),
) -> JsonSchema:
    return {
        "title": f"{op} request",
        "description": summary,
        "type": "object",
        "properties": {"op": {"const": op}, "id": REQUEST_ID, **(fields or {})},
        "required": ["op", *required],
        "additionalProperties": True,
    }


_ACT = _request(
    "act",
    "Act in the running hand: the hand and version you saw (a stale one changes nothing "
    "and is refused with stale_version); amount is the street total to raise to; a draw "
    "game's discard names the cards thrown away (none: stand pat; as many are dealt).",
    {
        "kind": {"enum": list(ACTION_KINDS)},
        "hand": _whole(1, "The running hand's id (the state's hand)."),
        "version": _whole(0, "The table version you saw (the state's version)."),
        "amount": _optional(_whole(1, "For a raise: the street total to raise to.")),
        "cards": {
            "description": 'For a discard: the cards thrown away, from your hand (["7h", '
            '"2c"], or "7h2c"); none or [] stands pat.',
            "oneOf": [
                {"type": "array", "items": {"type": "string", "pattern": "^[2-9TJQKA][cdhs]$"}},
                {"type": "string", "maxLength": 10},
            ],
        },
    },
    required=("kind", "hand", "version"),
)
# A raise needs its amount.
_ACT["if"] = {"properties": {"kind": {"const": "raise"}}, "required": ["kind"]}
_ACT["then"] = {"required": ["amount"], "properties": {"amount": _whole(1, "Raise to.")}}

REQUESTS: dict[str, JsonSchema] = {
    "auth": _request(
        "auth",
        "The first frame of a socket opened without a log-in: your API token "
        "(/api/auth/token/). Or send the header Authorization: Token <key> instead.",
        {"token": {"type": "string", "maxLength": 64}},
        required=("token",),
    ),
    "act": _ACT,
    "choose_game": _request(
        "choose_game",
        "Dealer's choice: the player on the next button picks the orbit's game and betting "
        "(the state's choice lists them) before its time is up; no_choice_now, bad_choice.",
        {"game": {"type": "string", "maxLength": 40, "description": "game/betting"}},
        required=("game",),
    ),
    "pre_action": _request(
        "pre_action",
        "Act in advance: while another player is to act, tick what to do when your turn "
        "comes (the state's pre_actions.offers); the server takes it in the same step as the "
        "action that brings your turn, if it still means the same (call: void once the "
        "amount to call is not amount; check: void on a bet; check_fold folds to a bet; "
        "call_any calls any bet or checks), and clears it at the end of the street. An "
        "empty kind takes it back. not_your_turn, hand_not_running, invalid_choice.",
        {
            "kind": {"enum": ["", *pre_actions.KINDS]},
            "amount": _optional(_whole(1, "For call: the amount to call you saw.")),
        },
        required=("kind",),
    ),
    "sit_out": _request("sit_out", "Be dealt out from the next hand."),
    "sit_in": _request("sit_in", "Be dealt in again."),
    "sit_out_next": _request(
        "sit_out_next",
        "Sit out from the next hand (the hand being played goes on), or when the big blind "
        "reaches you; an empty when takes it back.",
        {"when": {"enum": ["hand", "big_blind", ""]}},
    ),
    "post_now": _request(
        "post_now", "Stop waiting for the big blind: dealt in next hand, posting a big blind."
    ),
    "leave": _request("leave", "Leave your seat: now, or when the running hand ends."),
    "top_up": _request(
        "top_up",
        "Add chips from your bankroll to your stack.",
        {"amount": _whole(1, "The chips to add.")},
        required=("amount",),
    ),
    "take_seat": _request(
        "take_seat",
        "Sit down with a buy-in, in a seat (from 1) or the first free one.",
        {
            "buy_in": _whole(1, "The chips to bring from your bankroll."),
            "seat": _optional(_whole(1, "The seat, from 1.", operations.MOST_SEATS)),
            "post_now": {
                "description": "Post a big blind to be dealt in at once (default: wait for "
                "the big blind to reach you).",
                "enum": [True, False, 0, 1, "0", "1", ""],
            },
        },
        required=("buy_in",),
    ),
    "chat": _request(
        "chat",
        "Say something at the table (players, and spectators when the host allows it): plain "
        "text, one line, at most 280 characters, a few lines per ten seconds.",
        {"text": {"type": "string", "maxLength": 280}},
        required=("text",),
    ),
    "chat_mute": _request(
        "chat_mute",
        "The host mutes (1) or unmutes (0) a player's chat at this game.",
        {
            "player": _whole(1, "The player's id (a chat line's player_id)."),
            "muted": {"enum": [0, 1, "0", "1", True, False]},
        },
        required=("player",),
    ),
    "rabbit_hunt": _request(
        "rabbit_hunt",
        "After a hand that ended before the river, show everyone the cards that would have "
        "come (any seated player, once per hand; changes nothing). Refused with no_rabbit, "
        "runout_showing, hand_not_running or not_seated.",
        {"hand": _whole(1, "The finished hand's id (the state's result.hand).")},
        required=("hand",),
    ),
    "show_cards": _request(
        "show_cards",
        "Once a hand is over and until the next one starts, show everyone all or some of your "
        "cards from it (after a fold, winning without a showdown, or losing at one): only "
        "those cards are seen. Refused with cannot_show, runout_showing, hand_not_running or "
        "not_seated.",
        {
            "hand": _whole(1, "The finished hand's id (the state's result.hand)."),
            "cards": {
                "description": 'The cards to show: codes like "Ah", a list or a text '
                '("Ah Kd"); none or "all" shows every card.',
                "oneOf": [
                    {"type": "string", "maxLength": 32},
                    {"type": "array", "items": {"type": "string"}, "maxItems": 7},
                ],
            },
        },
        required=("hand",),
    ),
    "broadcast": _request(
        "broadcast",
        "Agree (1) to the host's proposal to show hole cards to spectators after its delay, "
        "or withdraw (0), for yourself: it is on only while every seated player agrees, and "
        "a withdrawal stops it from the next hand. Refused with not_seated, or not_proposed "
        "to agree when nothing is proposed.",
        {"agree": {"enum": [0, 1, "0", "1", True, False]}},
        required=("agree",),
    ),
}
REQUESTS["sync"] = _request(
    "sync",
    "Send me the whole state again: a frames=diff client whose state is not an update's base "
    "(or that doubts what it holds) asks for it; answered by a state frame, then an answer.",
)
assert set(REQUESTS) == {*protocol.SOCKET_REQUESTS, *operations.OPERATIONS}, "one schema each"

ANSWER = {
    "title": "answer",
    "description": "The answer to one request, to its sender only: error false with a "
    "message (maybe empty) when done; error true with a stable code when refused (then "
    "nothing changed). With answers=inline a request done is answered inside the state or "
    "update frame it brings its sender (their answer member) when one goes to it.",
    "type": "object",
    "properties": {
        "type": {"const": "answer"},
        "message": {"type": "string"},
        "error": {"type": "boolean"},
        "code": {
            "type": "string",
            "pattern": "^[a-z][a-z_]*$",
            "description": "Why it was refused, stable for programs: the socket's own codes, "
            "each service error's, and for an illegal action the rule's (below_min_raise...).",
            "examples": error_codes(),
        },
        "id": REQUEST_ID,
    },
    "required": ["type", "message", "error"],
    "additionalProperties": False,
    "if": {"properties": {"error": {"const": True}}},
    "then": {"required": ["code"]},
}

INLINE_ANSWER = {
    "type": "object",
    "description": "With answers=inline: the answer to the sender's own request, carried out, "
    "in the first state or update frame sent to the sender while it is handled (the answer "
    "frame less its type; only on the sender's frame). A refusal, or a success no frame went "
    "out for (nothing changed for this viewer), comes as an answer frame.",
    "properties": {"message": {"type": "string"}, "error": {"const": False}, "id": REQUEST_ID},
    "required": ["message", "error"],
    "additionalProperties": False,
}

_CARD = {"type": "string", "pattern": "^[2-9TJQKA][cdhs]$"}
_COUNT = {"type": "integer", "minimum": 0}
_SEAT_INDEX = {"type": "integer", "minimum": 0}

_SEAT_VIEW = {
    "type": "object",
    "description": "A seat in the hand; cards are null where this viewer may not see them.",
    "properties": {
        "seat": _SEAT_INDEX,
        "name": {"type": "string"},
        "stack": _COUNT,
        "bet": _COUNT,
        "committed": _COUNT,
        "folded": {"type": "boolean"},
        "all_in": {"type": "boolean"},
        "cards": {"type": "array", "items": {"oneOf": [_CARD, {"type": "null"}]}},
        "up": {
            "type": "array",
            "items": {"type": "boolean"},
            "description": "One flag per card: dealt face up (stud's up-cards).",
        },
        "shown": {"type": "boolean"},
        "is_button": {"type": "boolean"},
        "is_small_blind": {"type": "boolean"},
        "is_big_blind": {"type": "boolean"},
        "is_straddle": {"type": "boolean"},
    },
    "required": ["seat", "name", "stack", "bet", "cards", "folded", "all_in"],
}

_LEGAL = {
    "type": "object",
    "description": "What the viewer may do (only when it is their turn): call is the chips "
    "to add; min/max_raise_to are street totals, null when no raise is allowed.",
    "properties": {
        "fold": {"type": "boolean"},
        "check": {"type": "boolean"},
        "call": _COUNT,
        "min_raise_to": {"type": ["integer", "null"]},
        "max_raise_to": {"type": ["integer", "null"]},
        "discard": {
            "const": True,
            "description": "A draw game's draw: discard (none to all of your cards) is the "
            "only move.",
        },
    },
    "required": ["fold", "check", "call", "min_raise_to", "max_raise_to"],
    "additionalProperties": False,
}

VIEW = {
    "title": "view",
    "description": "The hand as this viewer may see it (engine.view.View.to_dict).",
    "type": "object",
    "properties": {
        "viewer": {"type": ["integer", "null"]},
        "config": {"type": "object"},
        "street": {"enum": [*ALL_STREETS, "over"]},
        "button": _SEAT_INDEX,
        "seats": {"type": "array", "items": _SEAT_VIEW},
        "board": {"type": "array", "items": _CARD, "maxItems": 5},
        "pots": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"amount": _COUNT, "eligible": {"type": "array"}},
                "required": ["amount", "eligible"],
            },
        },
        "total_pot": _COUNT,
        "current_bet": _COUNT,
        "actor": {"type": ["integer", "null"]},
        "legal": {"oneOf": [_LEGAL, {"type": "null"}]},
        "log": {"type": "array", "items": {"type": "string"}},
        "result": {"type": ["object", "null"]},
    },
    "required": ["viewer", "street", "button", "seats", "board", "pots", "actor", "legal"],
}

STATE = {
    "title": "state",
    "description": "The whole table for this viewer. Without frames=diff: sent on connecting "
    "and after every change, with html (versions only grow; a client that missed one needs "
    "nothing: the next is whole). With frames=diff: sent on connecting and in reply to sync, "
    "without html; each change after it comes as an update.",
    "type": "object",
    "properties": {
        "type": {"const": "state"},
        "state": {"$ref": "#/components/schemas/playState"},
        "version": _COUNT,
        "hand": {"type": ["integer", "null"], "description": "The hand on screen's id."},
        "running": {"type": "boolean"},
        "view": {"oneOf": [VIEW, {"type": "null"}]},
        "me": {
            "type": "object",
            "properties": {name: {"type": ["boolean", "null"]} for name in protocol.STATE_ME_FIELDS}
            | {"stack": {"type": ["integer", "null"]}},
            "required": list(protocol.STATE_ME_FIELDS),
        },
        "html": {"type": "string", "description": "The same, as the browser's HTML regions."},
        "answer": INLINE_ANSWER,
    },
    "required": ["type", "state", "version", "hand", "running", "view", "me"],
}

_PATCH_OPERATION = {
    "type": "array",
    "description": "One operation at a JSON Pointer (RFC 6901) into the state frame, less its "
    "type and version (JSON Patch's, RFC 6902, spelt short): [path, value] sets the value "
    "there (adds or replaces an object member, replaces a list item, appends to a list at a "
    'path ending /-; "" is the whole document), [path] removes it.',
    "prefixItems": [{"type": "string", "pattern": "^(/([^~/]|~[01])*)*$"}, {}],
    "minItems": 1,
    "maxItems": 2,
}

UPDATE = {
    "title": "update",
    "description": "A frames=diff socket's change: the operations, in order, that turn the "
    "state frame at base (the version the client holds: the last state or update this "
    "socket sent) into the state frame at version. A client holding another version sends "
    "sync and gets the whole state again.",
    "type": "object",
    "properties": {
        "type": {"const": "update"},
        "version": _COUNT,
        "base": _COUNT,
        "patch": {"type": "array", "items": _PATCH_OPERATION},
        "answer": INLINE_ANSWER,
    },
    "required": ["type", "version", "base", "patch"],
    "additionalProperties": False,
}

_CHAT_LINE = {
    "type": "object",
    "properties": {
        "id": {"type": "integer", "minimum": 1},
        "player_id": {"type": "integer", "minimum": 1},
        "player": {"type": "string"},
        "text": {"type": "string", "maxLength": 280},
        "at": {"type": "string", "format": "date-time"},
    },
    "required": ["id", "player_id", "player", "text", "at"],
    "additionalProperties": False,
}

CHAT = {
    "title": "chat",
    "description": "Chat lines, oldest first: on connecting the last 100 (replace true), then "
    "each new line as it is said (replace false). Text is as typed: escape it to show it.",
    "type": "object",
    "properties": {
        "type": {"const": "chat"},
        "lines": {"type": "array", "items": _CHAT_LINE},
        "replace": {"type": "boolean"},
    },
    "required": ["type", "lines", "replace"],
    "additionalProperties": False,
}

CHAT_MUTE = {
    "title": "chat_mute",
    "description": "The host muted or unmuted a player's chat at this game.",
    "type": "object",
    "properties": {
        "type": {"const": "chat_mute"},
        "player_id": {"type": "integer", "minimum": 1},
        "player": {"type": "string"},
        "muted": {"type": "boolean"},
    },
    "required": ["type", "player_id", "muted"],
}

#: The play state (``tables.presenters.play_state``, the REST API's too) as a component: the
#: state frame's ``state``.
PLAY_STATE_COMPONENT = {key: value for key, value in PLAY_STATE.items() if key[0] != "$"}
