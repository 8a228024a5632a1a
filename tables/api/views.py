"""API views: thin, read-only, every one with its permission classes spelled out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from django.db.models import Count, Prefetch, QuerySet
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, generics, serializers
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from engine.errors import FormatCannotHold
from tables import ratelimit
from tables.api.exceptions import ErrorSerializer, FormatLacksGame, HandNotFinished
from tables.api.files import FileDownloadView, TextFileRenderer
from tables.api.pagination import Pagination
from tables.api.permissions import AllowAny, IsAuthenticated
from tables.api.schema import PUBLIC
from tables.api.serializers import (
    HandFilterSerializer,
    HandHistorySerializer,
    HandListFilterSerializer,
    HandRowSerializer,
    LeaderboardQuerySerializer,
    LeaderboardRowSerializer,
    PlayerSerializer,
    StatsSerializer,
    TableSerializer,
    TournamentLeaderboardQuerySerializer,
    TournamentLeaderboardRowSerializer,
)
from tables.http import Viewer
from tables.models import Hand, Player, Seat, Table
from tables.selectors.access import can_see_hand, can_see_table, tables_visible_to
from tables.stats.ev import player_ev_by_game
from tables.stats.pokerstars import MOST_HANDS, hand_pokerstars, player_hands_pokerstars
from tables.stats.selectors import (
    HandFilter,
    finished_hand,
    hand_history,
    hand_phh,
    hand_yaml,
    hidden_tables_as_missing,
    leaderboard,
    player_hand_rows,
    player_stats,
    viewer_seat,
)
from tables.text import NumberError, parse_whole_number
from tables.tournaments.access import tournament_visible
from tables.tournaments.records import tournament_leaderboard, tournament_record

ID = OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The id.")


#: The query serializer a view validates its query string with.
QuerySerializer = TypeVar("QuerySerializer", bound=serializers.Serializer[Any])


def _id(value: object) -> int:
    """A path id, or 404: nothing has an id that is not a whole number from 1 (and ids past
    ``LARGEST`` cannot exist; SQLite could not even look them up)."""
    try:
        return parse_whole_number(value, what="id", minimum=1)
    except NumberError:
        raise exceptions.NotFound("Not found.") from None


def _query(serializer_class: type[QuerySerializer], request: Request) -> QuerySerializer:
    # a plain dict: an empty value (``?until=``) is invalid, not "not given"
    serializer = serializer_class(data=request.query_params.dict())
    serializer.is_valid(raise_exception=True)
    return serializer


# --- tables -------------------------------------------------------------------------------
def _tables() -> QuerySet[Table]:
    seats = Seat.objects.select_related("player__user").order_by("number")
    return (
        Table.objects.select_related("tournament_table__tournament")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("name")
    )


@extend_schema(tags=["tables"], summary="Tables (public)", auth=PUBLIC)
class TableList(generics.ListAPIView[Any]):
    """Every table that is not closed: variant, stakes, seats and who sits in them."""

    permission_classes = [AllowAny]  # public; only GET is implemented (others: 405)
    serializer_class = TableSerializer
    pagination_class = Pagination

    def get_queryset(self) -> QuerySet[Any]:
        return tables_visible_to(self.request.user, _tables().exclude(status=Table.Status.CLOSED))


@extend_schema(tags=["tables"], summary="One table (public)", parameters=[ID], auth=PUBLIC)
class TableDetail(generics.RetrieveAPIView[Any]):
    """A table's public information (never anything about the hand being played)."""

    permission_classes = [AllowAny]  # public; only GET is implemented (others: 405)
    serializer_class = TableSerializer

    def get_object(self) -> Table:
        table = _tables().filter(pk=_id(self.kwargs["pk"])).first()
        if table is None or not can_see_table(table, self.request.user):
            raise exceptions.NotFound("No such table.")
        return table


# --- hands --------------------------------------------------------------------------------
def _the_finished_hand(pk: int, user: Viewer) -> Hand:
    hand = finished_hand(_id(pk))
    if hand is None or hand.status == Hand.Status.VOIDED or not can_see_hand(hand, user):
        raise exceptions.NotFound("No such finished hand.")
    if hand.status != Hand.Status.FINISHED or hand.in_play:  # its run-out still being dealt
        raise HandNotFinished()
    return hand


@extend_schema(
    tags=["hands"],
    summary="Your hands",
    parameters=[HandListFilterSerializer],
)
class HandList(generics.ListAPIView[Any]):
    """Your finished hands, newest first; filter by table, tournament, date range (UTC days,
    inclusive) and result (won, lost, even). Staff may ask for another player's with ``player``."""

    permission_classes = [IsAuthenticated]
    serializer_class = HandRowSerializer
    pagination_class = Pagination

    def get_queryset(self) -> QuerySet[Any]:
        player, filters = listed_hands(self.request)
        if player is None:
            return player_hand_rows(Player(pk=0)).none()
        return player_hand_rows(player, filters)


def listed_hands(request: Request) -> tuple[Player | None, HandFilter]:
    """Whose hands a hand list asks for (yours; staff may name a player) and its filter,
    from the query (``HandListFilterSerializer``); ``None``: nobody's."""
    query = _query(HandListFilterSerializer, request)
    player_id = query.validated_data.get("player")
    tournament_id = query.validated_data.get("tournament")
    if tournament_id is not None and not tournament_visible(tournament_id, request.user):
        raise exceptions.NotFound("No such tournament.")  # a private one is not revealed
    if player_id is not None and not request.user.is_staff:
        raise exceptions.PermissionDenied("Only staff may list another player's hands.")
    if player_id is None:
        player = getattr(request.user, "player", None)
    else:
        player = Player.objects.filter(pk=player_id).first()
    return player, query.to_filter()


@extend_schema(
    tags=["hands"],
    summary="A finished hand's history",
    parameters=[ID],
    responses={200: HandHistorySerializer, 409: OpenApiResponse(ErrorSerializer, "Running.")},
)
class HandDetail(APIView):
    """Everything that happened in a finished hand, with the cards shown at showdown and your
    own (if you played it). A hand still being played is refused (409)."""

    permission_classes = [IsAuthenticated]

    def get(self, request: Request, pk: int) -> Response:
        hand = _the_finished_hand(pk, request.user)
        history = hand_history(hand, viewer_seat(hand, request.user))
        return Response(HandHistorySerializer(history).data)


class PHHRenderer(TextFileRenderer):
    media_type = "text/plain"
    format = "phh"


class YAMLRenderer(TextFileRenderer):
    media_type = "application/yaml"
    format = "yaml"


class _HandFile(FileDownloadView):
    """A finished hand as a file to download (``write(hand, viewer seat)`` gives its text,
    the last renderer its media type and file suffix), with only the cards the viewer may
    see; a hand still being played is refused (409)."""

    permission_classes = [IsAuthenticated]
    # each file type's writer, a staticmethod: ``write(hand, viewer seat)``
    write: Callable[[Hand, int | None], str]

    def get(self, request: Request, pk: int) -> HttpResponse:
        hand = _the_finished_hand(pk, request.user)
        try:
            text = self.write(hand, viewer_seat(hand, request.user))
        except FormatCannotHold as error:
            raise FormatLacksGame(str(error), error.code) from None
        file_type = self.renderer_classes[-1]
        name = f"hand-{hand.table_id}-{hand.number}.{file_type.format}"
        return self.download(text, file_type.media_type, name)


@extend_schema(
    tags=["hands"],
    summary="A finished hand as a PHH file",
    parameters=[ID],
    responses={
        (200, "text/plain"): OpenApiResponse(OpenApiTypes.STR, "The hand in PHH (TOML)."),
        409: OpenApiResponse(ErrorSerializer, "Running."),
        422: OpenApiResponse(
            ErrorSerializer,
            "PHH has no variant for the hand's game and betting: code "
            "``no_phh_for_<game>_<betting>`` (five-card draw, pot-limit hold'em, no-limit or "
            "fixed-limit Omaha, no-limit Omaha hi-lo).",
        ),
    },
)
class HandPHH(_HandFile):
    """The hand in the Poker Hand History format (``.phh``), as a download: the hole cards
    shown at showdown plus your own; every other hole card is ``????``."""

    renderer_classes = [JSONRenderer, PHHRenderer]
    write = staticmethod(hand_phh)


@extend_schema(
    tags=["hands"],
    summary="A finished hand as pkstate YAML",
    parameters=[ID],
    responses={
        (200, "application/yaml"): OpenApiResponse(
            OpenApiTypes.STR,
            "The hand in pkstate YAML (game, button, forced_bets, board, "
            "players, rounds of actions such as P0Dealt, P1CBR, P2Fold, "
            "DealCommon, P0Wins).",
        ),
        409: OpenApiResponse(ErrorSerializer, "Running."),
        422: OpenApiResponse(
            ErrorSerializer,
            "pkstate has no game for the hand's (it holds hold'em and Omaha: no Omaha hi-lo, "
            "short deck, stud or draw game): code ``no_yaml_for_<game>_<betting>``; or no "
            "field for one of its rules: ``no_yaml_for_bomb-pot``, "
            "``no_yaml_for_button-straddle``, ``no_yaml_for_missed-blinds``.",
        ),
    },
)
class HandYAML(_HandFile):
    """The hand as pkstate YAML (``.yaml``), as a download: the hole cards shown at showdown
    plus your own; every other player's ``PnDealt`` is left out."""

    renderer_classes = [JSONRenderer, YAMLRenderer]
    write = staticmethod(hand_yaml)


class PokerStarsRenderer(TextFileRenderer):
    media_type = "text/plain"
    format = "txt"


POKERSTARS_TEXT = (
    "PokerStars hand-history text, as trackers (PokerTracker 4, Hold'em Manager 3, "
    "Hand2Note) read it: your own hole cards as 'Dealt to NAME [..]', another player's only "
    "where they were shown; amounts in chips, no currency; hands two blank lines apart."
)


@extend_schema(
    tags=["hands"],
    summary="A finished hand as PokerStars text",
    parameters=[ID],
    responses={
        (200, "text/plain"): OpenApiResponse(OpenApiTypes.STR, POKERSTARS_TEXT),
        409: OpenApiResponse(ErrorSerializer, "Running."),
    },
)
class HandPokerStars(_HandFile):
    """The hand as a PokerStars hand history (``.txt``), for trackers and solvers: the hole
    cards shown at showdown plus your own."""

    renderer_classes = [JSONRenderer, PokerStarsRenderer]
    write = staticmethod(hand_pokerstars)


@extend_schema(
    tags=["hands"],
    summary="Your hands as one PokerStars file",
    parameters=[HandListFilterSerializer],
    responses={
        (200, "text/plain"): OpenApiResponse(
            OpenApiTypes.STR,
            f"{POKERSTARS_TEXT} Oldest first; at most {MOST_HANDS} hands (the newest): the "
            "X-Hands-Left-Out header counts the older ones left out.",
        ),
    },
)
class HandListPokerStars(FileDownloadView):
    """Your finished hands (the filters of ``/api/hands/``: a table's session, a date range,
    a tournament...) as one PokerStars hand-history file, oldest first, from your seat."""

    permission_classes = [IsAuthenticated]
    renderer_classes = [JSONRenderer, PokerStarsRenderer]

    @extend_schema(operation_id="hands_pokerstars_list")
    def get(self, request: Request) -> HttpResponse:
        player, filters = listed_hands(request)
        if player is None:
            text, count, left_out = "", 0, 0
        else:
            text, count, left_out = player_hands_pokerstars(player, filters)
        response = self.download(text, "text/plain", "hands-pokerstars.txt")
        response["X-Hands"] = str(count)
        response["X-Hands-Left-Out"] = str(left_out)
        return response


# --- players ------------------------------------------------------------------------------
def _player(request: Request, pk: int | None) -> Player:
    if pk is None:
        player = getattr(request.user, "player", None)
        if player is None:
            raise exceptions.NotFound("You have no player profile.")
        pk = player.pk
    player = (
        Player.objects.select_related("user")
        .annotate(hands_played=Count("player_hands"))
        .filter(pk=_id(pk))
        .first()
    )
    if player is None:
        raise exceptions.NotFound("No such player.")
    return player


class _PlayerProfile(APIView):
    """A player's public profile (and your bankroll, in your own)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=PlayerSerializer)
    def get(self, request: Request, pk: int | None = None) -> Response:
        player = _player(request, pk)
        return Response(PlayerSerializer(player, context={"request": request}).data)


class _PlayerStats(APIView):
    """Statistics over the player's finished hands, or those at one table or in a date range
    (UTC days, inclusive)."""

    permission_classes = [IsAuthenticated]

    def get(self, request: Request, pk: int | None = None) -> Response:
        query = _query(HandFilterSerializer, request)
        player = _player(request, pk)
        filters = query.to_filter()
        shown = hidden_tables_as_missing(filters, request.user)
        stats = player_stats(player, shown)
        body = {
            "player_id": player.pk,
            "name": player.name,
            "table": filters.table,
            "game": filters.game,
            "since": filters.since,
            "until": filters.until,
            **stats,
            "allin_ev": [row.as_dict() for row in player_ev_by_game(player, shown)],
            "tournaments": tournament_record(
                player, request.user, since=filters.since, until=filters.until
            ),
        }
        return Response(StatsSerializer(body).data)


@extend_schema(tags=["players"], summary="A player's profile", parameters=[ID])
class PlayerDetail(_PlayerProfile):
    pass


@extend_schema(tags=["players"], summary="Your profile")
class PlayerMe(_PlayerProfile):
    pass


@extend_schema(
    tags=["players"],
    summary="A player's statistics",
    parameters=[ID, HandFilterSerializer],
    responses=StatsSerializer,
)
class PlayerStats(_PlayerStats):
    pass


@extend_schema(
    tags=["players"],
    summary="Your statistics",
    parameters=[HandFilterSerializer],
    responses=StatsSerializer,
)
class PlayerMeStats(_PlayerStats):
    pass


class _Ranking(generics.ListAPIView[Any]):
    """A public ranking: rows of dicts, each given its rank (1 is the first of page 1)."""

    permission_classes = [AllowAny]  # public; only GET is implemented (others: 405)
    pagination_class = Pagination

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        paginator = cast(Pagination, self.paginator)  # ``pagination_class``
        assert page is not None and paginator.page is not None  # every page has a size
        start = (paginator.page.number - 1) * paginator.get_page_size(request)
        rows = [{"rank": start + i + 1, **row} for i, row in enumerate(page)]
        serializer_class = self.get_serializer_class()
        return self.get_paginated_response(serializer_class(rows, many=True).data)


@extend_schema(
    tags=["players"],
    summary="Leaderboard (public)",
    parameters=[LeaderboardQuerySerializer],
    responses=LeaderboardRowSerializer(many=True),
    auth=PUBLIC,
)
class Leaderboard(_Ranking):
    """Players ranked by net chips won (``net``), big blinds per 100 hands (``bb100``) or hands
    played (``hands``) at cash tables, among those with at least ``min_hands`` finished cash
    hands (tournament chips are not bankroll chips: see the tournament leaderboard)."""

    serializer_class = LeaderboardRowSerializer

    def get_queryset(self) -> QuerySet[Any]:
        query = _query(LeaderboardQuerySerializer, self.request).validated_data
        return leaderboard(query["order"], query["min_hands"])


@extend_schema(
    tags=["players"],
    summary="Tournament leaderboard (public)",
    parameters=[TournamentLeaderboardQuerySerializer],
    responses=TournamentLeaderboardRowSerializer(many=True),
    auth=PUBLIC,
)
class TournamentLeaderboard(_Ranking):
    """Players ranked by tournament profit (prizes + bounties − entry fees, ``profit``), return
    on entry fees (``roi``: players who paid fees only) or tournaments played (``played``),
    among those with at least ``min_tournaments`` tournaments whose place is decided."""

    serializer_class = TournamentLeaderboardRowSerializer

    def get_queryset(self) -> QuerySet[Any]:
        query = _query(TournamentLeaderboardQuerySerializer, self.request).validated_data
        return tournament_leaderboard(query["order"], query.get("min_tournaments"))


# --- tokens -------------------------------------------------------------------------------
@extend_schema(tags=["auth"], summary="Get your API token", auth=PUBLIC)
class ObtainToken(ObtainAuthToken):
    """Exchange a username and password for the account's API token (send it as
    ``Authorization: Token <key>``). Wrong credentials are 401, missing fields 400; too many
    failed log-ins for the account or from the address are 429 (tables/ratelimit.py)."""

    authentication_classes = [TokenAuthentication]  # so that a refusal is 401, not 403
    permission_classes = [AllowAny]

    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = self.get_serializer(data=request.data)
        if not serializer.is_valid():
            # django-axes marks the request it refused or locked out (on DRF's request, which
            # its middleware does not see, so the answer is made here).
            if getattr(request, "axes_locked_out", False):
                raise exceptions.Throttled(
                    wait=ratelimit.lockout_seconds(), detail=ratelimit.LOCKED_OUT
                )
            errors = serializer.errors
            if set(errors) == {"non_field_errors"}:
                raise exceptions.AuthenticationFailed("Wrong username or password.")
            raise exceptions.ValidationError(errors)
        token, _ = Token.objects.get_or_create(user=serializer.validated_data["user"])
        return Response({"token": token.key})
