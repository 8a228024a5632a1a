"""Checks socket frames against the published protocol (``/api/asyncapi.json``).

``FrameChecker(document)`` validates what a client sends against the requests' schemas and
what it receives against the answer and state schemas, with the ``jsonschema`` package, each
``$ref`` resolved inside the document itself; it counts what it checked so a test can say so.
``PageFrameChecker`` does the same for the table page's socket (htmx): its JSON requests,
and its HTML frames, each by its string schema and then, parsed, by the structure of its
top-level elements the document states (``x-top-level-elements``).
"""

from __future__ import annotations

import json
from html.parser import HTMLParser

from jsonschema import Draft202012Validator


def _message_names(document: dict, operation: str) -> list[str]:
    return [ref["$ref"].rsplit("/", 1)[1] for ref in document["operations"][operation]["messages"]]


def _validator(document: dict, operation: str) -> Draft202012Validator:
    payloads = [
        {"$ref": f"#/components/messages/{name}/payload"}
        for name in _message_names(document, operation)
    ]
    schema = {"oneOf": payloads, "components": document["components"]}
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


class FrameChecker:
    def __init__(self, document: dict) -> None:
        self.requests = _validator(document, "request")
        self.updates = _validator(document, "update")
        self.close_codes = {int(code) for code in document["x-close-codes"]}
        self.sent = self.received = 0
        self.kinds: dict[str, int] = {}

    def sent_frame(self, frame: str | dict) -> dict:
        data = json.loads(frame) if isinstance(frame, str) else frame
        self.requests.validate(data)
        self.sent += 1
        return data

    def received_frame(self, frame: str) -> dict:
        data = json.loads(frame)
        self.updates.validate(data)
        self.received += 1
        kind = data["type"] if data["type"] != "answer" else f"answer:{data.get('code', 'ok')}"
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        return data

    def close_code(self, code: int) -> int:
        assert code == 1000 or code in self.close_codes, f"undocumented close code {code}"
        return code


class _TopLevel(HTMLParser):
    """An HTML fragment's top-level elements as ``{"tag", "id", "hx-swap-oob"}`` (the
    attributes a swap by id needs), and any text between them."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "wbr"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.elements: list[dict] = []
        self.stray_text = ""

    def handle_starttag(self, tag, attrs):
        if self.depth == 0:
            named = dict(attrs)
            element = {"tag": tag}
            for key in ("id", "hx-swap-oob"):
                if key in named:
                    element[key] = named[key]
            self.elements.append(element)
        if tag not in self.VOID:
            self.depth += 1

    def handle_endtag(self, tag):
        if tag not in self.VOID:
            self.depth -= 1

    def handle_data(self, data):
        if self.depth == 0:
            self.stray_text += data.strip()


def top_level_elements(html: str) -> list[dict]:
    parser = _TopLevel()
    parser.feed(html)
    parser.close()
    assert parser.depth == 0, f"unbalanced HTML frame: {html[:200]!r}"
    assert not parser.stray_text, f"text outside the elements: {parser.stray_text[:80]!r}"
    return parser.elements


class PageFrameChecker:
    """The table page's socket (htmx) against the document's ``pageRequest`` and
    ``pageUpdate`` operations; counts each kind of frame it checked."""

    def __init__(self, document: dict) -> None:
        self.requests = _validator(document, "pageRequest")
        self.updates = _validator(document, "pageUpdate")
        messages = document["components"]["messages"]
        schemas = document["components"]["schemas"]
        self.html_kinds = {}
        for name in _message_names(document, "pageUpdate"):
            schema = schemas[messages[name]["payload"]["$ref"].rsplit("/", 1)[1]]
            Draft202012Validator.check_schema(schema["x-top-level-elements"])
            self.html_kinds[name] = (
                Draft202012Validator(schema),
                Draft202012Validator(schema["x-top-level-elements"]),
            )
        self.kinds: dict[str, int] = {}

    def _count(self, kind: str) -> None:
        self.kinds[kind] = self.kinds.get(kind, 0) + 1

    def sent_frame(self, frame: str) -> dict:
        data = json.loads(frame)
        self.requests.validate(data)
        self._count(f">{data['op']}")
        return data

    def received_frame(self, frame: str) -> str:
        self.updates.validate(frame)  # exactly one kind of HTML frame (oneOf)
        kind = next(name for name, (text, _) in self.html_kinds.items() if text.is_valid(frame))
        self.html_kinds[kind][1].validate(top_level_elements(frame))
        self._count(f"<{kind}")
        return kind
