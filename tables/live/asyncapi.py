"""The table socket's protocol as an AsyncAPI 3 document (served at ``/api/asyncapi.json``),
generated from the schemas in ``tables.live.schemas``: nothing here restates a field."""

from __future__ import annotations

from tables.live import schemas

TITLE = "Poker table socket"


def _description() -> str:
    closes = "\n".join(f"- {code}: {meaning}" for code, meaning in schemas.CLOSE_CODES.items())
    return (
        "The live table: open `/ws/tables/{tableId}/?state=json` and receive the table as "
        "JSON state frames, one after every change; send requests (one JSON object each, "
        "`op` names it) and get one answer per request.\n\n"
        "Log in with the session cookie (a browser, which must send its page's Origin), or "
        "with an API token from `POST /api/auth/token/`: the header "
        '`Authorization: Token <key>`, or the first frame `{"op": "auth", "token": '
        '"<key>"}`. Never in the URL: a token in the query string is ignored.\n\n'
        "Refusals change nothing and carry a stable `code`. Limits: 5 frames a second "
        "(bursts of 10), frames up to 4096 bytes.\n\nClose codes:\n" + closes
    )


def _message(name: str, schema: dict) -> dict:
    return {
        "name": name,
        "title": schema["title"],
        "summary": schema["description"],
        "contentType": "application/json",
        "payload": {"$ref": f"#/components/schemas/{name}"},
    }


def asyncapi_document() -> dict:
    requests = {f"{op}Request": schema for op, schema in schemas.REQUESTS.items()}
    replies = {
        "answer": schemas.ANSWER,
        "state": schemas.STATE,
        "chat": schemas.CHAT,
        "chatMute": schemas.CHAT_MUTE,
    }
    every = requests | replies
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
                            "properties": {"state": {"const": "json"}},
                            "required": ["state"],
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
            "request": {
                "action": "receive",
                "title": "A client's request",
                "channel": {"$ref": "#/channels/table"},
                "messages": [{"$ref": f"#/channels/table/messages/{name}"} for name in requests],
            },
            "update": {
                "action": "send",
                "title": "The server's answers and state frames",
                "channel": {"$ref": "#/channels/table"},
                "messages": [{"$ref": f"#/channels/table/messages/{name}"} for name in replies],
            },
        },
        "components": {
            "schemas": every | {"playState": schemas.PLAY_STATE_COMPONENT},
            "messages": {name: _message(name, schema) for name, schema in every.items()},
        },
        "x-close-codes": {str(code): meaning for code, meaning in schemas.CLOSE_CODES.items()},
    }
