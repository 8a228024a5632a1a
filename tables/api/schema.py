"""The OpenAPI schema class: every operation also documents its JSON error responses."""

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


class AutoSchema(SpectacularAutoSchema):
    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        for code, description in ERROR_CODES.items():
            if code not in responses:
                body = self._get_response_for_code(ErrorSerializer, code)
                body["description"] = description
                responses[code] = body
        return responses
