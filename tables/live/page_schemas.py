"""The table socket as the site's own page speaks it (htmx), as JSON Schemas.

A socket opened without ``?state=json`` belongs to the table page: its requests are the
same operations as a program's (``tables.live.schemas.REQUESTS``), sent by htmx's ws
extension as a JSON object of the form's fields (text: "12", not 12) and the hx-vals, with
``HEADERS`` (htmx's request headers) beside them; the server reads only the operation's
fields. What it receives is HTML for htmx to swap in by id (out-of-band swaps): every frame
is one or more top-level elements, each with the ``id`` of the region it replaces and
``hx-swap-oob``.

A JSON Schema can say of an HTML string only what a pattern can (here: it opens with one
of the known elements); the rest of its structure is stated as a JSON Schema of its
top-level elements (``x-top-level-elements``: each ``{"tag", "id", "hx-swap-oob"}``, in
order), which a client checks after parsing the frame as HTML (``tests/frames.py`` does).
"""

from __future__ import annotations

import re

from tables.live.schemas import REQUESTS, JsonSchema
from tables.operations import MOST_SEATS
from tables.presenters.render import REGIONS

#: htmx's request headers, as its ws extension sends them (``HEADERS``).
HTMX_HEADERS = {
    "type": "object",
    "description": "htmx's request headers: the element that sent the frame (id, name), "
    "its target's id and the page's address. Not read by the server.",
    "properties": {
        "HX-Request": {"const": "true"},
        "HX-Trigger": {"type": ["string", "null"]},
        "HX-Trigger-Name": {"type": ["string", "null"]},
        "HX-Target": {"type": ["string", "null"]},
        "HX-Current-URL": {"type": "string", "format": "uri"},
    },
    "required": ["HX-Request", "HX-Current-URL"],
    "additionalProperties": True,
}


def _page_request(op: str) -> JsonSchema:
    """The page's frame for ``op``: the program's request, plus ``HEADERS``."""
    return {
        "title": f"{op} request from the page",
        "description": f"The table page's {op} request (htmx ws-send): "
        + REQUESTS[op]["description"],
        "allOf": [{"$ref": f"#/components/schemas/{op}Request"}],
        "type": "object",
        "properties": {"HEADERS": HTMX_HEADERS},
        "required": ["HEADERS"],
    }


#: The operations the page sends (``auth`` is a program's: a page logs in by its cookie;
#: ``sync`` too: a page that reconnects is sent the whole table anyway).
PAGE_REQUESTS: dict[str, JsonSchema] = {
    op: _page_request(op) for op in REQUESTS if op not in ("auth", "sync")
}


def _html(
    title: str, description: str, elements: dict[str, tuple[str, tuple[str, ...]]]
) -> JsonSchema:
    """An HTML frame whose top-level elements are among ``elements``: id -> (tag, the
    hx-swap-oob values it may carry)."""
    ids = "|".join(re.escape(element_id) for element_id in elements)
    tags = sorted({tag for tag, _ in elements.values()})
    return {
        "title": title,
        "description": description,
        "type": "string",
        "contentMediaType": "text/html",
        "pattern": rf'^\s*<(?:{"|".join(tags)})\s[^>]*\bid="(?:{ids})"',
        "x-top-level-elements": {
            "type": "array",
            "minItems": 1,
            "items": {
                "oneOf": [
                    {
                        "type": "object",
                        "properties": {
                            "tag": {"const": tag},
                            "id": {"const": element_id},
                            "hx-swap-oob": {"enum": list(swaps)},
                        },
                        "required": ["tag", "id", "hx-swap-oob"],
                        "additionalProperties": False,
                    }
                    for element_id, (tag, swaps) in elements.items()
                ]
            },
            "uniqueItems": True,
        },
    }


PAGE_UPDATES: dict[str, JsonSchema] = {
    "regionsHtml": _html(
        "table regions",
        "The table for this viewer: on connecting every region of the screen (seats, board, "
        "actions, controls, log); after a change only what changed since the socket's last "
        "frame: a region, or a seat alone (seat-<n>) while the seats region's own element is "
        "unchanged (its cards kept by hx-preserve when they did not change), the board's pots "
        "alone (table-pots), the viewer's stack alone (table-my-stack), or the hand log's new "
        "lines "
        "(table-log-lines, beforeend: appended). Each to swap in by id.",
        {
            **{f"table-{region}": ("div", ("true",)) for region in REGIONS},
            **{f"seat-{n}": ("div", ("true",)) for n in range(1, MOST_SEATS + 1)},
            "table-pots": ("div", ("true",)),
            "table-my-stack": ("span", ("true",)),
            "table-log-lines": ("ol", ("beforeend",)),
        },
    ),
    "messageHtml": _html(
        "message line",
        "The answer to this page's own request (or news for this viewer alone, such as a "
        "mute): the message line, empty to clear it.",
        {"table-message": ("div", ("true",))},
    ),
    "chatLinesHtml": _html(
        "chat lines",
        "The chat: the last lines on connecting (hx-swap-oob true: the whole list), then "
        "each new line (beforeend: appended).",
        {"chat-lines": ("ol", ("true", "beforeend"))},
    ),
    "chatMutedHtml": _html(
        "muted players",
        "For the host: the players muted at this game, each with an unmute button.",
        {"chat-muted": ("div", ("true",))},
    ),
}
