"""Checks socket frames against the published protocol (``/api/asyncapi.json``).

``FrameChecker(document)`` validates what a client sends against the requests' schemas and
what it receives against the answer and state schemas, with the ``jsonschema`` package, each
``$ref`` resolved inside the document itself; it counts what it checked so a test can say so.
"""

from __future__ import annotations

import json

from jsonschema import Draft202012Validator


def _validator(document: dict, operation: str) -> Draft202012Validator:
    payloads = [
        {"$ref": f"#/components/messages/{ref['$ref'].rsplit('/', 1)[1]}/payload"}
        for ref in document["operations"][operation]["messages"]
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
