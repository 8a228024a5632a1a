"""The tournaments' API: list and organise (``/api/tournaments/``), one tournament
(``/api/tournaments/<id>/``; ``PATCH`` edits it before its start), register and unregister
(``.../registration/``; registering again when out is a re-entry), start (``.../start/``),
rebuy (``.../rebuy/``), add-on (``.../addon/``).

Thin: each call is one service of ``tables.tournaments.services``. Errors: 400 ``invalid``
naming the field (``errors``), 403 ``not_organiser`` for a start or an edit by anyone but the
organiser or staff, 404 for a private tournament the caller may not see (exactly as for one
that does not exist), 409 with the service's own ``code`` for any other refusal
(``tournament_full``, ``registration_closed``, ``tournament_started``...); nothing changes
on error.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, generics, status
from rest_framework.parsers import JSONParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tables.api import views
from tables.api.exceptions import ErrorSerializer
from tables.api.pagination import Pagination
from tables.api.permissions import AuthenticatedApiRequest, ReadOrLoggedIn
from tables.api.schema import PUBLIC
from tables.api.tournament_serializers import (
    EditSerializer,
    OrganiseSerializer,
    TournamentDetailSerializer,
    TournamentSummarySerializer,
)
from tables.clubs import services as club_services
from tables.clubs.errors import NoSuchClub
from tables.models import Player
from tables.services.errors import ServiceError
from tables.services.players import player_get_or_create
from tables.tournaments.access import (
    can_run_tournament,
    can_see_tournament,
    tournaments_visible_to,
)
from tables.tournaments.errors import NotOrganiser, TournamentInvalid
from tables.tournaments.models import Tournament
from tables.tournaments.overview import Overview, tournament_overview
from tables.tournaments.preview import tournament_estimate
from tables.tournaments.selectors import tournament_list
from tables.tournaments.services import addons, edit, organise, rebuys, setup

ID = views.ID
CONFLICT = OpenApiResponse(ErrorSerializer, "Refused now: the code says why.")


class TournamentRefused(exceptions.APIException):
    """A service's refusal with its stable code: 403 for not the organiser, else 409."""

    status_code = 409
    default_code = "refused"

    def __init__(self, error: ServiceError):
        super().__init__(str(error), code=error.code)
        self.status_code = 403 if isinstance(error, NotOrganiser) else 409


def refused(error: ServiceError) -> exceptions.APIException:
    if isinstance(error, TournamentInvalid):
        return exceptions.ValidationError({error.field: [str(error)]})
    return TournamentRefused(error)


# --- organising ---------------------------------------------------------------------------
def detail_body(request: Request, tournament: Tournament) -> dict[str, Any]:
    """The tournament as ``TournamentDetailSerializer`` describes it, for this caller."""
    view: Overview = tournament_overview(tournament, request.user)
    tournament = tournament_list().get(pk=tournament.pk)
    body = dict(TournamentSummarySerializer(tournament).data)
    body["level"] = view.level.as_json() if view.level is not None else None
    estimate = tournament_estimate(tournament, body["entrant_count"])
    body["estimate"] = {**asdict(estimate), "text": estimate.text} if estimate else None
    body["prizes"] = view.prizes
    body["entrants"] = [
        {
            "player": row.name,
            "player_id": row.player_id,
            "chips": row.chips,
            "rank": row.rank,
            "place": row.place,
            "prize": row.prize,
            "table": row.table_id,
            "rebuys": row.rebuys,
            "addon": row.addon,
            "reentries": row.reentries,
            "bounty": row.bounty,
            "bounties_won": row.bounties_won,
            "seat": row.seat,
        }
        for row in view.standings
    ]
    body["tables"] = [
        {
            "id": link.table_id,
            "number": link.number,
            "players": link.players,
            "open": link.open,
            "url": f"/tables/{link.table_id}/",
        }
        for link in view.tables
    ]
    body["invite_url"] = (
        request.build_absolute_uri(f"/tournaments/join/{tournament.invite_token}/")
        if tournament.invite_token and can_run_tournament(tournament, request.user)
        else None
    )
    body["may_rebuy"] = view.comebacks.rebuy
    body["may_reenter"] = view.comebacks.reenter
    body["may_addon"] = view.comebacks.addon
    return body


def _visible(request: Request, pk: int) -> Tournament:
    tournament = Tournament.objects.filter(pk=views._id(pk)).first()
    if tournament is None or not can_see_tournament(tournament, request.user):
        raise exceptions.NotFound("No such tournament.")
    return tournament


def _acted(
    request: AuthenticatedApiRequest,
    pk: int,
    act: Callable[[Tournament, Player], object],
    answer_status: int = status.HTTP_200_OK,
) -> Response:
    """Run ``act(tournament, player)`` for the caller on a tournament they may see; a
    refusal is 409 with its code (nothing changed), else the tournament as it is now."""
    tournament = _visible(request, pk)
    player = player_get_or_create(user=request.user)
    try:
        act(tournament, player)
    except ServiceError as error:
        raise refused(error) from None
    return Response(detail_body(request, tournament), status=answer_status)


# --- views --------------------------------------------------------------------------------
@extend_schema(tags=["tournaments"])
class TournamentListCreate(generics.ListAPIView[Any]):
    """``GET``: the tournaments you may see, newest first (``?status=registering|running|
    finished``). ``POST``: organise one (201); you are its organiser."""

    permission_classes = [ReadOrLoggedIn]
    parser_classes = [JSONParser]
    serializer_class = TournamentSummarySerializer
    pagination_class = Pagination

    def get_queryset(self) -> QuerySet[Tournament]:
        rows = tournaments_visible_to(self.request.user, tournament_list()).order_by(
            "-created_at", "-id"
        )
        wanted = self.request.query_params.get("status")
        if wanted is not None:
            if wanted not in Tournament.Status.values:
                raise exceptions.ValidationError(
                    {"status": [f"One of: {', '.join(Tournament.Status.values)}."]}
                )
            rows = rows.filter(status=wanted)
        return rows

    @extend_schema(summary="Tournaments you may see", auth=PUBLIC)
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        summary="Organise a tournament",
        request=OrganiseSerializer,
        responses={201: TournamentDetailSerializer, 409: CONFLICT},
    )
    def post(self, request: AuthenticatedApiRequest) -> Response:
        data = OrganiseSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = player_get_or_create(user=request.user)
        settings = data.settings()
        club = settings.pop("club", None)
        try:
            if club is None:
                tournament = organise.tournament_organise(organiser=player, **settings)
            else:
                tournament = club_services.club_tournament_create(club=club, by=player, **settings)
        except NoSuchClub:
            raise exceptions.NotFound("There is no such club.") from None
        except ServiceError as error:
            raise refused(error) from None
        return Response(detail_body(request, tournament), status=status.HTTP_201_CREATED)


@extend_schema(tags=["tournaments"], parameters=[ID])
class TournamentDetail(APIView):
    """A tournament: its settings, ``status``, ``prize_pool``, the ``level`` now and next, the
    ``entrants`` (players still in by chips with their rank and table, then the places and
    prizes), the payouts and the tables to watch. ``PATCH``: its organiser (or staff) edits
    it before its start."""

    permission_classes = [ReadOrLoggedIn]
    parser_classes = [JSONParser]

    @extend_schema(summary="One tournament", responses=TournamentDetailSerializer, auth=PUBLIC)
    def get(self, request: Request, pk: int) -> Response:
        return Response(detail_body(request, _visible(request, pk)))

    @extend_schema(
        summary="Edit before the start (organiser)",
        description="The settings given change, checked as when organising; the others stay "
        "(levels stay a preset's unless levels or a structure are given). While anyone is in, "
        "`entry_fee`, `bounty_kind` and `bounty` stay (the entrants paid them) and "
        "`max_entrants` is at least the entrants. 403 `not_organiser`, 409 "
        "`tournament_started` once it started, 400 naming a bad setting; nothing changes "
        "on error.",
        request=EditSerializer,
        responses={200: TournamentDetailSerializer, 403: CONFLICT, 409: CONFLICT},
    )
    def patch(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        tournament = _visible(request, pk)
        refusal = edit.edit_refusal(tournament, request.user)
        if refusal is not None:  # before reading the body: its errors are no one else's
            raise refused(refusal)
        data = EditSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        try:
            tournament = edit.tournament_change(
                tournament=tournament, by=request.user, **data.settings()
            )
        except ServiceError as error:
            raise refused(error) from None
        return Response(detail_body(request, tournament))


@extend_schema(tags=["tournaments"], parameters=[ID])
class Registration(APIView):
    """``POST``: enter (the entry fee leaves your bankroll; during late registration you are
    seated at once). ``DELETE``: take your entry back before the start (the fee comes back)."""

    parser_classes = [JSONParser]

    @extend_schema(
        summary="Register",
        request=None,
        responses={201: TournamentDetailSerializer, 409: CONFLICT},
    )
    def post(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        return _acted(
            request,
            pk,
            lambda t, p: setup.tournament_register(tournament=t, player=p),
            status.HTTP_201_CREATED,
        )

    @extend_schema(
        summary="Unregister",
        request=None,
        responses={200: TournamentDetailSerializer, 409: CONFLICT},
    )
    def delete(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        return _acted(request, pk, lambda t, p: setup.tournament_unregister(tournament=t, player=p))


@extend_schema(tags=["tournaments"], parameters=[ID])
class Start(APIView):
    """Start now (the organiser or staff; at least two entrants): random seating."""

    parser_classes = [JSONParser]

    @extend_schema(
        summary="Start (organiser)",
        request=None,
        responses={200: TournamentDetailSerializer, 409: CONFLICT},
    )
    def post(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        return _acted(request, pk, lambda t, p: setup.tournament_start(tournament=t, by=p))


@extend_schema(tags=["tournaments"], parameters=[ID])
class Rebuy(APIView):
    """Your rebuy (rebuys on, during their levels, at most ``max_rebuys``): the entry fee
    again from your bankroll into the prize pool, a starting stack added to yours (at or
    below the starting stack, between your hands) or, when you are out, a seat again. 409
    ``rebuy_refused`` says why not; nothing changes."""

    parser_classes = [JSONParser]

    @extend_schema(
        summary="Rebuy",
        request=None,
        responses={200: TournamentDetailSerializer, 409: CONFLICT},
    )
    def post(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        return _acted(request, pk, lambda t, p: rebuys.tournament_rebuy(tournament=t, player=p))


@extend_schema(tags=["tournaments"], parameters=[ID])
class Addon(APIView):
    """Your add-on (``addon_chips`` set): once, during the last rebuy level and a break after
    it while rebuys are open, still in and between your hands; ``addon_price`` from your
    bankroll into the prize pool, ``addon_chips`` added to your stack. 409 ``addon_refused``
    says why not; nothing changes."""

    parser_classes = [JSONParser]

    @extend_schema(
        summary="Add-on",
        request=None,
        responses={200: TournamentDetailSerializer, 409: CONFLICT},
    )
    def post(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        return _acted(request, pk, lambda t, p: addons.tournament_addon(tournament=t, player=p))
