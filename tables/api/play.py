"""The play API: a table's state for the caller, and every move a player makes at a table.

Each move is one of the socket's operations (``tables.operations.OPERATIONS``: the same
parser-free call of the same service, so the browser, the socket and this API follow one set
of rules), carried out in the turn of the table's runtime where this process has one, in
order with the sockets' requests (``tables.operations.carry_out_move``), and answers with
the caller's new play state (``tables.presenters.play_state``).
A refusal is ``{"code", "message"}``: 409 when the table has moved on or the seat is not in
the right state for it (``stale_version``, ``not_your_turn``, ``table_full``...), 400 when
the request breaks a rule (the engine's rule codes such as ``below_min_raise``,
``buy_in_out_of_range``...). Any POST (and DELETE) may carry an ``Idempotency-Key`` header:
a retry with the same key gets the first answer again (``Idempotent-Replayed: true``) and
acts once (``tables.services.idempotency``).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.utils import timezone
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import (
    Direction,
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import exceptions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from engine.pre_actions import KINDS as PRE_ACTION_KINDS
from tables.api.exceptions import ErrorSerializer
from tables.api.permissions import AllowAny, AuthenticatedApiRequest, IsAuthenticated
from tables.api.schema import as_openapi
from tables.api.serializers import WholeNumberField
from tables.api.throttling import AnonRateThrottle, PlayRateThrottle
from tables.api.views import ID, _id
from tables.http import Viewer
from tables.models import Table
from tables.operations import carry_out_move
from tables.presenters.broadcast import broadcast_reveal
from tables.presenters.play_state import PLAY_STATE, play_state
from tables.presenters.screen import table_screen
from tables.selectors.access import can_see_table
from tables.selectors.held import made_from_table
from tables.selectors.hosting import left_table
from tables.selectors.players import player_bankroll, viewer_player
from tables.selectors.snapshot import Snapshot
from tables.services import errors
from tables.services.idempotency import Answer, idempotent_answer
from tables.services.leases import LeaseLost
from tables.text import ACTION_KINDS, BadFrame, discard_card_texts

#: Refusals because the table is not in the state the request expects (409); every other
#: refusal breaks a rule or a limit (400).
CONFLICTS = (
    errors.StaleAction,
    errors.NotYourTurn,
    errors.HandNotRunning,
    errors.HandInProgress,
    errors.TableNotOpen,
    errors.SeatTaken,
    errors.TableFull,
    errors.AlreadySeated,
    errors.NotSeated,
    errors.ReseatTooSoon,
    errors.RemovedByHost,
    LeaseLost,  # the table moving between servers: nothing was done
)
#: Their codes: a refusal forwarded from the process that owns the table keeps its code only.
CONFLICT_CODES = frozenset(refusal.code for refusal in CONFLICTS)
IDEMPOTENCY_KEY_CHARS = frozenset(map(chr, range(0x21, 0x7F)))


class PlayStateSerializer(serializers.Serializer[Any]):
    """The play state in the OpenAPI document: one component, ``PlayState``, that every
    endpoint answering with it refers to. Never instantiated: ``tables.presenters.play_state``
    builds the state; its schema is ``PLAY_STATE`` (``PlayStateSchema`` below)."""


# drf-spectacular's registering __init_subclass__ is unannotated
class PlayStateSchema(OpenApiSerializerExtension):  # type: ignore[no-untyped-call]
    """drf-spectacular's hook: ``PlayStateSerializer``'s component is the JSON Schema file
    itself (in OpenAPI 3.0's form), not fields restated here."""

    target_class = PlayStateSerializer

    def map_serializer(self, auto_schema: AutoSchema, direction: Direction) -> Any:
        return as_openapi(PLAY_STATE)


STATE = OpenApiResponse(PlayStateSerializer, "The caller's play state.")
ERRORS = {
    409: OpenApiResponse(
        ErrorSerializer, "The table has moved on (stale_version, not_your_turn, table_full...)."
    ),
    422: OpenApiResponse(
        ErrorSerializer,
        "The Idempotency-Key was used for another request (idempotency_key_reused).",
    ),
}
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="Up to 255 printable ASCII characters, new for each request: a retry with the "
    "same key gets the first answer again and acts once (keys are kept 24 hours).",
)


def state_for(table: Table | int, user: Viewer) -> dict[str, Any]:
    """The play state of ``table`` for ``user`` (anonymous: a spectator) now: of the table as
    the runtime that owns it in this process holds it (``made_from_table``: in its turn,
    nothing read or replayed), else read."""
    table_id = table.pk if isinstance(table, Table) else table
    player = viewer_player(user)
    bankroll = player_bankroll(player.pk) if player is not None else None
    left_with = left_table(table_id, player).minimum if player is not None else 0
    now = timezone.now()

    def state(snapshot: Snapshot) -> dict[str, Any]:
        # a viewer without a seat: the hole cards a broadcast with the players' agreement shows
        revealed = broadcast_reveal(snapshot, player.pk if player is not None else None, now)
        screen = table_screen(snapshot, player, bankroll, left_with=left_with, revealed=revealed)
        return play_state(snapshot, screen)

    made = made_from_table(table_id, state)
    if made is None:  # the table was deleted since it was read
        raise exceptions.NotFound("No such table.")
    return made


def _visible_table(pk: int, user: Viewer) -> Table:
    """The table ``pk`` if ``user`` may see it, else 404 (a private game does not exist for
    those who may not see it)."""
    table = Table.objects.filter(pk=_id(pk)).first()
    if table is None or not can_see_table(table, user):
        raise exceptions.NotFound("No such table.")
    return table


def _refusal(error: errors.ServiceError) -> Answer:
    status = 409 if error.code in CONFLICT_CODES else 400
    return Answer(status, {"code": error.code, "message": str(error)})


def _fingerprint(request: Request) -> str:
    body = json.dumps(request.data, sort_keys=True, default=str)
    return hashlib.sha256(f"{request.method} {request.path}\n{body}".encode()).hexdigest()


class _PlayView(APIView):
    """A move at a table: ``op`` of ``OPERATIONS`` with the fields ``fields(request)`` gives."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [AnonRateThrottle, PlayRateThrottle]

    def table(self, request: Request, pk: int) -> Table:
        """The table of the request, before its body is read: a table the caller may not
        see is 404 whatever the body says."""
        return _visible_table(pk, request.user)

    def move(
        self, request: AuthenticatedApiRequest, table: Table, op: str, **fields: Any
    ) -> Response:
        player = viewer_player(request.user)
        if player is None:
            raise exceptions.PermissionDenied("Your account has no player profile.")

        key = request.headers.get("Idempotency-Key")

        def run() -> Answer:
            try:  # in the table's runtime's turn; with a key, in the key's transaction
                carry_out_move(table.pk, request.user, player, op, fields)
            except errors.ServiceError as error:
                return _refusal(error)
            return Answer(200, state_for(table.pk, request.user))  # read after the move

        if key is None:
            answer = run()
        else:
            if not 1 <= len(key) <= 255 or not IDEMPOTENCY_KEY_CHARS.issuperset(key):
                raise exceptions.ValidationError(
                    {"Idempotency-Key": "Up to 255 printable ASCII characters, no spaces."}
                )
            try:
                answer = idempotent_answer(
                    user=request.user, key=key, fingerprint=_fingerprint(request), run=run
                )
            except errors.ServiceError as error:  # the key was used for another request
                answer = Answer(422, {"code": error.code, "message": str(error)})
        response = Response(answer.body, status=answer.status)
        if answer.replayed:
            response["Idempotent-Replayed"] = "true"
        return response


# --- the state ----------------------------------------------------------------------------
@extend_schema(
    tags=["play"],
    summary="A table's state for you",
    parameters=[ID],
    responses={200: STATE},
)
class TableState(APIView):
    """Everything you may know of the table now, as your browser shows it: seats, stacks,
    bets, the cards you may see (yours; others' only once shown at showdown), the board, the
    pots, whose turn it is, your legal actions on your turn, the clock and the log. Without
    logging in: a spectator's state. Follow changes on the table's socket (the AsyncAPI
    document) rather than by polling."""

    permission_classes = [AllowAny]
    throttle_classes = [AnonRateThrottle, PlayRateThrottle]

    def get(self, request: Request, pk: int) -> Response:
        table = _visible_table(pk, request.user)
        return Response(state_for(table.pk, request.user))


# --- actions ------------------------------------------------------------------------------
class MoveSerializer(serializers.Serializer[Any]):
    """An action without an amount (any ``amount`` sent is not read)."""

    hand = WholeNumberField(help_text="The running hand's id (the state's hand).")
    version = WholeNumberField(min_value=0, help_text="The state's version you acted on.")
    action = serializers.ChoiceField(
        choices=[k for k in ACTION_KINDS if k not in ("raise", "discard")]
    )


class RaiseSerializer(MoveSerializer):
    """A bet or a raise, to ``amount``."""

    action = serializers.ChoiceField(choices=["raise"])
    amount = WholeNumberField(help_text="The street total to bet or raise to.")


class DiscardSerializer(MoveSerializer):
    """A draw game's draw: the cards thrown away (none: stand pat); as many are dealt."""

    action = serializers.ChoiceField(choices=["discard"])
    cards = serializers.ListField(
        child=serializers.CharField(max_length=2, min_length=2),
        max_length=5,
        default=list,
        help_text='The cards to throw away, from your hand ("7h", "2c"); [] stands pat.',
    )


ACTION_REQUEST = PolymorphicProxySerializer(
    component_name="PlayAction",
    serializers=[MoveSerializer, RaiseSerializer, DiscardSerializer],
    resource_type_field_name=None,
)
#: The body each kind of action is read with (the rest: ``MoveSerializer``).
ACTION_BODIES: dict[str, type[MoveSerializer]] = {
    "raise": RaiseSerializer,
    "discard": DiscardSerializer,
}


def _discard_cards(cards: list[str]) -> list[str]:
    """The discard's cards checked (each a card, each once), else a 400 naming ``cards``."""
    try:
        return discard_card_texts(cards)
    except BadFrame as error:
        raise serializers.ValidationError({"cards": [str(error)]}) from None


@extend_schema(
    tags=["play"],
    summary="Act in the running hand",
    parameters=[ID, IDEMPOTENCY_KEY],
    request=ACTION_REQUEST,
    responses={200: STATE, **ERRORS},
)
class TableActions(_PlayView):
    """Fold, check, call, raise (to ``amount``, the street total) or go all-in, in the hand
    ``hand`` as you saw it at ``version``; in a draw game's draw, discard ``cards`` (none:
    stand pat; ``discard_not_held`` for a card not in your hand, ``no_draw_now`` outside a
    draw). 409 ``stale_version`` if the hand moved on since
    (nothing was done: look again), ``not_your_turn``; 400 with the rule's code and words for
    an illegal move (``below_min_raise``, ``check_facing_bet``, ``nothing_to_call``...)."""

    def post(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        table = self.table(request, pk)
        kind = request.data.get("action") if isinstance(request.data, dict) else None
        body = ACTION_BODIES.get(kind if isinstance(kind, str) else "", MoveSerializer)(
            data=request.data
        )
        body.is_valid(raise_exception=True)
        data = body.validated_data
        action = {"kind": data["action"], "amount": data.get("amount")}
        if data["action"] == "discard":
            action["cards"] = _discard_cards(data["cards"])
        return self.move(
            request, table, "act", hand_id=data["hand"], version=data["version"], action=action
        )


class RabbitHuntSerializer(serializers.Serializer[Any]):
    hand = WholeNumberField(help_text="The finished hand's id (the state's result.hand).")


@extend_schema(
    tags=["play"],
    summary="Rabbit hunt",
    parameters=[ID, IDEMPOTENCY_KEY],
    request=RabbitHuntSerializer,
    responses={200: STATE, **ERRORS},
)
class TableRabbitHunt(_PlayView):
    """After a hand that ended before the river, show everyone the board cards that would
    have come (the state's ``rabbit``): any seated player, once per hand, changing nothing.
    ``no_rabbit`` when the board was complete or already hunted, ``runout_showing`` while
    an all-in run-out is being dealt."""

    def post(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        table = self.table(request, pk)
        body = RabbitHuntSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        return self.move(request, table, "rabbit_hunt", hand_id=body.validated_data["hand"])


class ChooseGameSerializer(serializers.Serializer[Any]):
    game = serializers.ChoiceField(
        choices=Table.PICKS, help_text="The game and betting, as game/betting (holdem/no-limit)."
    )


@extend_schema(
    tags=["play"],
    summary="Dealer's choice: pick the game",
    parameters=[ID, IDEMPOTENCY_KEY],
    request=ChooseGameSerializer,
    responses={200: STATE, **ERRORS},
)
class TableChooseGame(_PlayView):
    """At a dealer's-choice table, the player on the next button picks the orbit's game and
    betting from the host's list before the time is up (else the list's first is dealt).
    ``no_choice_now`` when nobody is picking, ``not_your_turn`` for another player,
    ``bad_choice`` for a game not on the list."""

    def post(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        table = self.table(request, pk)
        body = ChooseGameSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        return self.move(request, table, "choose_game", pick=body.validated_data["game"])


class ShowCardsSerializer(serializers.Serializer[Any]):
    hand = WholeNumberField(help_text="The finished hand's id (the state's result.hand).")
    cards = serializers.ListField(
        child=serializers.CharField(max_length=4),
        required=False,
        max_length=7,
        help_text='The cards to show, like ["Ah"]; left out: all of them.',
    )


@extend_schema(
    tags=["play"],
    summary="Show your cards",
    parameters=[ID, IDEMPOTENCY_KEY],
    request=ShowCardsSerializer,
    responses={200: STATE, **ERRORS},
)
class TableShowCards(_PlayView):
    """Once a hand is over and until the next one starts, show everyone all or some of your
    cards from it (after a fold, winning without a showdown, or losing at one): everyone sees
    exactly those cards, in the log, the replayer and the histories. ``cannot_show`` for a
    card not yours or cards seen already, ``hand_not_running`` once the next hand started."""

    def post(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        table = self.table(request, pk)
        body = ShowCardsSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        return self.move(
            request, table, "show_cards", hand_id=data["hand"], cards=data.get("cards") or None
        )


class PreActionSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(
        ["", *PRE_ACTION_KINDS],
        help_text='What to do when your turn comes: "check_fold", "check", "call" (the amount '
        'to call now), "call_any" or "fold" (those the state\'s pre_actions.offers lists); '
        '"" takes it back.',
    )
    amount = WholeNumberField(
        required=False,
        allow_null=True,
        help_text='"call": the amount to call you saw (refused, invalid_choice, if it changed).',
    )


@extend_schema(
    tags=["play"],
    summary="Act in advance",
    parameters=[ID, IDEMPOTENCY_KEY],
    request=PreActionSerializer,
    responses={200: STATE, **ERRORS},
)
class TablePreAction(_PlayView):
    """While another player is to act, tick what to do when your turn comes: the server takes
    it in the same step as the action that brings your turn, if it still means the same ("call
    40" is void once the amount to call changed, "check" on a bet; "check_fold" folds to a
    bet). Cleared at the end of the street. ``not_your_turn`` when you are to act already,
    ``hand_not_running`` when you are not in the hand, ``invalid_choice`` for a choice not
    offered now (the state's ``pre_actions``)."""

    def post(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        table = self.table(request, pk)
        body = PreActionSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        amount = data.get("amount") if data["kind"] == "call" else None
        return self.move(request, table, "pre_action", kind=data["kind"], amount=amount)
