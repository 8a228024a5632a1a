"""Files to download from the API (a hand's PHH or YAML, a ledger's CSV): the text as it is
on success, JSON errors whatever the file type asked for."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import HttpResponse
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView


class TextFileRenderer(BaseRenderer):
    """A file's text as it is (the view builds the response; errors stay JSON)."""

    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        return data.encode() if isinstance(data, str) else b""


class FileDownloadView(APIView):
    """A view whose success is a file (``download``) and whose errors are JSON."""

    def download(self, text: str, media_type: str, filename: str) -> HttpResponse:
        response = HttpResponse(text, content_type=f"{media_type}; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        if isinstance(response, Response) and response.status_code >= 400:
            request.accepted_renderer = JSONRenderer()  # errors are JSON, whatever was asked
            request.accepted_media_type = "application/json"
        return super().finalize_response(request, response, *args, **kwargs)
