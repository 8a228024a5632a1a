"""The JSON Schemas of what the play API sends, one file each, read once.

``PLAY_STATE``: the play state (``tables.presenters.play_state``), answered by the REST play
endpoints and carried by the ``?state=json`` socket's state frames. ``as_openapi`` gives a
schema to the OpenAPI document (3.0) in the form it takes.
"""

import json
from pathlib import Path

_HERE = Path(__file__).parent


def load(name: str) -> dict:
    """The schema ``<name>.json`` in this folder."""
    return json.loads((_HERE / f"{name}.json").read_text(encoding="utf-8"))


PLAY_STATE = load("play_state")


def as_openapi(schema):
    """A JSON Schema (2020-12) as an OpenAPI 3.0 schema object, for ``/api/schema/``: a
    ``oneOf`` with ``{"type": "null"}`` becomes ``nullable``, ``const`` a one-value ``enum``,
    and the ``$schema``/``$id`` keywords go."""
    if isinstance(schema, list):
        return [as_openapi(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: as_openapi(v) for k, v in schema.items() if k not in ("$schema", "$id")}
    if "const" in out:
        out["enum"] = [out.pop("const")]
    choices = out.get("oneOf")
    if choices is not None and {"type": "null"} in choices:
        rest = [c for c in choices if c != {"type": "null"}]
        out.pop("oneOf")
        if len(rest) == 1:
            out = {**rest[0], **out, "nullable": True}
        else:
            out = {**out, "oneOf": rest, "nullable": True}
    return out
