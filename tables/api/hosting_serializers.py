"""The hosting API's serializers: a hosted table as the API shows it, a game's settings (new
or changed), seat requests and the host's controls on a player."""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions, serializers
from rest_framework.request import Request

from tables.api.serializers import TableSerializer
from tables.api.strict import StrictBooleanField, StrictCharField, StrictWholeNumberField
from tables.models import SeatRequest, Table
from tables.names import validate_name
from tables.selectors.access import can_host
from tables.selectors.hosting import request_status


class HostedTableSerializer(TableSerializer):
    """A table with its hosting: the host, whether private, and for the host the invite URL."""

    host = serializers.CharField(source="host.name", default=None, read_only=True, allow_null=True)
    host_id = serializers.IntegerField(read_only=True, allow_null=True)
    invite_url = serializers.SerializerMethodField(help_text="Only for the host (else null).")

    class Meta(TableSerializer.Meta):
        fields = [
            *TableSerializer.Meta.fields,
            "host",
            "host_id",
            "private",
            "seat_approval",
            "top_up_approval",
            "spectator_chat",
            "hud",
            "bot_seats",
            "time_bank_refill_seconds",
            "time_bank_refill_hands",
            "missed_blinds",
            "run_it_twice",
            "bomb_pot_ante",
            "bomb_pot_every",
            "bomb_pot_next",
            "bomb_pot_double_board",
            "closed_at",
            "invite_url",
        ]
        read_only_fields = fields

    def get_invite_url(self, table: Table) -> str | None:
        request: Request | None = self.context.get("request")
        if request is None or not table.invite_token or not can_host(table, request.user):
            return None
        return request.build_absolute_uri(f"/join/{table.invite_token}/")


class GameSettingsSerializer(serializers.Serializer[Any]):
    """The settings of a game (all optional: the defaults make a good night). Checked as a
    whole by the service (``Table.clean``); a wrong one is a 400 naming it."""

    name = StrictCharField(max_length=80, required=False, validators=[validate_name])
    game = serializers.ChoiceField(Table.GAME_CHOICES, required=False)
    betting = serializers.ChoiceField(Table.Betting.choices, required=False)
    ante_mode = serializers.ChoiceField(Table.AnteMode.choices, required=False)
    small_blind = StrictWholeNumberField(min_value=0, required=False)
    big_blind = StrictWholeNumberField(min_value=1, required=False)
    ante = StrictWholeNumberField(min_value=0, required=False)
    straddle = StrictWholeNumberField(
        min_value=0, required=False, help_text="The first straddle's amount (0: none)."
    )
    straddles = StrictWholeNumberField(
        min_value=0,
        max_value=10,
        required=False,
        help_text="How many straddles: under the gun, then re-straddles each double the last.",
    )
    button_straddle = StrictBooleanField(
        required=False, help_text="The one straddle is posted by the button."
    )
    bring_in = StrictWholeNumberField(
        min_value=0, required=False, help_text="Stud games: the bring-in, below the small bet."
    )
    small_bet = StrictWholeNumberField(
        required=False,
        allow_null=True,
        help_text="Fixed limit (required for stud games): the bet of the first streets.",
    )
    big_bet = StrictWholeNumberField(
        required=False,
        allow_null=True,
        help_text="Fixed limit: the bet of the later streets (default: twice the small bet).",
    )
    max_seats = StrictWholeNumberField(min_value=2, max_value=12, required=False)
    min_buy_in = StrictWholeNumberField(required=False)
    max_buy_in = StrictWholeNumberField(required=False)
    action_seconds = StrictWholeNumberField(min_value=3, max_value=600, required=False)
    time_bank_seconds = StrictWholeNumberField(min_value=0, max_value=3600, required=False)
    time_bank_refill_seconds = StrictWholeNumberField(
        min_value=0,
        max_value=3600,
        required=False,
        help_text="Seconds given back to each time bank every few hands, up to its size (0: none).",
    )
    time_bank_refill_hands = StrictWholeNumberField(
        min_value=1,
        max_value=1000,
        required=False,
        help_text="The time bank refills after every this many hands.",
    )
    missed_blinds = serializers.ChoiceField(
        Table.MissedBlinds.choices,
        required=False,
        help_text="A player back after missing the blinds: post (the small dead, the big "
        "live) or wait (for the big blind).",
    )
    bot_seats = StrictWholeNumberField(min_value=0, max_value=10, required=False)
    private = StrictBooleanField(required=False)
    seat_approval = StrictBooleanField(required=False)
    top_up_approval = StrictBooleanField(required=False)
    spectator_chat = StrictBooleanField(required=False)
    hud = StrictBooleanField(
        required=False, help_text="The players' statistics beside the seats (the HUD)."
    )
    run_it_twice = StrictBooleanField(required=False)
    bomb_pot_ante = StrictWholeNumberField(min_value=0, required=False)
    bomb_pot_every = StrictWholeNumberField(min_value=0, max_value=1000, required=False)
    bomb_pot_double_board = StrictBooleanField(required=False)
    rotation_hands = StrictWholeNumberField(
        min_value=0,
        max_value=1000,
        required=False,
        help_text="Mixed games: hands of each game before the next (0: one orbit).",
    )
    choice_games = serializers.ListField(
        child=serializers.ChoiceField(Table.PICKS),
        required=False,
        max_length=len(Table.PICKS),
        help_text="Dealer's choice: the games the button may pick, as game/betting "
        "(e.g. holdem/no-limit); the first is dealt when the button does not pick in time.",
    )
    choice_seconds = StrictWholeNumberField(
        min_value=5,
        max_value=600,
        required=False,
        help_text="Dealer's choice: seconds the button has to pick.",
    )

    def to_internal_value(self, data: Any) -> Any:
        if hasattr(data, "keys"):
            unknown = sorted(set(data.keys()) - set(self.fields))
            if unknown:
                raise exceptions.ValidationError(
                    dict.fromkeys(unknown, ["Not a setting a host can change."])
                )
        return super().to_internal_value(data)


class NewGameSerializer(GameSettingsSerializer):
    """A new game's settings, and the club it belongs to (``club``: its members see it)."""

    club = StrictWholeNumberField(
        min_value=1, required=False, help_text="A club you belong to: the game is its members'."
    )


class SeatRequestSerializer(serializers.ModelSerializer[Any]):
    player = serializers.CharField(source="player.name", read_only=True)
    status = serializers.SerializerMethodField(help_text="pending, approved, declined, expired")

    class Meta:
        model = SeatRequest
        fields = ["id", "player_id", "player", "kind", "amount", "seat_number", "status"]
        read_only_fields = fields

    def get_status(self, seat_request: SeatRequest) -> str:
        return request_status(seat_request)


class AskSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(SeatRequest.Kind.choices, default=SeatRequest.Kind.SEAT)
    amount = StrictWholeNumberField(help_text="The buy-in, or the chips to add.")
    seat = StrictWholeNumberField(required=False, max_value=12, help_text="1 to the table's seats.")


class PlayerControlSerializer(serializers.Serializer[Any]):
    action = serializers.ChoiceField(["remove", "sit_out", "make_host", "correct_stack"])
    stack = StrictWholeNumberField(required=False, help_text="The corrected stack (correct_stack).")


# --- helpers --------------------------------------------------------------------------------
