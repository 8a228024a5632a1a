"""The night's ledger of a game, its settle-up and (once a private game is closed) its seeds.

``GET /api/tables/<id>/ledger/`` (JSON), ``.../ledger.csv`` and ``.../settlement/``. Public like
the table itself; a private game answers 404 to anyone who may not see it
(``tables.selectors.access.can_see_table``), exactly as a table that does not exist.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tables.api.exceptions import ErrorSerializer
from tables.api.files import FileDownloadView, TextFileRenderer
from tables.api.permissions import AllowAny
from tables.api.views import ID, _id
from tables.models import Table
from tables.selectors.access import can_see_table
from tables.selectors.deals import revealed_deals
from tables.selectors.ledger import Ledger, table_ledger

#: The ledger's columns, in the order of the JSON rows and the CSV file.
COLUMNS = (
    "player_id",
    "player",
    "buy_in",
    "rebuys",
    "rebuy_count",
    "top_ups",
    "cash_outs",
    "corrections",
    "at_table",
    "seated",
    "net",
)


class LedgerRowSerializer(serializers.Serializer[Any]):
    player_id = serializers.IntegerField()
    player = serializers.CharField(source="name")
    buy_in = serializers.IntegerField(help_text="The first buy-in at this game.")
    rebuys = serializers.IntegerField(help_text="Later buy-ins (after busting or leaving).")
    rebuy_count = serializers.IntegerField()
    top_ups = serializers.IntegerField()
    cash_outs = serializers.IntegerField()
    corrections = serializers.IntegerField(
        help_text="Chips the host added to the stack (negative: took off it)."
    )
    at_table = serializers.IntegerField(
        help_text="The stack now plus chips bet in the hand being played."
    )
    seated = serializers.BooleanField()
    net = serializers.IntegerField(
        help_text="cash_outs + at_table - buy_in - rebuys - top_ups - corrections."
    )


class DealCheckSerializer(serializers.Serializer[Any]):
    hand_id = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.CharField()
    commitment = serializers.CharField(help_text="sha256(seed), published at the deal.")
    seed = serializers.CharField()
    checks = serializers.BooleanField(
        help_text="The seed hashes to the commitment and gives the deck dealt."
    )
    command = serializers.CharField(help_text="The same check on your own machine.")


class LedgerSerializer(serializers.Serializer[Any]):
    table = serializers.IntegerField(source="table_id")
    version = serializers.IntegerField()
    hand_running = serializers.BooleanField()
    total_net = serializers.IntegerField(help_text="Always 0.")
    rows = LedgerRowSerializer(many=True)
    deals = DealCheckSerializer(
        many=True,
        allow_null=True,
        help_text="Each hand's seed beside its commitment, once a private game is closed; "
        "null until then.",
    )


# ``from`` is a Python keyword: the serializer's fields are given by name.
TransferSerializer = type(
    "TransferSerializer",
    (serializers.Serializer,),
    {
        "from": serializers.CharField(source="payer", help_text="Who pays (lost that much)."),
        "to": serializers.CharField(source="payee", help_text="Who is paid."),
        "amount": serializers.IntegerField(),
        "__doc__": "One transfer that squares the nets: ``from`` pays ``to`` ``amount`` chips.",
    },
)


class SettlementSerializer(serializers.Serializer[Any]):
    table = serializers.IntegerField()
    transfers = TransferSerializer(many=True)


class LedgerUnbalanced(exceptions.APIException):
    """The nets do not sum to zero (chips moved at the table outside its ledger)."""

    status_code = 409
    default_detail = "The nets of this table do not add up to zero: there is nothing to settle."
    default_code = "ledger_unbalanced"


def _visible_table(request: Request, pk: int) -> Table:
    table = Table.objects.filter(pk=_id(pk)).first()
    if table is None or not can_see_table(table, request.user):
        raise exceptions.NotFound("No such table.")
    return table


@extend_schema(
    tags=["tables"], summary="The night's ledger", parameters=[ID], responses=LedgerSerializer
)
class TableLedger(APIView):
    """Per player of the game: buy-in, rebuys, top-ups, cash-outs, stack corrections, chips at
    the table now and the integer ``net``; the nets sum to zero. Once a private game is closed,
    ``deals`` lists each hand's revealed seed beside its commitment."""

    permission_classes = [AllowAny]  # what the table page shows; private games: 404

    def get(self, request: Request, pk: int) -> Response:
        table = _visible_table(request, pk)
        ledger = table_ledger(table)
        body = {
            "table_id": ledger.table_id,
            "version": ledger.version,
            "hand_running": ledger.hand_running,
            "total_net": ledger.total_net,
            "rows": ledger.rows,
            "deals": revealed_deals(table),
        }
        return Response(LedgerSerializer(body).data)


class CSVRenderer(TextFileRenderer):
    media_type = "text/csv"
    format = "csv"


def spreadsheet_safe(name: str) -> str:
    """``name`` as a CSV cell: one a spreadsheet would read as a formula gets a leading
    apostrophe."""
    return f"'{name}" if name[:1] in ("=", "+", "-", "@") else name


def ledger_csv(ledger: Ledger) -> str:
    """The ledger as CSV, a header row then a row per player (a name that a spreadsheet would
    read as a formula is quoted with a leading apostrophe)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for row in LedgerRowSerializer(ledger.rows, many=True).data:
        row = {**row, "player": spreadsheet_safe(row["player"])}
        writer.writerow(row[column] for column in COLUMNS)
    return out.getvalue()


@extend_schema(
    tags=["tables"],
    summary="The night's ledger as CSV",
    parameters=[ID],
    responses={(200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, "A row per player.")},
)
class TableLedgerCSV(FileDownloadView):
    """The ledger as a CSV file to download: a header row, then a row per player."""

    permission_classes = [AllowAny]
    renderer_classes = [JSONRenderer, CSVRenderer]

    def get(self, request: Request, pk: int) -> HttpResponse:
        table = _visible_table(request, pk)
        return self.download(
            ledger_csv(table_ledger(table)), CSVRenderer.media_type, f"ledger-{table.pk}.csv"
        )


@extend_schema(
    tags=["tables"],
    summary="Settle up",
    parameters=[ID],
    responses={
        200: SettlementSerializer,
        409: OpenApiResponse(ErrorSerializer, "The nets do not sum to zero."),
    },
)
class TableSettlement(APIView):
    """The fewest transfers that square the nets of the ledger: at most players - 1, each
    player's transfers add up to their net, nobody both pays and receives. The site moves no
    chips: it tells friends who owes whom."""

    permission_classes = [AllowAny]

    def get(self, request: Request, pk: int) -> Response:
        table = _visible_table(request, pk)
        transfers = table_ledger(table).settle_up()
        if transfers is None:
            raise LedgerUnbalanced()
        return Response(SettlementSerializer({"table": table.pk, "transfers": transfers}).data)
