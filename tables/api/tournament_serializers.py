"""The tournaments' API serializers: what organising takes and what a tournament, its
entrants and its tables read as (``tables.api.tournaments`` serves them)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_datetime
from rest_framework import exceptions, serializers

from tables.api.serializers import LevelNowSerializer
from tables.api.strict import StrictBooleanField, StrictCharField, StrictWholeNumberField
from tables.models import Table
from tables.names import validate_name
from tables.tournaments import structure
from tables.tournaments.models import Tournament


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


class EditSerializer(OrganiseSerializer):
    """The settings to change before the start (any of the organising ones but ``club`` and
    ``bot_entrants``: bots are entries); those not given stay. Read with ``partial=True``."""

    club = None  # type: ignore[assignment]
    bot_entrants = None  # type: ignore[assignment]

    def settings(self) -> dict[str, Any]:
        """The service's keyword arguments: only those given."""
        data = dict(self.validated_data)
        if "start" in data:
            data["start"], data["start_at"] = data["start"]
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


class EstimateSerializer(serializers.Serializer[Any]):
    levels = serializers.IntegerField(help_text="Levels played (the one it ends in counted).")
    length = serializers.IntegerField(help_text="Minutes with the breaks, or hands.")
    unit = serializers.ChoiceField(["minutes", "hands"])
    open_ended = serializers.BooleanField(help_text="The last level comes first: at least this.")
    text = serializers.CharField(help_text='In words, e.g. "about 2 h 10 min".')


class TournamentDetailSerializer(TournamentSummarySerializer):
    level = LevelNowSerializer(allow_null=True, help_text="Null once finished.")
    estimate = EstimateSerializer(
        allow_null=True,
        help_text="How long it is expected to last with its most entrants (else those in), "
        "as the organise page's preview says; null for a fixed-hands game.",
    )
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
        fields = [*TournamentSummarySerializer.Meta.fields, "level", "estimate", "prizes"]
        fields += ["tables"]
        fields += ["invite_url", "may_rebuy", "may_reenter", "may_addon", "entrants"]
        read_only_fields = fields
