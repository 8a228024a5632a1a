"""``/api/asyncapi.json``: the table socket's protocol (``tables.live.asyncapi``), public."""

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from tables.api.permissions import AllowAny
from tables.live.asyncapi import asyncapi_document


@extend_schema(exclude=True)  # a document of its own, not an operation of this API
class AsyncAPIDocument(APIView):
    """The socket protocol as AsyncAPI 3 JSON (every message's JSON Schema, the close codes)."""

    permission_classes = [AllowAny]
    authentication_classes: list = []

    def get(self, request):
        return Response(asyncapi_document())
