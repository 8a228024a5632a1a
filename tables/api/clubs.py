"""``/api/clubs/...``: create a club, read it (members only: 404 for anyone else), join it by
its invitation code, its members (admins approve, promote, demote, remove), its standings.

Thin: each call is one service of ``tables.clubs.services`` or one selector of
``tables.clubs.selectors``; a refusal answers its stable ``code`` and changes nothing.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from django.http import HttpResponse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import exceptions, serializers, status
from rest_framework.parsers import JSONParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tables import ratelimit
from tables.api.exceptions import ErrorSerializer
from tables.api.files import FileDownloadView
from tables.api.hosting import CONFLICT, refused
from tables.api.ledger import CSVRenderer, spreadsheet_safe
from tables.api.permissions import AuthenticatedApiRequest
from tables.api.serializers import WholeNumberField
from tables.api.strict import StrictBooleanField, StrictCharField, StrictWholeNumberField
from tables.clubs import selectors, services
from tables.clubs.access import membership_of
from tables.clubs.errors import BadInviteCode, InviteCodeRetired, NoSuchClub
from tables.clubs.models import Club, Membership, Season
from tables.names import validate_name
from tables.services.errors import ServiceError
from tables.services.players import player_get_or_create

ID = OpenApiParameter("id", int, OpenApiParameter.PATH, description="The club's id.")


class NewClubSerializer(serializers.Serializer[Any]):
    name = StrictCharField(max_length=60, validators=[validate_name])
    description = StrictCharField(max_length=2000, required=False, allow_blank=True)
    needs_approval = StrictBooleanField(required=False)


class JoinSerializer(serializers.Serializer[Any]):
    code = StrictCharField(max_length=64)


class MemberActionSerializer(serializers.Serializer[Any]):
    player = StrictWholeNumberField(min_value=1, help_text="The member's player id.")
    action = serializers.ChoiceField(["approve", "promote", "demote", "remove"])


class MemberSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.__str__")
    role = serializers.CharField()
    status = serializers.CharField()


class StandingSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    points = serializers.FloatField()
    tournaments = serializers.IntegerField()
    cash_net = serializers.IntegerField()


class ClubSerializer(serializers.Serializer[Any]):
    """A club as the API answers it (``invite_code``/``invite_url``: for its admins only)."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    description = serializers.CharField()
    owner = serializers.IntegerField(help_text="The owner's player id.")
    needs_approval = serializers.BooleanField()
    members = MemberSerializer(many=True)
    tables = serializers.ListField(child=serializers.DictField())
    tournaments = serializers.ListField(child=serializers.DictField())
    scheduled = serializers.ListField(child=serializers.DictField())
    invite_code = serializers.CharField(required=False)
    invite_url = serializers.CharField(required=False)


class SeasonSummarySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(
        allow_null=True, help_text="The season's id; null: the club has no season yet."
    )
    name = serializers.CharField(help_text=f'The season\'s name, or "{selectors.ALL_GAMES}".')
    rule = serializers.ChoiceField(Season.Rule.choices, help_text="How places score points.")


class StandingsSerializer(serializers.Serializer[Any]):
    season = SeasonSummarySerializer()
    standings = StandingSerializer(many=True)


def invite_url(request: Request, club: Club) -> str:
    return request.build_absolute_uri(f"/clubs/{club.pk}/join/?code={club.invite_code}")


def club_body(request: Request, club: Club, *, admin: bool) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": club.pk,
        "name": club.name,
        "description": club.description,
        "owner": club.owner_id,
        "needs_approval": club.needs_approval,
        "members": MemberSerializer(selectors.members(club), many=True).data,
        "tables": list(selectors.club_tables(club).values("id", "name", "status")),
        "tournaments": list(selectors.club_tournaments(club).values("id", "name", "status")),
        "scheduled": [
            {"id": g.pk, "kind": g.kind, "name": g.name, "starts_at": g.starts_at}
            for g in selectors.scheduled_games(club)
        ],
    }
    if admin:
        body["invite_code"] = club.invite_code
        body["invite_url"] = invite_url(request, club)
    return body


def _club(request: AuthenticatedApiRequest, pk: object) -> tuple[Club, Membership]:
    player = player_get_or_create(user=request.user)
    club = selectors.club_for(pk, player)
    member = membership_of(club, player) if club is not None else None
    if club is None or member is None:
        raise exceptions.NotFound("There is no such club.")
    return club, member


def _is_admin(member: Membership) -> bool:
    return member.role in (Membership.Role.OWNER, Membership.Role.ADMIN)


@extend_schema(tags=["clubs"])
class ClubListCreate(APIView):
    """``GET``: the clubs you belong to. ``POST``: create a club (you own it); the answer
    holds its ``invite_code`` and ``invite_url``."""

    permission_classes = [IsAuthenticated]
    parser_classes = [JSONParser]

    @extend_schema(
        summary="Your clubs",
        operation_id="clubs_list",
        responses=inline_serializer(
            "ClubSummary",
            {"id": serializers.IntegerField(), "name": serializers.CharField()},
            many=True,
        ),
    )
    def get(self, request: AuthenticatedApiRequest) -> Response:
        player = player_get_or_create(user=request.user)
        return Response(
            [{"id": c.pk, "name": c.name} for c in selectors.clubs_of(player).order_by("pk")]
        )

    @extend_schema(
        summary="Create a club",
        request=NewClubSerializer,
        responses={201: ClubSerializer, 409: CONFLICT},
    )
    def post(self, request: AuthenticatedApiRequest) -> Response:
        data = NewClubSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = player_get_or_create(user=request.user)
        try:
            club = services.club_create(owner=player, **data.validated_data)
        except ServiceError as error:
            raise refused(error) from None
        return Response(club_body(request, club, admin=True), status=status.HTTP_201_CREATED)


@extend_schema(tags=["clubs"], parameters=[ID])
class ClubDetail(APIView):
    """A club you belong to: its members, games and schedule (404 for anyone else)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(summary="One club", responses=ClubSerializer)
    def get(self, request: AuthenticatedApiRequest, pk: str) -> Response:
        club, member = _club(request, pk)
        return Response(club_body(request, club, admin=_is_admin(member)))


@extend_schema(tags=["clubs"], parameters=[ID])
class ClubJoin(APIView):
    """Join with the invitation ``code``: ``status`` is ``active`` (a member) or ``pending``
    (awaiting an admin's approval)."""

    permission_classes = [IsAuthenticated]
    parser_classes = [JSONParser]

    @extend_schema(
        summary="Join a club",
        request=JoinSerializer,
        responses={
            200: inline_serializer("ClubJoined", {"status": serializers.CharField()}),
            409: CONFLICT,
        },
    )
    def post(self, request: AuthenticatedApiRequest, pk: str) -> Response:
        data = JoinSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if not pk.isdigit():
            raise exceptions.NotFound("There is no such club.")
        player = player_get_or_create(user=request.user)
        wait = ratelimit.wrong_code_wait(request)
        if wait is not None:
            raise exceptions.Throttled(wait=wait, detail=ratelimit.WRONG_CODES)
        try:
            member = services.club_join(
                club=int(pk), player=player, code=data.validated_data["code"]
            )
        except (BadInviteCode, InviteCodeRetired) as error:
            ratelimit.wrong_code_counted(request)
            raise refused(error) from None
        except NoSuchClub:
            raise exceptions.NotFound("There is no such club.") from None
        except ServiceError as error:
            raise refused(error) from None
        return Response({"status": member.status})


@extend_schema(tags=["clubs"], parameters=[ID])
class ClubMembers(APIView):
    """``GET``: the members (admins also see those awaiting approval). ``POST``: an admin
    approves, promotes, demotes or removes a member (``not_club_admin``, ``owner_stays``)."""

    permission_classes = [IsAuthenticated]
    parser_classes = [JSONParser]

    @extend_schema(summary="A club's members", responses=MemberSerializer(many=True))
    def get(self, request: AuthenticatedApiRequest, pk: str) -> Response:
        club, member = _club(request, pk)
        rows = selectors.members(club, with_pending=_is_admin(member))
        return Response(MemberSerializer(rows, many=True).data)

    @extend_schema(
        summary="Approve, promote, demote or remove a member",
        request=MemberActionSerializer,
        responses={200: MemberSerializer, 409: CONFLICT},
    )
    def post(self, request: AuthenticatedApiRequest, pk: str) -> Response:
        club, member = _club(request, pk)
        data = MemberActionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            changed = services.club_member_update(
                club=club,
                by=member.player,
                player=data.validated_data["player"],
                action=data.validated_data["action"],
            )
        except ServiceError as error:
            raise refused(error) from None
        return Response(MemberSerializer(changed).data)


class SeasonQuerySerializer(serializers.Serializer[Any]):
    season = WholeNumberField(required=False, help_text="A season's id (default: the one now)")


def _season(request: AuthenticatedApiRequest, pk: str) -> Season:
    club, _ = _club(request, pk)
    query = SeasonQuerySerializer(data=request.query_params.dict())
    query.is_valid(raise_exception=True)
    asked = query.validated_data.get("season")
    season = selectors.standings_season(club, asked, timezone.localdate())
    if season is None:
        raise exceptions.NotFound("The club has no such season.")
    return season


@extend_schema(
    tags=["clubs"],
    parameters=[ID, SeasonQuerySerializer],
)
class ClubStandings(APIView):
    """The season's standings: points from the club's finished tournaments by the season's
    rule, and the net at its cash games (recomputed from scratch on every read). A club
    without a season stands by all its games (``season.id`` null); 404 only for a club you
    do not belong to, or a ``season`` it does not have."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="A club's standings",
        responses={
            200: StandingsSerializer,
            404: OpenApiResponse(ErrorSerializer, "No such club (of yours), or no such season."),
        },
    )
    def get(self, request: AuthenticatedApiRequest, pk: str) -> Response:
        season = _season(request, pk)
        rows = selectors.standings(season)
        return Response(
            {
                "season": {"id": season.pk, "name": season.name, "rule": season.rule},
                "standings": StandingSerializer(rows, many=True).data,
            }
        )


STANDINGS_COLUMNS = ["place", "player", "points", "tournaments", "cash_net"]


@extend_schema(
    tags=["clubs"],
    summary="A club's standings as CSV",
    parameters=[ID, SeasonQuerySerializer],
    responses={(200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, "A row per player.")},
)
class ClubStandingsCSV(FileDownloadView):
    """The season's standings as a CSV file: a header row, then a row per player."""

    permission_classes = [IsAuthenticated]
    renderer_classes = [JSONRenderer, CSVRenderer]

    def get(self, request: AuthenticatedApiRequest, pk: str) -> HttpResponse:
        season = _season(request, pk)
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(STANDINGS_COLUMNS)
        for place, row in enumerate(selectors.standings(season), start=1):
            writer.writerow(
                [place, spreadsheet_safe(row.name), row.points, row.tournaments, row.cash_net]
            )
        return self.download(
            out.getvalue(),
            CSVRenderer.media_type,
            f"standings-{season.club_id}-{season.pk or 'all'}.csv",
        )
