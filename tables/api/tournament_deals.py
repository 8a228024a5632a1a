"""A deal at a tournament's final table (``/api/tournaments/<id>/deal/``): read it, propose
one, and accept or refuse it (``.../deal/answer/``).

Thin: each call is one service of ``tables.tournaments.services.deals``; a refusal is 409
``deal_refused`` saying why (nothing changes), bad input a 400 naming the field, a private
tournament the caller may not see 404.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.parsers import JSONParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tables.api.permissions import AuthenticatedApiRequest, ReadOrLoggedIn
from tables.api.schema import PUBLIC
from tables.api.strict import StrictBooleanField, StrictWholeNumberField
from tables.api.tournaments import CONFLICT, ID, _visible, refused
from tables.selectors.players import viewer_player
from tables.services.errors import ServiceError
from tables.services.players import player_get_or_create
from tables.tournaments.deals import deal_refusal, deal_view
from tables.tournaments.models import Deal, Tournament
from tables.tournaments.services import deals


class DealShareSerializer(serializers.Serializer[Any]):
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    chips = serializers.IntegerField(help_text="Their stack when the deal was offered.")
    share = serializers.IntegerField(help_text="Their share of the prize money (chips).")
    agreed = serializers.BooleanField()


class DealSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(Deal.Status.choices)
    method = serializers.ChoiceField(Deal.Method.choices)
    keep = serializers.IntegerField(help_text="Kept back from the split for the winner.")
    pool = serializers.IntegerField(help_text="The unpaid prizes it splits, keep included.")
    proposed_by = serializers.CharField()
    shares = DealShareSerializer(
        many=True, help_text="Empty until the hand being played when it was proposed ends."
    )
    may_answer = serializers.BooleanField(help_text="You are in it and have not agreed yet.")
    may_accept = serializers.BooleanField(help_text="You may accept now (the shares are shown).")


class DealStateSerializer(serializers.Serializer[Any]):
    deal = DealSerializer(
        allow_null=True, help_text="The deal being decided, else the one made; null if none."
    )
    may_propose = serializers.BooleanField()
    refusal = serializers.CharField(allow_null=True, help_text="Why you may not propose now.")


class ProposeSerializer(serializers.Serializer[Any]):
    method = serializers.ChoiceField(Deal.Method.choices, default=Deal.Method.ICM)
    keep = StrictWholeNumberField(
        min_value=0, default=0, help_text="Chips kept back from first prize for the winner."
    )


class AnswerSerializer(serializers.Serializer[Any]):
    accept = StrictBooleanField(help_text="true: agree; false: refuse (it ends the deal).")


def deal_state(request: Request, tournament: Tournament) -> dict[str, Any]:
    tournament.refresh_from_db()
    player = viewer_player(request.user)
    player_id = player.pk if player is not None else None
    view = deal_view(tournament, player_id)
    problem = deal_refusal(tournament, player_id)
    return {
        "deal": view.as_json() if view is not None else None,
        "may_propose": problem is None,
        "refusal": problem,
    }


def _strict(serializer: serializers.Serializer[Any], data: Any) -> dict[str, Any]:
    if hasattr(data, "keys"):
        unknown = sorted(set(data.keys()) - set(serializer.fields))
        if unknown:
            raise exceptions.ValidationError(dict.fromkeys(unknown, ["Not a field."]))
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


@extend_schema(tags=["tournaments"], parameters=[ID])
class DealView(APIView):
    """``GET``: the final-table deal being decided (each player's share, who has agreed) or
    made, and whether you may propose one. ``POST``: propose one (you are still in, every
    player left is at the final table, nobody out can come back): split the unpaid prizes by
    ``icm`` or ``chip_chop`` from the stacks, keeping ``keep`` back for the winner. The level
    clock stands still and no hand is dealt until everyone agrees or someone refuses."""

    permission_classes = [ReadOrLoggedIn]
    parser_classes = [JSONParser]

    @extend_schema(summary="The final-table deal", responses=DealStateSerializer, auth=PUBLIC)
    def get(self, request: Request, pk: int) -> Response:
        return Response(deal_state(request, _visible(request, pk)))

    @extend_schema(
        summary="Propose a deal",
        request=ProposeSerializer,
        responses={201: DealStateSerializer, 409: CONFLICT},
    )
    def post(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        tournament = _visible(request, pk)
        data = _strict(ProposeSerializer(data=request.data), request.data)
        player = player_get_or_create(user=request.user)
        try:
            deals.deal_propose(
                tournament=tournament, player=player, method=data["method"], keep=data["keep"]
            )
        except ServiceError as error:
            raise refused(error) from None
        return Response(deal_state(request, tournament), status=status.HTTP_201_CREATED)


@extend_schema(tags=["tournaments"], parameters=[ID])
class DealAnswer(APIView):
    """Accept (``{"accept": true}``, once the shares are shown) or refuse the deal being
    decided; a refusal ends it. Once everyone has agreed it is made: the shares are paid."""

    parser_classes = [JSONParser]

    @extend_schema(
        summary="Accept or refuse the deal",
        request=AnswerSerializer,
        responses={200: DealStateSerializer, 409: CONFLICT},
    )
    def post(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        tournament = _visible(request, pk)
        data = _strict(AnswerSerializer(data=request.data), request.data)
        player = player_get_or_create(user=request.user)
        try:
            deals.deal_answer(tournament=tournament, player=player, accept=data["accept"])
        except ServiceError as error:
            raise refused(error) from None
        return Response(deal_state(request, tournament))
