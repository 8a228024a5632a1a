"""What the API sends (and the query parameters it reads). Public table information only;
hand histories are built by ``tables.stats.selectors.hand_history`` (viewer-filtered)."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from engine.variants import ALL_STREETS
from tables.api.replay_serializers import ReplayStepSerializer
from tables.models import Player, PlayerHand, Seat, Table
from tables.stats.selectors import LEADERBOARD_ORDERS, RESULTS, HandFilter
from tables.text import LARGEST, NumberError, parse_whole_number
from tables.tournaments.level import tournament_banner
from tables.tournaments.models import Tournament
from tables.tournaments.records import LEADERBOARD_ORDERS as TOURNAMENT_ORDERS, ROI_MIN_TOURNAMENTS


# --- tables -------------------------------------------------------------------------------
class BlindsSerializer(serializers.Serializer[Any]):
    small_blind = serializers.IntegerField()
    big_blind = serializers.IntegerField()
    ante = serializers.IntegerField()


class LevelNowSerializer(BlindsSerializer):
    number = serializers.IntegerField(help_text="The level in play, from 1.")
    next = BlindsSerializer(allow_null=True, help_text="Null at the last level (it stays).")
    hands_left = serializers.IntegerField(
        allow_null=True, help_text="Levels by hands: hands of this level still to play."
    )
    next_at = serializers.DateTimeField(
        allow_null=True, help_text="Levels by minutes: when the next level starts."
    )
    on_break = serializers.BooleanField(
        help_text="A break is on: no hand is dealt; the level is the one play resumes at."
    )
    break_minutes_left = serializers.IntegerField(
        allow_null=True, help_text="During a break: its minutes left, rounded up."
    )
    break_ends_at = serializers.DateTimeField(
        allow_null=True, help_text="During a break: when play resumes."
    )


class SeatSerializer(serializers.ModelSerializer[Any]):
    player = serializers.CharField(source="player.name", read_only=True)
    player_id = serializers.IntegerField(read_only=True)

    class Meta:
        model = Seat
        fields = ["number", "player_id", "player", "stack", "sitting_out"]


class TableTournamentSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    url = serializers.CharField(help_text="The tournament's page.")
    level = LevelNowSerializer()
    blinds = serializers.CharField(
        help_text='The level\'s blinds for people, e.g. "50/100 ante 10".'
    )
    next_blinds = serializers.CharField(
        allow_null=True, help_text="The next level's, for people; null at the last level."
    )


def table_tournament(table: Table) -> Tournament | None:
    """The tournament ``table`` belongs to, or None (a cash table); no query when the table
    was read with ``select_related("tournament_table__tournament")``."""
    try:
        return table.tournament_table.tournament
    except ObjectDoesNotExist:
        return None


class TableSerializer(serializers.ModelSerializer[Any]):
    """A table; a tournament's is marked by ``tournament`` and has no buy-in (the tournament
    seats its players with its chips)."""

    variant = serializers.CharField(read_only=True)
    stakes = serializers.CharField(read_only=True)
    min_buy_in = serializers.SerializerMethodField(
        help_text="The least buy-in; null at a tournament's table (no buy-in there)."
    )
    max_buy_in = serializers.SerializerMethodField(
        help_text="The largest buy-in; null at a tournament's table (no buy-in there)."
    )
    tournament = serializers.SerializerMethodField(
        help_text="At a tournament's table: the tournament and its level now and next; "
        "null at a cash table."
    )
    seats = SeatSerializer(many=True, read_only=True)

    def get_min_buy_in(self, table: Table) -> int | None:
        return None if table_tournament(table) else table.effective_min_buy_in

    def get_max_buy_in(self, table: Table) -> int | None:
        return None if table_tournament(table) else table.effective_max_buy_in

    @extend_schema_field(TableTournamentSerializer(allow_null=True))
    def get_tournament(self, table: Table) -> dict[str, Any] | None:
        tournament = table_tournament(table)
        return tournament_banner(tournament) if tournament is not None else None

    class Meta:
        model = Table
        fields = [
            "id",
            "name",
            "game",
            "betting",
            "variant",
            "stakes",
            "small_blind",
            "big_blind",
            "ante",
            "ante_mode",
            "straddle",
            "straddles",
            "button_straddle",
            "bring_in",
            "small_bet",
            "big_bet",
            "max_seats",
            "min_buy_in",
            "max_buy_in",
            "action_seconds",
            "time_bank_seconds",
            "bots_allowed",
            "status",
            "tournament",
            "seats",
        ]
        read_only_fields = fields


# --- players and statistics ---------------------------------------------------------------
class PlayerSerializer(serializers.ModelSerializer[Any]):
    name = serializers.CharField(read_only=True)
    hands_played = serializers.IntegerField(read_only=True)
    bankroll = serializers.SerializerMethodField(
        help_text="Only in your own profile (null for other players)."
    )

    class Meta:
        model = Player
        fields = ["id", "name", "is_bot", "bot_account", "created_at", "hands_played", "bankroll"]
        read_only_fields = fields

    def get_bankroll(self, player: Player) -> int | None:
        request = self.context.get("request")
        mine = request is not None and getattr(request.user, "player", None) == player
        return player.bankroll if mine else None


class StatCountsSerializer(serializers.Serializer[Any]):
    vpip = serializers.IntegerField()
    pfr = serializers.IntegerField()
    three_bet_chances = serializers.IntegerField()
    three_bets = serializers.IntegerField()
    saw_flop = serializers.IntegerField()
    showdowns = serializers.IntegerField()
    won_at_showdown = serializers.IntegerField()
    postflop_bets_raises = serializers.IntegerField()
    postflop_calls = serializers.IntegerField()


class TournamentFinishSerializer(serializers.Serializer[Any]):
    tournament_id = serializers.IntegerField()
    name = serializers.CharField()
    format = serializers.ChoiceField(Tournament.Format.choices)  # one enum with the tournament's
    started_at = serializers.DateTimeField(allow_null=True)
    entrants = serializers.IntegerField()
    place = serializers.IntegerField()
    entry_fee = serializers.IntegerField(
        help_text="Fee paid, rebuys, re-entries and the add-on included."
    )
    prize = serializers.IntegerField()
    bounties = serializers.IntegerField(help_text="Bounties won.")


class TournamentRecordSerializer(serializers.Serializer[Any]):
    """A player's tournaments, counted once their place is decided (since/until: by the day a
    tournament started; the table filter does not apply)."""

    played = serializers.IntegerField(help_text="Tournaments with the player's place decided.")
    wins = serializers.IntegerField(help_text="First places.")
    best_place = serializers.IntegerField(allow_null=True)
    in_the_money = serializers.IntegerField(help_text="Tournaments that paid a prize.")
    in_the_money_percent = serializers.FloatField(allow_null=True)
    entry_fees = serializers.IntegerField(
        help_text="Entry fees, rebuys, re-entries and add-ons paid."
    )
    prizes = serializers.IntegerField()
    bounties = serializers.IntegerField(help_text="Bounties won (bounty tournaments).")
    profit = serializers.IntegerField(help_text="Prizes + bounties − entry fees.")
    roi = serializers.FloatField(
        allow_null=True,
        help_text="Return on entry fees, % (profit ÷ entry fees); null with no fees paid.",
    )
    recent = TournamentFinishSerializer(
        many=True, help_text="The latest finishes you may see, newest first."
    )


class AllInEVSerializer(serializers.Serializer[Any]):
    """Net beside all-in adjusted winnings (EV) over cash hands: in an all-in hand, the EV
    counts each player's equity share of each pot at the all-in instead of what the cards
    dealt gave them."""

    game = serializers.CharField(allow_null=True, help_text="null: every game.")
    hands = serializers.IntegerField(help_text="Cash hands.")
    all_in_hands = serializers.IntegerField(help_text="Of them, all in before the last card.")
    net = serializers.IntegerField(help_text="Chips won.")
    ev = serializers.FloatField(help_text="All-in adjusted chips won.")
    luck = serializers.FloatField(help_text="net − ev: ran above (+) or below (−) EV.")
    net_bb = serializers.FloatField(help_text="Big blinds won.")
    ev_bb = serializers.FloatField(help_text="All-in adjusted big blinds won.")
    net_bb_per_100 = serializers.FloatField(allow_null=True)
    ev_bb_per_100 = serializers.FloatField(allow_null=True)


class StatsSerializer(serializers.Serializer[Any]):
    """A player's statistics; percentages 0-100, null when the spot never came up. Tournament
    hands count in the hand figures; the chip figures (net won, bb/100, biggest pot) are of
    cash hands only (tournament chips are not bankroll chips)."""

    player_id = serializers.IntegerField()
    name = serializers.CharField()
    table = serializers.IntegerField(allow_null=True)
    game = serializers.CharField(allow_null=True)
    since = serializers.DateField(allow_null=True)
    until = serializers.DateField(allow_null=True)
    hands = serializers.IntegerField(help_text="Finished hands dealt in.")
    vpip = serializers.FloatField(
        allow_null=True,
        help_text="% voluntarily put chips in preflop (stud games: on 3rd street; the "
        "bring-in is forced).",
    )
    pfr = serializers.FloatField(
        allow_null=True,
        help_text="% raised preflop (stud games: completed or raised on 3rd street).",
    )
    three_bet = serializers.FloatField(
        allow_null=True, help_text="% re-raised preflop when facing exactly one raise."
    )
    aggression_factor = serializers.FloatField(
        allow_null=True, help_text="Postflop bets + raises ÷ postflop calls."
    )
    wtsd = serializers.FloatField(allow_null=True, help_text="% went to showdown after the flop.")
    wsd = serializers.FloatField(allow_null=True, help_text="% of showdowns that won chips.")
    cash_hands = serializers.IntegerField(help_text="Of them, hands at cash tables.")
    net_won = serializers.IntegerField(
        help_text="Chips collected − chips contributed, in cash hands."
    )
    bb_per_100 = serializers.FloatField(
        allow_null=True, help_text="Big blinds won per 100 cash hands."
    )
    biggest_pot_won = serializers.IntegerField(help_text="Most chips collected in one cash hand.")
    counts = StatCountsSerializer()
    allin_ev = AllInEVSerializer(
        many=True,
        help_text="Net beside all-in EV, one row per game played at cash tables, then one "
        "for every game (game null); empty with no cash hand.",
    )
    tournaments = TournamentRecordSerializer()


class LeaderboardRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    is_bot = serializers.BooleanField()
    hands = serializers.IntegerField()
    net = serializers.IntegerField()
    bb_per_100 = serializers.FloatField()


class TournamentLeaderboardRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    is_bot = serializers.BooleanField()
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    in_the_money = serializers.IntegerField()
    entry_fees = serializers.IntegerField()
    prizes = serializers.IntegerField()
    bounties = serializers.IntegerField(help_text="Bounties won (bounty tournaments).")
    profit = serializers.IntegerField(help_text="Prizes + bounties − entry fees.")
    roi = serializers.FloatField(allow_null=True, help_text="Null with no entry fees paid.")


class HandRowSerializer(serializers.ModelSerializer[Any]):
    """One line of a player's hand list (no cards: open the hand for its history)."""

    id = serializers.IntegerField(source="hand_id", read_only=True)
    number = serializers.IntegerField(source="hand.number", read_only=True)
    table = serializers.IntegerField(source="table_id", read_only=True)
    table_name = serializers.CharField(source="table.name", read_only=True)
    finished_at = serializers.DateTimeField(source="hand.finished_at", read_only=True)
    pot = serializers.IntegerField(source="hand.pot", read_only=True)
    result = serializers.SerializerMethodField()

    class Meta:
        model = PlayerHand
        fields = [
            "id",
            "number",
            "table",
            "table_name",
            "started_at",
            "finished_at",
            "seat",
            "game",
            "big_blind",
            "pot",
            "contributed",
            "collected",
            "net",
            "result",
            "showdown",
        ]
        read_only_fields = fields

    def get_result(self, row: PlayerHand) -> str:
        return "won" if row.net > 0 else "lost" if row.net < 0 else "even"


# --- query parameters ---------------------------------------------------------------------
class WholeNumberField(serializers.IntegerField):
    """An integer read by ``tables.text``: ASCII digits in ``min_value..max_value`` (1 to
    ``LARGEST`` unless given), where DRF's own reads "١" as 1 and "5.0" as 5."""

    # Never None here: ``__init__`` sets the bounds, binding the field sets its name.
    field_name: str
    min_value: int
    max_value: int

    def __init__(self, *, min_value: int = 1, max_value: int = LARGEST, **kwargs: Any) -> None:
        super().__init__(min_value=min_value, max_value=max_value, **kwargs)

    def to_internal_value(self, data: Any) -> int:
        try:
            return parse_whole_number(
                data, what=self.field_name, minimum=self.min_value, maximum=self.max_value
            )
        except NumberError as error:
            raise serializers.ValidationError(error.problem) from None


class AsciiDateField(serializers.DateField):
    """A ``YYYY-MM-DD`` day in ASCII digits (Django's parser also takes "٢٠٢٤-٠١-٠١")."""

    def to_internal_value(self, value: Any) -> date:
        if isinstance(value, str) and not value.isascii():
            self.fail("invalid", format="YYYY-MM-DD")
        return super().to_internal_value(value)


class HandFilterSerializer(serializers.Serializer[Any]):
    table = WholeNumberField(required=False)
    game = serializers.ChoiceField(
        choices=Table.HAND_GAMES, required=False, help_text="Only hands of this game."
    )
    since = AsciiDateField(required=False, help_text="First day (UTC), inclusive.")
    until = AsciiDateField(
        required=False, help_text="Last day (UTC), inclusive (before since: no hands)."
    )

    def to_filter(self) -> HandFilter:
        return HandFilter(**self.validated_data)


class HandListFilterSerializer(HandFilterSerializer):
    result = serializers.ChoiceField(choices=RESULTS, required=False)
    player = WholeNumberField(
        required=False,
        help_text="Staff only: another player's hands (default: your own).",
    )
    tournament = WholeNumberField(
        required=False, help_text="Only the hands at this tournament's tables."
    )

    def to_filter(self) -> HandFilter:
        data = dict(self.validated_data)
        data.pop("player", None)
        return HandFilter(**data)


class LeaderboardQuerySerializer(serializers.Serializer[Any]):
    order = serializers.ChoiceField(choices=list(LEADERBOARD_ORDERS), default="net")
    min_hands = WholeNumberField(default=100)


class TournamentLeaderboardQuerySerializer(serializers.Serializer[Any]):
    order = serializers.ChoiceField(choices=list(TOURNAMENT_ORDERS), default="profit")
    min_tournaments = WholeNumberField(
        required=False,
        help_text=f"Default 1 ({ROI_MIN_TOURNAMENTS} when ordered by roi).",
    )


# --- hand histories -----------------------------------------------------------------------
class TableRefSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()


class HandSeatSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField(
        help_text="Seat index in this hand, from 0 (0 = first dealt seat); the index "
        "``actions[].seat`` and ``viewer_seat`` use."
    )
    table_seat = serializers.IntegerField(
        help_text="The table's seat the player sat in, counted from 0. The site, the play "
        "state and the terminal client label seats from 1: table_seat 0 is their seat 1."
    )
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    starting_stack = serializers.IntegerField()
    final_stack = serializers.IntegerField()
    net = serializers.IntegerField()
    allin_ev = serializers.FloatField(
        allow_null=True,
        help_text="All-in EV: the expected net (chips) when nobody could bet any more with "
        "board cards still to come, each pot shared by its hands' equity; null without such "
        "an all-in (or while it is being computed, a moment after the hand).",
    )
    cards = serializers.ListField(
        child=serializers.CharField(allow_null=True),
        help_text="Your own cards and cards shown at showdown; null for a hidden card, "
        "empty when folded or mucked.",
    )
    up = serializers.ListField(
        child=serializers.BooleanField(),
        help_text="One flag per card: dealt face up (stud's up-cards, seen by everyone).",
    )
    shown = serializers.BooleanField()
    folded = serializers.BooleanField()
    is_button = serializers.BooleanField()
    is_small_blind = serializers.BooleanField()
    is_big_blind = serializers.BooleanField()


class DecisionSerializer(serializers.Serializer[Any]):
    street = serializers.ChoiceField(
        choices=list(ALL_STREETS),
        help_text="The game's betting rounds: preflop to river, stud's third to seventh, a "
        "draw game's predraw and after each draw (draw1 to draw3).",
    )
    seat = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(
        choices=["fold", "check", "call", "bet", "raise", "bring_in", "discard"],
        help_text="bring_in: stud's forced opening bet; discard: a draw (amount: how many "
        "cards, never which).",
    )
    amount = serializers.IntegerField(
        allow_null=True, help_text="Street total after a call, bet or raise."
    )


class HandHistorySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    table = TableRefSerializer()
    number = serializers.IntegerField()
    status = serializers.CharField()
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    commitment = serializers.CharField(help_text="sha256 of the shuffle seed, as published.")
    config = serializers.DictField()
    viewer_seat = serializers.IntegerField(allow_null=True)
    seats = HandSeatSerializer(many=True)
    board = serializers.ListField(child=serializers.CharField())
    boards = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="Every board dealt: the board, then each later run's (run twice or three "
        "times) or a double-board bomb pot's board two.",
    )
    pot = serializers.IntegerField()
    actions = DecisionSerializer(many=True)
    log = serializers.ListField(child=serializers.CharField(), help_text="PHH-like lines.")
    result = serializers.DictField(allow_null=True)
    steps = ReplayStepSerializer(
        many=True, help_text="The replayer's steps, with each known hand's odds and pot odds."
    )
