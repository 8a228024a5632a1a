"""``/api/imports/``: PokerNow logs a player uploads (``tables.imports``), listed and shown.

``POST /api/imports/pokernow/`` (multipart: ``log``, ``pokernow_name``, optional ``ledger``)
imports in one transaction the hands ``pokernow_name`` sat in; the refusals change nothing:
400 ``not_pokernow_log`` (naming the first line it cannot read), 400 ``name_not_in_log``
(with the names the log has), 400 ``bad_ledger``, 400 ``import_too_large``, 400
``already_imported`` (no new hand of the player's in the log). Each player
sees only their own imports (another's answers 404).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import exceptions, generics, serializers
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tables.api.exceptions import ErrorSerializer
from tables.api.pagination import Pagination
from tables.api.permissions import IsAuthenticated
from tables.api.serializers import StatCountsSerializer
from tables.api.views import ID, _id
from tables.imports import services
from tables.imports.errors import ImportRefused, ImportTooLarge, NotPokerNowLog
from tables.imports.models import ImportedHand, PokerNowImport
from tables.imports.selectors import (
    import_hands,
    import_totals,
    player_import,
    player_imported_hands,
    player_imports,
)
from tables.models import Player
from tables.stats.pokernow import import_stats


class ImportRefusedError(exceptions.APIException):
    """An upload refused by the service: its ``code``, its message; nothing was imported."""

    status_code = 400

    def __init__(self, error: ImportRefused) -> None:
        super().__init__(detail=str(error), code=error.code)


class ImportUploadSerializer(serializers.Serializer[Any]):
    log = serializers.FileField(help_text="PokerNow's full log CSV (`entry,at,order`).")
    pokernow_name = serializers.CharField(help_text="Your PokerNow name, `name @ id`.")
    ledger = serializers.FileField(required=False, help_text="The night's ledger CSV.")


class ImportSkippedSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    reason = serializers.CharField()


class ImportLedgerNetSerializer(serializers.Serializer[Any]):
    player = serializers.CharField()
    net = serializers.CharField(help_text="As PokerNow printed it.")


class ImportTransferSerializer(serializers.Serializer[Any]):
    payer = serializers.CharField()
    payee = serializers.CharField()
    amount = serializers.CharField()


class ImportedHandSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    pokernow_id = serializers.CharField()
    variant = serializers.CharField()
    net = serializers.IntegerField(help_text="Your result, in whole units of `unit`.")
    ev_net = serializers.FloatField(
        allow_null=True,
        help_text="Your all-in EV in units of `unit` (the net without an all-in); null when a "
        "hand at the all-in was never shown.",
    )
    phh = serializers.CharField(help_text="The hand as PHH (only the cards the log shows).")


class ImportedHandRowSerializer(ImportedHandSerializer):
    """A hand in the list across imports: which import it came from, marked as PokerNow's."""

    imported_from = serializers.SerializerMethodField(help_text='Always "pokernow".')
    import_id = serializers.IntegerField(source="pokernow_import_id")
    unit = serializers.CharField(source="pokernow_import.unit", help_text="One chip of `net`.")

    def get_imported_from(self, hand: ImportedHand) -> str:
        return "pokernow"


class ImportStatsSerializer(serializers.Serializer[Any]):
    """The figures of ``/api/players/<id>/stats/`` over the import's hands (their engine
    replays), in the import's unit: never added to play chips or the leaderboard."""

    imported_from = serializers.CharField(help_text='Always "pokernow".')
    unit = serializers.CharField(help_text="One chip of `net_won` and `biggest_pot_won`.")
    hands = serializers.IntegerField()
    vpip = serializers.FloatField(allow_null=True)
    pfr = serializers.FloatField(allow_null=True)
    three_bet = serializers.FloatField(allow_null=True)
    aggression_factor = serializers.FloatField(allow_null=True)
    wtsd = serializers.FloatField(allow_null=True)
    wsd = serializers.FloatField(allow_null=True)
    cash_hands = serializers.IntegerField()
    net_won = serializers.IntegerField()
    bb_per_100 = serializers.FloatField(allow_null=True)
    biggest_pot_won = serializers.IntegerField()
    counts = StatCountsSerializer()  # the same counts as a player's own statistics


class ImportSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    imported_from = serializers.SerializerMethodField(help_text='Always "pokernow".')
    pokernow_name = serializers.CharField()
    filename = serializers.CharField()
    unit = serializers.CharField(help_text="One chip of the hands, in PokerNow's amounts.")
    created_at = serializers.DateTimeField()
    hands_in_log = serializers.IntegerField()
    imported = serializers.IntegerField(help_text="New hands of yours.")
    already_imported = serializers.IntegerField(help_text="Yours, imported before.")
    skipped = ImportSkippedSerializer(many=True)
    ledger = ImportLedgerNetSerializer(many=True)
    settlement = ImportTransferSerializer(many=True)

    def get_imported_from(self, upload: PokerNowImport) -> str:
        return "pokernow"


class ImportDetailSerializer(ImportSerializer):
    net = serializers.SerializerMethodField(help_text="Your net over the imported hands.")
    hands = serializers.SerializerMethodField()
    stats = serializers.SerializerMethodField()

    @extend_schema_field(ImportStatsSerializer)
    def get_stats(self, upload: PokerNowImport) -> dict[str, Any]:
        return import_stats(upload)

    def get_net(self, upload: PokerNowImport) -> int:
        return import_totals(upload).net

    @extend_schema_field(ImportedHandSerializer(many=True))
    def get_hands(self, upload: PokerNowImport) -> list[dict[str, Any]]:
        return list(ImportedHandSerializer(import_hands(upload), many=True).data)


def _player(request: Request) -> Player:
    player = getattr(request.user, "player", None)
    if not isinstance(player, Player):
        raise exceptions.NotFound("You have no player profile.")
    return player


def _text(upload: Any, limit: int) -> str:
    if upload.size > limit:
        raise ImportRefusedError(
            ImportTooLarge(f"the file is {upload.size} bytes: at most {limit} are read")
        )
    try:
        return str(upload.read().decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise ImportRefusedError(NotPokerNowLog("the file is not text (UTF-8)")) from None


@extend_schema(tags=["imports"])
class PokerNowUpload(APIView):
    """Upload a PokerNow log (and optionally the night's ledger) and import the hands your
    PokerNow name sat in, marked as imported and never counted in play chips."""

    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser]

    @extend_schema(
        summary="Import a PokerNow log",
        request={"multipart/form-data": ImportUploadSerializer},
        responses={
            201: ImportSerializer,
            400: OpenApiResponse(
                ErrorSerializer,
                "Nothing imported: `not_pokernow_log`, `name_not_in_log`, `bad_ledger`, "
                "`import_too_large`, `already_imported` or `invalid`.",
            ),
        },
    )
    def post(self, request: Request) -> Response:
        player = _player(request)
        body = ImportUploadSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        log_text = _text(data["log"], services.MAX_LOG_BYTES)
        ledger = data.get("ledger")
        ledger_text = _text(ledger, services.MAX_LEDGER_BYTES) if ledger else ""
        try:
            upload = services.pokernow_import(
                player=player,
                log_text=log_text,
                pokernow_name=data["pokernow_name"],
                ledger_text=ledger_text,
                filename=str(data["log"].name or ""),
            )
        except ImportRefused as error:
            raise ImportRefusedError(error) from None
        return Response(ImportSerializer(upload).data, status=201)


@extend_schema(
    tags=["imports"], summary="Your imports", responses={200: ImportSerializer(many=True)}
)
class ImportList(APIView):
    """Your uploads, newest first."""

    permission_classes = [IsAuthenticated]

    def get(self, request: Request) -> Response:
        uploads = player_imports(_player(request))
        return Response(ImportSerializer(uploads, many=True).data)


@extend_schema(
    tags=["imports"],
    summary="One of your imports, with its hands",
    parameters=[ID],
    responses={200: ImportDetailSerializer, 404: OpenApiResponse(ErrorSerializer, "Not yours.")},
)
class ImportDetail(APIView):
    permission_classes = [IsAuthenticated]

    def get(self, request: Request, pk: str) -> Response:
        upload = player_import(_player(request), _id(pk))
        if upload is None:
            raise exceptions.NotFound("No such import.")
        return Response(ImportDetailSerializer(upload).data)


@extend_schema(tags=["imports"], summary="Every hand you imported")
class ImportedHandList(generics.ListAPIView[ImportedHand]):
    """Your imported hands across imports, newest import first, each marked
    ``"imported_from": "pokernow"``; apart from ``/api/hands/`` (play-chip hands only)."""

    permission_classes = [IsAuthenticated]
    serializer_class = ImportedHandRowSerializer
    pagination_class = Pagination

    def get_queryset(self) -> Any:
        return player_imported_hands(_player(self.request))
