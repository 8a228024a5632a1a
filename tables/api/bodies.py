"""Every request body sent to the API is checked once, before any view: a body that cannot be
read gets a JSON ``400`` with a ``code`` and changes nothing, whichever endpoint it was sent
to and whether or not that view reads its body.

DRF parses a body only when a view reads ``request.data``, and its JSON parser lets Python's
decoder run out of stack (a ``RecursionError``: 1,000 nested ``[`` answered a 500 page) and
take ``1e400`` as infinity. ``RequestBodyMiddleware`` reads every ``/api/`` body first:

- JSON (``application/json``): strict UTF-8 (no byte order guessing), standard JSON only
  (no ``NaN``/``Infinity``), nested at most ``MAX_DEPTH`` deep, every number a finite float
  or an integer within 64 bits (what a chip count, an id or a version can be): else ``400``
  ``parse_error``.
- Forms: ``multipart/form-data`` and urlencoded bodies are parsed by Django as the views would;
  a malformed one (no boundary) or one over Django's field limit (1,000 fields) is ``400``
  ``parse_error``. Any text is a urlencoded form.
  (daphne's HTTP server answers some malformed multipart bodies itself, before the site:
  README, "Known limits".)
- Any other content type: ``415`` ``unsupported_media_type``.
- Past ``DATA_UPLOAD_MAX_MEMORY_SIZE``: ``413`` ``request_too_large``.

The error body has the shape of every API error (``tables.api.exceptions``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from io import BytesIO
from typing import Any

from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.http.multipartparser import MultiPartParserError

#: How deep objects and arrays may nest in a request (the API's deepest body is 3).
MAX_DEPTH = 32
#: The largest integer the API takes anywhere (a 64-bit signed database column).
MAX_INTEGER = 2**63 - 1
FORM_TYPE = "application/x-www-form-urlencoded"


class BadBody(ValueError):
    """A request body the API cannot read; the message says why, for a person."""


def parse_json(body: bytes) -> Any:
    """The JSON value of ``body``, or ``BadBody`` saying what is wrong with it."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BadBody(f"The body is not UTF-8 (byte {error.start}).") from None
    try:
        value = json.loads(
            text, parse_constant=_no_constant, parse_float=_finite, parse_int=_bounded
        )
    except RecursionError:
        raise BadBody(f"JSON nested more than {MAX_DEPTH} levels deep.") from None
    except BadBody:
        raise
    except ValueError as error:  # JSONDecodeError, and ours (BadBody is a ValueError)
        raise BadBody(f"JSON parse error - {error}") from None
    if _depth(value) > MAX_DEPTH:
        raise BadBody(f"JSON nested more than {MAX_DEPTH} levels deep.")
    return value


def _no_constant(name: str) -> float:
    raise BadBody(f"{name} is not a JSON number.")


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise BadBody(f"The number {text[:20]} is too large.")
    return number


def _bounded(text: str) -> int:
    if len(text.lstrip("-")) > 19:  # more digits than any 64-bit integer: not even converted
        raise BadBody(f"The number {text[:20]}... is too large.")
    number = int(text)
    if abs(number) > MAX_INTEGER:
        raise BadBody(f"The number {text} is too large.")
    return number


def _depth(value: Any) -> int:
    """How deep ``value``'s lists and dicts nest (iterative: no recursion to exhaust)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, level)
            if level <= MAX_DEPTH:
                stack.extend((child, level + 1) for child in item)
    return deepest


def _error(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse({"code": code, "message": message}, status=status)


class RequestBodyMiddleware:
    """Answers an ``/api/`` request whose body cannot be read (see the module docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info.startswith("/api/") and _has_body(request):
            refusal = _refusal(request)
            if refusal is not None:
                return refusal
        return self.get_response(request)


def _has_body(request: HttpRequest) -> bool:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0) > 0
    except ValueError:
        return True  # a nonsense length: let the checks below refuse the body


def _parse_multipart(request: HttpRequest) -> None:
    """Parse a multipart body as the views would; for a POST Django keeps the result (DRF
    reads it from there), other methods' bodies are parsed here only to be checked."""
    if request.method == "POST":
        request.POST  # noqa: B018 - parsed now, and kept
    else:
        request.parse_file_upload(request.META, BytesIO(request.body))


def _parse_form(request: HttpRequest) -> None:
    """Parse a urlencoded body as the views would (Django's field limit,
    ``DATA_UPLOAD_MAX_NUMBER_FIELDS``, refuses it here rather than as an HTML page later)."""
    if request.method == "POST":
        request.POST  # noqa: B018 - parsed now, and kept
    else:
        QueryDict(request.body, encoding=request.encoding)


def _refusal(request: HttpRequest) -> JsonResponse | None:
    content_type = request.content_type or ""
    if not content_type:
        return None  # nothing says what the body is: no view reads it (DRF neither)
    try:
        if content_type == "application/json":
            parse_json(request.body)
        elif content_type == "multipart/form-data":
            _parse_multipart(request)
        elif content_type == FORM_TYPE:
            _parse_form(request)
        else:
            return _error(
                415, "unsupported_media_type", f'Unsupported media type "{content_type}".'
            )
    except RequestDataTooBig:
        return _error(413, "request_too_large", "The request body is too large.")
    except (BadBody, MultiPartParserError) as error:
        return _error(400, "parse_error", str(error))
    except SuspiciousOperation as error:  # too many fields or files in a form
        return _error(400, "parse_error", str(error))
    return None
