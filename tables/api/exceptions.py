"""Errors as JSON: ``{"code": "...", "message": "...", "errors": {...}}`` for every API failure.

``code`` is stable and machine-readable (DRF's codes: ``invalid``, ``not_found``,
``not_authenticated``, ``throttled``...; ours: ``hand_running``, ``locked_out``,
``no_<format>_for_<game>`` (``FormatLacksGame``), and each
``tables.services.errors`` class's ``code``); ``message`` is for a person.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions, serializers
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


class HandNotFinished(exceptions.APIException):
    """A hand still being played is never served (its cards and deck are secret)."""

    status_code = 409
    default_detail = "This hand is still being played: its history is served once it is over."
    default_code = "hand_running"


class FormatLacksGame(exceptions.APIException):
    """A hand asked for in a file format that cannot hold it (five-card draw as PHH, stud as
    pkstate YAML...): its code names the format and the game and betting
    (``no_phh_for_five-card-draw_no-limit``), or the rule the format has no field for
    (``no_yaml_for_bomb-pot``)."""

    status_code = 422
    default_detail = "This file format cannot hold this hand."
    default_code = "format_lacks_game"


class ErrorSerializer(serializers.Serializer[Any]):
    """The body of every error response."""

    code = serializers.CharField(help_text="What went wrong, as a stable machine-readable code.")
    message = serializers.CharField(help_text="What went wrong, for a person to read.")
    # the metaclass moves declared fields out of the class: ``Serializer.errors`` stays
    errors = serializers.DictField(  # type: ignore[assignment]
        required=False, help_text="Per-field problems (only for invalid input)."
    )


def _text(detail: Any) -> str:
    if isinstance(detail, list):
        return " ".join(_text(d) for d in detail)
    if isinstance(detail, dict):
        return " ".join(f"{k}: {_text(v)}" for k, v in detail.items())
    return str(detail)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, with the body reshaped to ``{"message", "errors"?}``."""
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(str(exc) or "Not found.")
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    detail = getattr(exc, "detail", None)
    if isinstance(detail, (dict, list)) and isinstance(exc, exceptions.ValidationError):
        body: dict[str, Any] = {"code": "invalid", "message": "Invalid input: " + _text(detail)}
        if isinstance(detail, dict):
            body["errors"] = detail
        else:
            body["errors"] = {"non_field_errors": detail}
    else:
        body = {"code": _code(exc), "message": _text(detail) if detail is not None else str(exc)}
    return Response(body, status=response.status_code, headers=_headers(response))


def _code(exc: Exception) -> str:
    codes = exc.get_codes() if isinstance(exc, exceptions.APIException) else None
    return codes if isinstance(codes, str) else getattr(exc, "default_code", "error")


def _headers(response: Response) -> dict[str, Any]:
    return {k: v for k, v in response.items() if k in ("Retry-After", "WWW-Authenticate", "Allow")}
