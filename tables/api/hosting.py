"""The API of hosted games: start one, change it, its invite link, closing it, the host's
controls over its players, and seat requests.

Thin: each call is one service of ``tables.services.hosting`` / ``seat_requests``. Errors:
400 naming the field (``errors``), 403 ``not_host`` for a host control by anyone else, 404 for
a private game the caller may not see (exactly as for a table that does not exist), and the
service's own ``code`` for any other refusal; nothing changes on error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import exceptions, serializers, status
from rest_framework.parsers import JSONParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer
from rest_framework.views import APIView

from tables.api import views
from tables.api.exceptions import ErrorSerializer
from tables.api.hosting_serializers import (
    AskSerializer,
    GameSettingsSerializer,
    HostedTableSerializer,
    NewGameSerializer,
    PlayerControlSerializer,
    SeatRequestSerializer,
)
from tables.api.permissions import AuthenticatedApiRequest, ReadOrLoggedIn
from tables.clubs import services as club_services
from tables.clubs.errors import NoSuchClub
from tables.models import Player, SeatRequest, Table
from tables.operations import in_table_turn
from tables.selectors.access import can_host, can_see_table
from tables.selectors.hosting import live_requests
from tables.services import host_seats, hosting, seat_requests
from tables.services.errors import InvalidSettings, NoSuchRequest, NotHost, ServiceError
from tables.services.players import player_get_or_create

ID = views.ID
#: A refusal in the game's present state (``code``: too_many_games, table_closed, ...).
CONFLICT = OpenApiResponse(ErrorSerializer, "Refused now: the code says why.")


class ServiceRefused(exceptions.APIException):
    """A service's refusal, with its stable code."""

    status_code = 400
    default_code = "refused"

    def __init__(self, error: ServiceError):
        super().__init__(str(error), code=error.code)
        if isinstance(error, NotHost):
            self.status_code = 403
        elif isinstance(error, NoSuchRequest):
            self.status_code = 404
        else:
            self.status_code = 409


def refused(error: ServiceError) -> exceptions.APIException:
    """The API's answer to a service's refusal."""
    if isinstance(error, InvalidSettings):
        return exceptions.ValidationError({k: [v] for k, v in error.errors.items()})
    return ServiceRefused(error)


# --- serializers --------------------------------------------------------------------------
def _visible(request: Request, pk: int) -> Table:
    table = Table.objects.filter(pk=views._id(pk)).select_related("host__user").first()
    if table is None or not can_see_table(table, request.user):
        raise exceptions.NotFound("No such table.")
    return table


def _hosted(request: Request, pk: int) -> Table:
    table = _visible(request, pk)
    if not can_host(table, request.user):  # the service's own refusal, as documented
        raise refused(NotHost("Only the game's host can do that."))
    return table


def _table_body(request: Request, table: Table) -> dict[str, Any]:
    fresh = views._tables().select_related("host__user").get(pk=table.pk)
    return HostedTableSerializer(fresh, context={"request": request}).data


# --- views ------------------------------------------------------------------------------------
@extend_schema(tags=["tables"])
class TableListCreate(views.TableList):
    """``GET``: the tables you may see (private games only for their host, players and
    guests). ``POST``: start a game you host (201)."""

    permission_classes = [ReadOrLoggedIn]
    parser_classes = [JSONParser]
    serializer_class = HostedTableSerializer

    def get_queryset(self) -> QuerySet[Any]:
        return super().get_queryset().select_related("host__user")

    @extend_schema(
        summary="Start a game",
        request=NewGameSerializer,
        responses={201: HostedTableSerializer, 409: CONFLICT},
    )
    def post(self, request: AuthenticatedApiRequest) -> Response:
        data = NewGameSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = player_get_or_create(user=request.user)
        settings = dict(data.validated_data)
        club = settings.pop("club", None)
        try:
            if club is None:
                table = hosting.table_create(host=player, **settings)
            else:
                table = club_services.club_table_create(club=club, by=player, **settings)
        except NoSuchClub:
            raise exceptions.NotFound("There is no such club.") from None
        except ServiceError as error:
            raise refused(error) from None
        return Response(_table_body(request, table), status=status.HTTP_201_CREATED)


@extend_schema(tags=["tables"], parameters=[ID])
class TableDetailUpdate(views.TableDetail):
    """``GET``: a table you may see. ``PATCH``: the host changes its settings; the answer
    lists those in effect now (``applied``) and those waiting for the next hand (``waiting``)."""

    permission_classes = [ReadOrLoggedIn]
    parser_classes = [JSONParser]
    serializer_class = HostedTableSerializer

    @extend_schema(
        summary="Change a game (host)",
        request=GameSettingsSerializer,
        responses={
            200: inline_serializer(
                "HostUpdate",
                {
                    "table": HostedTableSerializer(),
                    "applied": serializers.ListField(child=serializers.CharField()),
                    "waiting": serializers.ListField(child=serializers.CharField()),
                },
            ),
            409: CONFLICT,
        },
    )
    def patch(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        table = _hosted(request, pk)
        data = GameSettingsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            update = in_table_turn(
                table.pk,
                lambda: hosting.table_host_update(
                    table=table, by=request.user, changes=data.validated_data
                ),
                "command host change",
            )
        except ServiceError as error:
            raise refused(error) from None
        return Response(
            {
                "table": _table_body(request, table),
                "applied": update.applied,
                "waiting": update.waiting,
            }
        )


def _control(
    summary: str,
    response: Serializer[Any],
    run: Callable[[AuthenticatedApiRequest, Table], dict[str, Any]],
) -> type[APIView]:
    """A ``POST`` host control on ``/api/tables/<id>/...`` running ``run(request, table)`` (in
    the turn of the table's runtime, where this process runs the table)."""
    name = f"command host {summary.lower()}"

    @extend_schema(
        tags=["hosting"],
        summary=summary,
        parameters=[ID],
        request=None,
        responses={200: response, 409: CONFLICT},
    )
    def post(self: APIView, request: AuthenticatedApiRequest, pk: int) -> Response:
        table = _hosted(request, pk)
        try:
            return Response(in_table_turn(table.pk, lambda: run(request, table), name))
        except ServiceError as error:
            raise refused(error) from None

    return type(
        summary.title().replace(" ", ""), (APIView,), {"post": post, "parser_classes": [JSONParser]}
    )


_STATE = inline_serializer(
    "HostState", {"status": serializers.CharField(), "done_now": serializers.BooleanField()}
)

InviteReplace = _control(
    "Replace the invite link",
    inline_serializer("Invite", {"invite_url": serializers.URLField()}),
    lambda request, table: {
        "invite_url": HostedTableSerializer(
            hosting.table_invite_replace(table=table, by=request.user), context={"request": request}
        ).data["invite_url"]
    },
)


def _state(table_pk: int, done_now: bool) -> dict[str, Any]:
    return {"status": Table.objects.get(pk=table_pk).status, "done_now": done_now}


TableCloseView = _control(
    "Close the game",
    _STATE,
    lambda request, table: _state(table.pk, hosting.table_host_close(table=table, by=request.user)),
)
TablePause = _control(
    "Pause the game",
    _STATE,
    lambda request, table: _state(
        table.pk, bool(hosting.table_host_pause(table=table, by=request.user))
    ),
)
TableResume = _control(
    "Resume the game",
    _STATE,
    lambda request, table: _state(
        table.pk, bool(hosting.table_host_resume(table=table, by=request.user))
    ),
)

TableBombPot = _control(
    "Call a bomb pot",
    inline_serializer("BombPot", {"bomb_pot_next": serializers.BooleanField()}),
    lambda request, table: {
        "bomb_pot_next": hosting.table_host_bomb_pot(table=table, by=request.user).bomb_pot_next
    },
)

PLAYER = OpenApiParameter("player_id", OpenApiTypes.INT, OpenApiParameter.PATH)


@extend_schema(tags=["hosting"], parameters=[ID, PLAYER])
class PlayerControl(APIView):
    """The host's controls over one player: remove and sit out (now, or when the hand they are
    in ends: they play it out), make host, correct stack (through the ledger; during their
    hand, the stack asked minus the stack shown now is added at its end, keeping its result).
    ``done_now`` false: it waits for that hand's end."""

    parser_classes = [JSONParser]

    @extend_schema(
        summary="Control a player (host)",
        request=PlayerControlSerializer,
        responses={200: _STATE, 409: CONFLICT},
    )
    def post(self, request: AuthenticatedApiRequest, pk: int, player_id: int) -> Response:
        table = _hosted(request, pk)
        body = PlayerControlSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        player = Player.objects.filter(pk=views._id(player_id)).first()
        if player is None:
            raise exceptions.NotFound("No such player.")
        action, stack = body.validated_data["action"], body.validated_data.get("stack")
        if action == "correct_stack" and stack is None:
            raise exceptions.ValidationError({"stack": ["Say what the stack should be."]})
        try:  # in the turn of the table's runtime, where this process runs the table
            now = in_table_turn(
                table.pk,
                lambda: _player_control(table, request.user, player, action, stack),
                f"command host {action}",
            )
        except ServiceError as error:
            raise refused(error) from None
        return Response(_state(table.pk, now))


def _player_control(table: Table, by: Any, player: Player, action: str, stack: int | None) -> bool:
    """One of ``PlayerControl``'s actions; whether it was done now."""
    if action == "remove":
        return host_seats.table_host_remove(table=table, by=by, player=player)
    if action == "sit_out":
        return host_seats.table_host_sit_out(table=table, by=by, player=player)
    if action == "make_host":
        return bool(host_seats.table_host_transfer(table=table, by=by, player=player))
    assert stack is not None  # checked with the request
    return host_seats.table_correct_stack(table=table, by=by, player=player, stack=stack).done_now


@extend_schema(tags=["hosting"], parameters=[ID])
class SeatRequests(APIView):
    """``GET``: for the host, the requests waiting for an answer; for anyone else, their own
    requests and the answers. ``POST``: sit down (or top up) at this game: at a game with
    approval, a request for the host (201), else done at once (200). ``DELETE``: take back
    your pending request."""

    parser_classes = [JSONParser]

    @extend_schema(summary="Seat requests", responses=SeatRequestSerializer(many=True))
    def get(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        table = _visible(request, pk)
        if can_host(table, request.user):
            rows = live_requests(table)
        else:
            rows = SeatRequest.objects.filter(
                table=table, player__user=request.user
            ).select_related("player__user")
        return Response(SeatRequestSerializer(rows.order_by("-id")[:100], many=True).data)

    @extend_schema(
        summary="Ask to sit down or top up",
        request=AskSerializer,
        responses={201: SeatRequestSerializer, 200: _STATE, 409: CONFLICT},
    )
    def post(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        table = _visible(request, pk)
        body = AskSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        player = player_get_or_create(user=request.user)
        fields = body.validated_data
        seat = fields.get("seat")
        try:  # in the turn of the table's runtime, where this process runs the table
            asked = in_table_turn(
                table.pk,
                lambda: (
                    seat_requests.seat_ask(
                        table=table,
                        player=player,
                        buy_in=fields["amount"],
                        seat_number=seat - 1 if seat else None,
                    )
                    if fields["kind"] == SeatRequest.Kind.SEAT
                    else seat_requests.top_up_ask(
                        table=table, player=player, amount=fields["amount"]
                    )
                ),
                f"command ask {fields['kind']}",
            )
        except ServiceError as error:
            raise refused(error) from None
        if asked.request is not None:
            return Response(
                SeatRequestSerializer(asked.request).data, status=status.HTTP_201_CREATED
            )
        return Response(_state(table.pk, True))

    @extend_schema(
        summary="Take back your pending request",
        # a DELETE is documented as 204 unless told: this one answers how many it took back
        responses={200: inline_serializer("Cancelled", {"cancelled": serializers.IntegerField()})},
    )
    def delete(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        table = _visible(request, pk)
        player = player_get_or_create(user=request.user)
        count = in_table_turn(
            table.pk,
            lambda: seat_requests.seat_request_cancel(table=table, player=player),
            "command ask cancel",
        )
        return Response({"cancelled": count})


REQUEST = OpenApiParameter("request_id", OpenApiTypes.INT, OpenApiParameter.PATH)


def _answer_view(approve: bool) -> type[APIView]:
    @extend_schema(
        tags=["hosting"],
        summary="Approve a request (host)" if approve else "Decline a request (host)",
        parameters=[ID, REQUEST],
        request=None,
        responses={200: SeatRequestSerializer, 409: CONFLICT},
    )
    def post(self: APIView, request: AuthenticatedApiRequest, pk: int, request_id: int) -> Response:
        table = _hosted(request, pk)
        asked = views._id(request_id)
        try:
            answered = in_table_turn(
                table.pk,
                lambda: seat_requests.seat_request_answer(
                    table=table, by=request.user, request_id=asked, approve=approve
                ),
                "command host approve" if approve else "command host decline",
            )
        except ServiceError as error:
            raise refused(error) from None
        return Response(SeatRequestSerializer(answered).data)

    return type(
        "Approve" if approve else "Decline",
        (APIView,),
        {"post": post, "parser_classes": [JSONParser]},
    )


ApproveRequest = _answer_view(True)
DeclineRequest = _answer_view(False)
