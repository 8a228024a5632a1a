"""The table socket's protocol as an AsyncAPI 3 document (served at ``/api/asyncapi.json``),
generated from the schemas in ``tables.live.schemas`` (programs: ``?state=json``) and
``tables.live.page_schemas`` (the site's page: htmx): nothing here restates a field. The
socket publishes its own protocol (``asyncapi_json``, routed by ``pokersite.urls``), public."""

from __future__ import annotations

from collections.abc import Iterable

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from tables.live import page_schemas, schemas
from tables.live.schemas import JsonSchema

TITLE = "Poker table socket"


def _description() -> str:
    closes = "\n".join(f"- {code}: {meaning}" for code, meaning in schemas.CLOSE_CODES.items())
    return (
        "The live table: open `/ws/tables/{tableId}/?state=json&frames=diff` and receive the "
        "table as one JSON state frame, then one small update after every change (a patch: "
        "the operations from the version you hold, `base`, to the new `version`, each "
        "`[path, value]` to set or `[path]` to remove at a JSON Pointer; on another base, send "
        '`{"op": "sync"}` for the whole state again). Without `frames=diff` every change '
        "sends the whole state with its HTML (the first frames of this protocol, kept for the "
        "clients written before the updates). Send requests (one JSON object each, `op` names "
        "it) and get one answer per request; with `answers=inline` the answer to a request "
        "carried out comes as the `answer` member of the next state or update frame it sends "
        "you (alone when none goes to you; a refusal always alone): one frame fewer per "
        "action.\n\n"
        "Log in with the session cookie (a browser, which must send its page's Origin), or "
        "with an API token from `POST /api/auth/token/`: the header "
        '`Authorization: Token <key>`, or the first frame `{"op": "auth", "token": '
        '"<key>"}`. Never in the URL: a token in the query string is ignored.\n\n'
        "Refusals change nothing and carry a stable `code`. Limits: 5 frames a second "
        "(bursts of 10), frames up to 4096 bytes.\n\n"
        "The site's own table page opens the same socket without `?state=json` and speaks "
        "htmx: it sends the same requests as form fields with htmx's `HEADERS` (the "
        "`pageRequest` operation) and receives HTML, each frame one or more elements that "
        "replace the page's element of the same id (out-of-band swaps: `pageUpdate`).\n\n"
        "Reconnecting: after a dropped connection or a close that asks for it (4011, 4013), "
        "open the socket again after a pause that doubles up to a cap and is jittered (a "
        "random half to all of it: 0.25-0.5 s, then 0.5-1 s, ... up to 15 s; reset once a "
        "socket has given the table, not when it opens: a socket that opened may still be "
        "shed), so a crowd that lost its sockets at one moment does not come back "
        "at one moment; the first frame after it is the whole table again. The handshake "
        "is accepted at once; a server too busy to send the table soon closes with 4013 "
        "rather than let the handshake time out. Other closes are final.\n\n"
        "Close codes:\n" + closes
    )


def _message(name: str, schema: JsonSchema) -> dict[str, object]:
    return {
        "name": name,
        "title": schema["title"],
        "summary": schema["description"],
        "contentType": schema.get("contentMediaType", "application/json"),
        "payload": {"$ref": f"#/components/schemas/{name}"},
    }


def _operation(action: str, title: str, names: Iterable[str]) -> dict[str, object]:
    return {
        "action": action,
        "title": title,
        "channel": {"$ref": "#/channels/table"},
        "messages": [{"$ref": f"#/channels/table/messages/{name}"} for name in names],
    }


def asyncapi_document() -> dict[str, object]:
    requests = {f"{op}Request": schema for op, schema in schemas.REQUESTS.items()}
    replies: dict[str, JsonSchema] = {
        "answer": schemas.ANSWER,
        "state": schemas.STATE,
        "update": schemas.UPDATE,
        "chat": schemas.CHAT,
        "chatMute": schemas.CHAT_MUTE,
    }
    page_requests = {
        f"{op}PageRequest": schema for op, schema in page_schemas.PAGE_REQUESTS.items()
    }
    page_updates = page_schemas.PAGE_UPDATES
    every = requests | replies | page_requests | page_updates
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": TITLE,
            "version": str(schemas.PROTOCOL_VERSION),
            "description": _description(),
        },
        "defaultContentType": "application/json",
        "channels": {
            "table": {
                "address": "/ws/tables/{tableId}/",
                "title": "A table's live socket",
                "parameters": {"tableId": {"description": "The table's id."}},
                "messages": {name: {"$ref": f"#/components/messages/{name}"} for name in every},
                "bindings": {
                    "ws": {
                        "query": {
                            "type": "object",
                            "properties": {
                                "state": {
                                    "const": "json",
                                    "description": "A program's socket (JSON frames); "
                                    "without it, the page's (htmx: HTML frames).",
                                },
                                "frames": {
                                    "const": "diff",
                                    "description": "With state=json: the whole state once, "
                                    "then updates (patches); without it, the whole state "
                                    "with its HTML after every change.",
                                },
                                "answers": {
                                    "const": "inline",
                                    "description": "With state=json: a request carried out is "
                                    "answered inside the state or update frame it brings the "
                                    "sender (its answer member), not in an answer frame of "
                                    "its own before it; refusals come as answer frames.",
                                },
                            },
                        },
                        "headers": {
                            "type": "object",
                            "properties": {
                                "Authorization": {"type": "string", "pattern": "^Token .+$"}
                            },
                        },
                    }
                },
            }
        },
        "operations": {
            "request": _operation("receive", "A program's request", requests),
            "update": _operation("send", "The server's answers and state frames", replies),
            "pageRequest": _operation("receive", "The table page's request (htmx)", page_requests),
            "pageUpdate": _operation("send", "The table page's HTML (htmx swaps)", page_updates),
        },
        "components": {
            "schemas": every | {"playState": schemas.PLAY_STATE_COMPONENT},
            "messages": {name: _message(name, schema) for name, schema in every.items()},
        },
        "x-close-codes": {str(code): meaning for code, meaning in schemas.CLOSE_CODES.items()},
    }


@require_GET
def asyncapi_json(request: HttpRequest) -> JsonResponse:
    """``/api/asyncapi.json``: the socket protocol as AsyncAPI 3 JSON (every message's JSON
    Schema, the close codes); for anyone, logged in or not."""
    return JsonResponse(asyncapi_document())
