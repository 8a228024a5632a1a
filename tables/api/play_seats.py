"""The play API's seat moves: sitting down, sitting out and in (now, or from the next hand or
big blind), posting a big blind now, topping up. Each is one of the socket's operations and
answers with the caller's play state, as every move of ``tables.api.play``."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from tables.api.permissions import AuthenticatedApiRequest
from tables.api.play import ERRORS, IDEMPOTENCY_KEY, STATE, _PlayView
from tables.api.serializers import WholeNumberField
from tables.api.views import ID
from tables.operations import MOST_SEATS


# --- seats --------------------------------------------------------------------------------
class TakeSeatSerializer(serializers.Serializer[Any]):
    buy_in = WholeNumberField(help_text="Chips from your bankroll (within the table's limits).")
    seat = WholeNumberField(
        required=False,
        allow_null=True,
        max_value=MOST_SEATS,
        help_text="The seat number, from 1 (default: the first free seat).",
    )
    post_now = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Post a big blind to be dealt in at once (default: wait for the big blind).",
    )


class SitOutNextSerializer(serializers.Serializer[Any]):
    when = serializers.ChoiceField(
        ["hand", "big_blind", ""],
        default="hand",
        help_text='Sit out from the next hand ("hand") or at the next big blind ("big_blind"); '
        '"" takes it back.',
    )


class TopUpSerializer(serializers.Serializer[Any]):
    amount = WholeNumberField(help_text="Chips to add from your bankroll (between hands).")


@extend_schema(tags=["play"], parameters=[ID, IDEMPOTENCY_KEY], responses={200: STATE, **ERRORS})
class TableSeat(_PlayView):
    @extend_schema(summary="Sit down", request=TakeSeatSerializer)
    def post(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        """Take a seat with ``buy_in`` chips: you are dealt in from the next hand."""
        table = self.table(request, pk)
        body = TakeSeatSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        seat = body.validated_data.get("seat")
        number = seat - 1 if seat is not None else None
        return self.move(
            request,
            table,
            "take_seat",
            seat_number=number,
            buy_in=body.validated_data["buy_in"],
            post_now=body.validated_data["post_now"],
        )

    @extend_schema(summary="Leave the table", request=None)
    def delete(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        """Leave: at once between hands or when you are not in the hand, else when the hand
        ends (the state's ``you.leaving``); your stack goes back to your bankroll."""
        return self.move(request, self.table(request, pk), "leave")


@extend_schema(
    tags=["play"],
    summary="Sit out",
    parameters=[ID, IDEMPOTENCY_KEY],
    request=None,
    responses={200: STATE, **ERRORS},
)
class TableSitOut(_PlayView):
    """Be dealt out of the next hands (you keep your seat; a hand you are in goes on)."""

    def post(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        return self.move(request, self.table(request, pk), "sit_out")


@extend_schema(
    tags=["play"],
    summary="Sit in again",
    parameters=[ID, IDEMPOTENCY_KEY],
    request=None,
    responses={200: STATE, **ERRORS},
)
class TableSitIn(_PlayView):
    """Be dealt in again from the next hand."""

    def post(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        return self.move(request, self.table(request, pk), "sit_in")


@extend_schema(
    tags=["play"],
    summary="Sit out next hand or at the next big blind",
    parameters=[ID, IDEMPOTENCY_KEY],
    request=SitOutNextSerializer,
    responses={200: STATE, **ERRORS},
)
class TableSitOutNext(_PlayView):
    """Play the hand on and sit out from the next one, or when the big blind reaches you."""

    def post(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        table = self.table(request, pk)
        body = SitOutNextSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        return self.move(request, table, "sit_out_next", when=body.validated_data["when"])


@extend_schema(
    tags=["play"],
    summary="Post now",
    parameters=[ID, IDEMPOTENCY_KEY],
    request=None,
    responses={200: STATE, **ERRORS},
)
class TablePostNow(_PlayView):
    """Stop waiting for the big blind: dealt in from the next hand, posting a big blind."""

    def post(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        return self.move(request, self.table(request, pk), "post_now")


@extend_schema(
    tags=["play"],
    summary="Top up",
    parameters=[ID, IDEMPOTENCY_KEY],
    request=TopUpSerializer,
    responses={200: STATE, **ERRORS},
)
class TableTopUp(_PlayView):
    """Add chips from your bankroll to your stack, up to the table's maximum buy-in."""

    def post(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        table = self.table(request, pk)
        body = TopUpSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        return self.move(request, table, "top_up", amount=body.validated_data["amount"])


class BroadcastSerializer(serializers.Serializer[Any]):
    agree = serializers.BooleanField(
        help_text="true: spectators may see your hole cards after the host's delay (the "
        "broadcast starts once every seated player agrees); false: withdraw (from the next "
        "hand)."
    )


@extend_schema(
    tags=["play"],
    summary="Agree to, or withdraw from, the hole-card broadcast",
    parameters=[ID, IDEMPOTENCY_KEY],
    request=BroadcastSerializer,
    responses={200: STATE, **ERRORS},
)
class TableBroadcast(_PlayView):
    """The host proposed showing hole cards to spectators (the state's ``broadcast``): agree
    or withdraw, for yourself. ``not_seated`` when you have no seat here, ``not_proposed``
    to agree when there is nothing proposed."""

    def post(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        table = self.table(request, pk)
        body = BroadcastSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        return self.move(request, table, "broadcast", agree=body.validated_data["agree"])
