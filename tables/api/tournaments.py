"""The tournaments' API: list and organise (``/api/tournaments/``), one tournament
(``/api/tournaments/<id>/``), register and unregister (``.../registration/``; registering
again when out is a re-entry), start (``.../start/``), rebuy (``.../rebuy/``), add-on
(``.../addon/``).

Thin: each call is one service of ``tables.tournaments.services``. Errors: 400 ``invalid``
naming the field (``errors``), 403 ``not_organiser`` for a start by anyone but the organiser
or staff, 404 for a private tournament the caller may not see (exactly as for one that does
not exist), 409 with the service's own ``code`` for any other refusal (``tournament_full``,
``registration_closed``...); nothing changes on error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, generics, serializers, status
from rest_framework.parsers import JSONParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tables.api import views
from tables.api.exceptions import ErrorSerializer
from tables.api.pagination import Pagination
from tables.api.permissions import AuthenticatedApiRequest, ReadOrLoggedIn
from tables.api.schema import PUBLIC
from tables.api.serializers import LevelNowSerializer
from tables.api.strict import StrictBooleanField, StrictCharField, StrictWholeNumberField
from tables.clubs import services as club_services
from tables.clubs.errors import NoSuchClub
from tables.models import Player, Table
from tables.names import validate_name
from tables.services.errors import ServiceError
from tables.services.players import player_get_or_create
from tables.tournaments import structure
from tables.tournaments.access import (
    can_run_tournament,
    can_see_tournament,
    tournaments_visible_to,
)
from tables.tournaments.errors import NotOrganiser, TournamentInvalid
from tables.tournaments.models import Tournament
from tables.tournaments.overview import Overview, tournament_overview
from tables.tournaments.selectors import tournament_list
from tables.tournaments.services import addons, organise, rebuys, setup

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
class LevelSerializer(serializers.Serializer[Any]):
    small_blind = StrictWholeNumberField(min_value=0)
    big_blind = StrictWholeNumberField(min_value=1)
    ante = StrictWholeNumberField(min_value=0, required=False)
    minutes = StrictWholeNumberField(min_value=1, required=False, help_text="Or hands.")
    hands = StrictWholeNumberField(min_value=1, required=False, help_text="Or minutes.")


class StartField(serializers.CharField):
    """``manual``, ``when-full`` or an ISO 8601 time with its offset (a start at that time)."""

    def to_internal_value(self, data: Any) -> Any:
        text = super().to_internal_value(data)
        if text in (Tournament.Start.MANUAL, Tournament.Start.WHEN_FULL):
            return (text, None)
        moment = parse_datetime(text) if text.isascii() else None
        if moment is None or moment.tzinfo is None:
            raise serializers.ValidationError(
                'manual, when-full, or a time with its offset, e.g. "2030-05-01T20:00:00Z".'
            )
        if moment <= timezone.now():
            raise serializers.ValidationError("That time has passed.")
        return (Tournament.Start.AT_TIME, moment)


class OrganiseSerializer(serializers.Serializer[Any]):
    """A tournament's settings (only ``name`` is required). Checked as a whole by the service;
    a wrong one is a 400 naming it."""

    name = StrictCharField(max_length=60, validators=[validate_name])
    format = serializers.ChoiceField(Tournament.Format.choices, default="sit-and-go")
    game = serializers.ChoiceField(Table.GAME_CHOICES, default=Table.DEFAULT_GAME)
    betting = serializers.ChoiceField(Table.Betting.choices, default=Table.Betting.NO_LIMIT)
    seats_per_table = StrictWholeNumberField(min_value=2, max_value=10, default=6)
    max_entrants = StrictWholeNumberField(
        min_value=2, required=False, allow_null=True, help_text="Sit & go: its seats."
    )
    entry_fee = StrictWholeNumberField(min_value=0, default=0, help_text="0: a freeroll.")
    bounty_kind = serializers.ChoiceField(
        Tournament.Bounty.choices, default="none", help_text="fixed or pko: bounties."
    )
    bounty = StrictWholeNumberField(
        min_value=0, default=0, help_text="The part of the entry fee on each player's head."
    )
    satellite_target = StrictWholeNumberField(
        min_value=1,
        required=False,
        help_text="A satellite: its prizes are seats in this tournament (its id).",
    )
    starting_stack = StrictWholeNumberField(min_value=1, default=1500)
    starting_big_blinds = StrictWholeNumberField(
        min_value=1,
        required=False,
        help_text="The starting stack in the first level's big blinds (instead of chips).",
    )
    structure = serializers.ChoiceField(
        list(structure.PRESET_MINUTES), required=False, help_text="A preset (or give levels)."
    )
    levels = LevelSerializer(many=True, required=False, help_text="Custom levels.")
    hands = StrictWholeNumberField(required=False, help_text="Fixed hands: hands to play.")
    late_registration_levels = StrictWholeNumberField(min_value=0, default=0)
    rebuy_levels = StrictWholeNumberField(
        min_value=0, default=0, help_text="Rebuys during the first N levels (0: freezeout)."
    )
    max_rebuys = StrictWholeNumberField(
        min_value=1, max_value=100, default=1, help_text="Rebuys per player."
    )
    max_reentries = StrictWholeNumberField(
        min_value=0,
        max_value=100,
        default=0,
        help_text="Re-entries per player during late registration (needs "
        "late_registration_levels).",
    )
    addon_chips = StrictWholeNumberField(
        min_value=0,
        default=0,
        help_text="An add-on's chips, once per player at the end of the rebuys (0: none).",
    )
    addon_price = StrictWholeNumberField(
        min_value=0, default=0, help_text="What the add-on costs (into the prize pool)."
    )
    break_every_levels = StrictWholeNumberField(
        min_value=0, default=0, help_text="A break after every N levels (levels by minutes)."
    )
    break_minutes = StrictWholeNumberField(
        min_value=0, max_value=120, default=0, help_text="Minutes per break."
    )
    bot_entrants = StrictWholeNumberField(min_value=0, default=0, help_text="Bots entered now.")
    start = StartField(
        default="manual", help_text="manual, when-full, or an ISO 8601 time with its offset."
    )
    payouts = serializers.ChoiceField(Tournament.Payouts.choices, default="standard")
    payout_percentages = serializers.ListField(
        child=StrictWholeNumberField(min_value=1, max_value=100),
        required=False,
        help_text="payouts=custom: whole percentages for places 1, 2, 3..., adding up to 100.",
    )
    action_seconds = StrictWholeNumberField(min_value=3, max_value=600, default=20)
    time_bank_refill_seconds = StrictWholeNumberField(
        min_value=0,
        max_value=30,
        default=0,
        help_text="Seconds given back to each player's time bank (30 s) at every new level.",
    )
    private = StrictBooleanField(default=False, help_text="Seen only by invite link.")
    club = StrictWholeNumberField(
        min_value=1, required=False, help_text="A club you belong to: its members see it."
    )

    def to_internal_value(self, data: Any) -> Any:
        if hasattr(data, "keys"):
            unknown = sorted(set(data.keys()) - set(self.fields))
            if unknown:
                raise exceptions.ValidationError(dict.fromkeys(unknown, ["Not a setting."]))
        return super().to_internal_value(data)

    def settings(self) -> dict[str, Any]:
        """The service's keyword arguments."""
        data = dict(self.validated_data)
        start = data["start"]  # the default is the plain word; a given value is read
        data["start"], data["start_at"] = (start, None) if isinstance(start, str) else start
        if "structure" in data:
            data["structure_name"] = data.pop("structure")
        if "levels" in data:
            data["levels"] = [dict(level) for level in data["levels"]]
        return data


# --- answers ------------------------------------------------------------------------------
class EntrantSerializer(serializers.Serializer[Any]):
    player = serializers.CharField()
    player_id = serializers.IntegerField()
    chips = serializers.IntegerField(
        help_text="Chips now (0 once out); once finished, the chips each ended with."
    )
    rank = serializers.IntegerField(allow_null=True, help_text="Among players still in.")
    place = serializers.IntegerField(allow_null=True, help_text="Once decided.")
    prize = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True, help_text="The table id they sit at.")
    rebuys = serializers.IntegerField(help_text="Rebuys made.")
    addon = serializers.BooleanField(help_text="The add-on taken.")
    reentries = serializers.IntegerField(help_text="Re-entries made.")
    bounty = serializers.IntegerField(help_text="The bounty on their head now.")
    bounties_won = serializers.IntegerField(help_text="Bounties paid to them.")
    seat = serializers.CharField(
        help_text="A satellite's seat won: registered (in the target), chips (its value "
        "paid), or empty."
    )


class TournamentTableSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    players = serializers.IntegerField()
    open = serializers.BooleanField(help_text="False once broken or finished.")
    url = serializers.CharField(help_text="Watch it.")


class TournamentSummarySerializer(serializers.ModelSerializer[Any]):
    organiser = serializers.CharField(source="organiser.name", default=None, allow_null=True)
    entrant_count = serializers.IntegerField(read_only=True)
    url = serializers.SerializerMethodField()
    satellite = serializers.SerializerMethodField(
        help_text="A satellite: target_id, target (its name), seat_value, seats (now); else null."
    )

    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "format",
            "game",
            "betting",
            "status",
            "organiser",
            "organiser_id",
            "private",
            "seats_per_table",
            "max_entrants",
            "entry_fee",
            "bounty_kind",
            "bounty",
            "satellite",
            "starting_stack",
            "structure",
            "levels",
            "hands",
            "late_registration_levels",
            "rebuy_levels",
            "max_rebuys",
            "max_reentries",
            "addon_chips",
            "addon_price",
            "break_every_levels",
            "break_minutes",
            "start",
            "start_at",
            "payouts",
            "payout_percentages",
            "action_seconds",
            "time_bank_refill_seconds",
            "registration_open",
            "rebuys_open",
            "hands_dealt",
            "prize_pool",
            "entrant_count",
            "created_at",
            "started_at",
            "finished_at",
            "url",
        ]
        read_only_fields = fields

    def get_url(self, tournament: Tournament) -> str:
        return f"/tournaments/{tournament.pk}/"

    def get_satellite(self, tournament: Tournament) -> dict[str, Any] | None:
        if not tournament.is_satellite:
            return None
        target = tournament.satellite_target
        return {
            "target_id": tournament.satellite_target_id,
            "target": target.name if target is not None else None,
            "seat_value": tournament.seat_value,
            "seats": tournament.seats,
        }


class TournamentDetailSerializer(TournamentSummarySerializer):
    level = LevelNowSerializer(allow_null=True, help_text="Null once finished.")
    prizes = serializers.ListField(
        child=serializers.IntegerField(), help_text="Places 1, 2, 3... with the entrants now."
    )
    entrants = EntrantSerializer(many=True, help_text="Still in by chips, then by place.")
    tables = TournamentTableSerializer(many=True)
    invite_url = serializers.CharField(allow_null=True, help_text="Only for the organiser.")
    may_rebuy = serializers.BooleanField(help_text="You may rebuy now (POST .../rebuy/).")
    may_reenter = serializers.BooleanField(
        help_text="You are out and may enter again now (POST .../registration/)."
    )
    may_addon = serializers.BooleanField(help_text="You may take the add-on now (.../addon/).")

    class Meta(TournamentSummarySerializer.Meta):
        fields = [*TournamentSummarySerializer.Meta.fields, "level", "prizes", "tables"]
        fields += ["invite_url", "may_rebuy", "may_reenter", "may_addon", "entrants"]
        read_only_fields = fields


def detail_body(request: Request, tournament: Tournament) -> dict[str, Any]:
    """The tournament as ``TournamentDetailSerializer`` describes it, for this caller."""
    view: Overview = tournament_overview(tournament, request.user)
    tournament = tournament_list().get(pk=tournament.pk)
    body = dict(TournamentSummarySerializer(tournament).data)
    body["level"] = view.level.as_json() if view.level is not None else None
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
    prizes), the payouts and the tables to watch."""

    permission_classes = [ReadOrLoggedIn]

    @extend_schema(summary="One tournament", responses=TournamentDetailSerializer, auth=PUBLIC)
    def get(self, request: Request, pk: int) -> Response:
        return Response(detail_body(request, _visible(request, pk)))


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
