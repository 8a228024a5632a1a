"""The OpenAPI schema class (every operation also documents its JSON error responses), and
``as_openapi``, which gives a JSON Schema to the OpenAPI document (3.0) in the form it takes."""

from __future__ import annotations

from typing import Any, Literal

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema

from tables.api.exceptions import ErrorSerializer

ERROR_CODES = {
    "400": "Invalid input.",
    "401": "Not logged in (session) or no valid token.",
    "403": "Not allowed.",
    "404": "Not found.",
    "405": "Method not allowed.",
    "406": "Cannot produce the requested media type.",
    "429": "Too many requests: slow down (see Retry-After).",
}

#: ``extend_schema(auth=PUBLIC)``: the operation needs no log-in (OpenAPI's empty security
#: requirement ``{}``, listed beside the site's schemes).
PUBLIC: list[str] = [{}]  # type: ignore[list-item]  # the stub says list[str]; the schema needs {}


class AutoSchema(SpectacularAutoSchema):
    def _get_response_bodies(self, direction: Literal["request", "response"] = "response") -> Any:
        responses = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        for code, description in ERROR_CODES.items():
            if code not in responses:
                # drf-spectacular leaves this (private) helper unannotated
                body = self._get_response_for_code(ErrorSerializer, code)  # type: ignore[no-untyped-call]
                body["description"] = description
                responses[code] = body
        return responses


def as_openapi(schema: Any) -> Any:
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
