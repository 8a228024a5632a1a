"""Tables and the seats at them."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models

from engine.config import HandConfig
from engine.errors import PokerError
from engine.variants import DEFAULT_GAME, MIXED_GAMES, VARIANTS
from tables.models.players import Player
from tables.models.table_game_checks import TableGameChecks
from tables.models.table_games import game_choices, hand_game_choices, pick_choices
from tables.names import name_problem


class Table(TableGameChecks, models.Model):
    """A persistent table: variant, stakes, seats, timers and its live status.

    Stake and variant changes take effect at the next hand: every ``Hand`` stores its own
    ``config``. ``version`` is bumped on every change to the table, its seats or its running
    hand; a player's action carries the version they saw and is refused when it is stale.
    """

    class Betting(models.TextChoices):
        NO_LIMIT = "no-limit", "No-limit"
        POT_LIMIT = "pot-limit", "Pot-limit"
        FIXED_LIMIT = "fixed-limit", "Fixed-limit"

    class AnteMode(models.TextChoices):
        PER_PLAYER = "per-player", "Every player"
        BIG_BLIND = "big-blind", "Big blind ante"

    class MissedBlinds(models.TextChoices):
        POST = "post", "Post them: the small blind dead, the big blind live"
        WAIT = "wait", "Wait for the big blind"

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        PAUSED = "paused", "Paused"
        CLOSED = "closed", "Closed"

    #: Every game a table may deal, as ``game`` stores it: the engine's games, then the
    #: mixed games (a rotation of them, or dealer's choice).
    GAMES: tuple[str, ...] = (*VARIANTS, *MIXED_GAMES)
    #: The games as a form lists them, grouped by family (Hold'em, Omaha, Stud, Draw, Mixed).
    GAME_CHOICES = game_choices()
    #: The games a hand is dealt in (statistics and hand filters: no mixed game).
    HAND_GAMES = hand_game_choices()
    #: Dealer's choice: every game and betting the button may pick ("holdem/no-limit").
    PICKS = pick_choices()
    DEFAULT_GAME = DEFAULT_GAME
    name = models.CharField(max_length=80, unique=True)
    game = models.CharField(max_length=16, choices=GAME_CHOICES, default=DEFAULT_GAME)
    betting = models.CharField(max_length=16, choices=Betting.choices, default=Betting.NO_LIMIT)
    small_blind = models.PositiveIntegerField(default=1)
    big_blind = models.PositiveIntegerField(default=2)
    ante = models.PositiveIntegerField(default=0)
    ante_mode = models.CharField(
        max_length=16, choices=AnteMode.choices, default=AnteMode.PER_PLAYER
    )
    straddle = models.PositiveIntegerField(
        default=0,
        help_text="The first straddle (under the gun), at least twice the big blind; 0 for none.",
    )
    straddles = models.PositiveSmallIntegerField(
        default=0,
        help_text="How many straddles: under the gun, then each next seat re-straddles double "
        "the previous (1 when only the straddle is set; up to seats - 2).",
    )
    button_straddle = models.BooleanField(
        default=False, help_text="The one straddle is posted by the button instead."
    )
    bring_in = models.PositiveIntegerField(
        default=0, help_text="Stud games: the forced opening bet, below the small bet."
    )
    small_bet = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Fixed limit: the bet of the first streets (stud: 3rd and 4th street); "
        "empty means the big blind.",
    )
    big_bet = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Fixed limit: the bet of the later streets; empty means twice the small bet.",
    )
    max_seats = models.PositiveSmallIntegerField(
        default=6, help_text="2 up to the game's most (12 for Hold'em, 6 for the draw games)."
    )
    min_buy_in = models.PositiveIntegerField(
        null=True, blank=True, help_text="Chips; empty means 20 big blinds."
    )
    max_buy_in = models.PositiveIntegerField(
        null=True, blank=True, help_text="Chips; empty means 100 big blinds."
    )
    action_seconds = models.PositiveSmallIntegerField(
        default=30, help_text="Seconds each player has to act."
    )
    time_bank_seconds = models.PositiveSmallIntegerField(
        default=60, help_text="Extra seconds per player, used up over the session."
    )
    time_bank_refill_seconds = models.PositiveSmallIntegerField(
        default=0,
        help_text="Seconds given back to each player's time bank every few hands, up to the "
        "bank's size (0: no refill).",
    )
    time_bank_refill_hands = models.PositiveSmallIntegerField(
        default=10, help_text="The time bank refills after every this many hands."
    )
    missed_blinds = models.CharField(
        max_length=8,
        choices=MissedBlinds.choices,
        default=MissedBlinds.POST,
        help_text="A player back after missing the blinds posts them or waits for the big blind.",
    )
    bots_allowed = models.BooleanField(default=False)
    bot_seats = models.PositiveSmallIntegerField(
        default=0, help_text="How many bots the croupier keeps seated (needs bots allowed)."
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    # --- run-outs and bomb pots (issue 20) ------------------------------------------------
    run_it_twice = models.BooleanField(
        default=False,
        help_text="When players are all in before the river, they are asked to run the rest "
        "of the board twice (each pot split between the runs).",
    )
    bomb_pot_ante = models.PositiveIntegerField(
        default=0, help_text="Chips each player antes in a bomb pot (0: no bomb pots)."
    )
    bomb_pot_every = models.PositiveSmallIntegerField(
        default=0, help_text="Every Nth hand is a bomb pot (0: only when the host calls one)."
    )
    bomb_pot_next = models.BooleanField(
        default=False, help_text="The host called a bomb pot for the next hand."
    )
    bomb_pot_double_board = models.BooleanField(
        default=False,
        help_text="Bomb pots are dealt two boards: each board wins half of each pot "
        "(hold'em and Omaha; one board when the hands leave too few cards for two).",
    )
    # --- mixed games (issue 30) --------------------------------------------------------------
    rotation_hands = models.PositiveSmallIntegerField(
        default=0,
        help_text="Mixed games: hands of each game before the next (0: one orbit, a hand for "
        "each player).",
    )
    choice_games = models.JSONField(
        default=list,
        blank=True,
        help_text="Dealer's choice: the games the button may pick, as game/betting "
        "(e.g. holdem/no-limit); the first is dealt when the button does not pick.",
    )
    choice_seconds = models.PositiveSmallIntegerField(
        default=20, help_text="Dealer's choice: seconds the button has to pick the game."
    )
    dealt_game = models.CharField(
        max_length=40,
        blank=True,
        default="",
        help_text="Mixed games: the game/betting being dealt (empty before the first hand).",
    )
    dealt_game_hands = models.PositiveSmallIntegerField(
        default=0, help_text="Mixed games: hands dealt of the game being dealt."
    )
    choice_seat = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Dealer's choice: the seat picking the game (while choice_deadline is "
        "set), else the seat that picked last; the next orbit is picked by the seat after it.",
    )
    choice_deadline = models.DateTimeField(
        null=True, blank=True, help_text="Dealer's choice: when the table's default is dealt."
    )
    version = models.PositiveBigIntegerField(
        default=1, help_text="Bumped on every change; actions carry the version they saw."
    )
    pre_actions = models.BooleanField(
        default=False,
        help_text="Some seat may hold a ticked pre-action (False: none does, so an action "
        "reads no seat for them).",
    )
    hand_version = models.PositiveBigIntegerField(
        default=0,
        help_text="The version at which the running hand last moved (dealt or acted on): an "
        "action that saw this version or a later one is not stale.",
    )
    button_seat = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Seat number of the button in the last hand."
    )
    action_deadline = models.DateTimeField(
        null=True, blank=True, help_text="When the player to act times out (the croupier acts)."
    )
    action_banked = models.BooleanField(
        default=False,
        help_text="The player to act is on their time bank: the clock drew on it this turn "
        "(a page opened since draws the bank's colour).",
    )
    next_hand_at = models.DateTimeField(
        null=True, blank=True, help_text="When the croupier may start the next hand."
    )
    # --- hosted games (a player's own game; admins' tables have no host) -------------------
    host = models.ForeignKey(
        "Player",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="hosted_tables",
        help_text="The player who runs this game; empty for the site's own tables.",
    )
    private = models.BooleanField(
        default=False,
        help_text="Seen only by the host, the players seated and guests who opened the invite.",
    )
    invite_token = models.CharField(
        max_length=64,
        unique=True,
        null=True,
        blank=True,
        help_text="The secret of the invite link /join/<token>/; replacing it ends the old link.",
    )
    seat_approval = models.BooleanField(
        default=False, help_text="Sitting down is a request the host approves or declines."
    )
    top_up_approval = models.BooleanField(
        default=False, help_text="Top-ups and rebuys wait for the host's approval."
    )
    spectator_chat = models.BooleanField(
        default=False, help_text="Spectators may chat (players always may)."
    )
    hud = models.BooleanField(
        "HUD",
        default=True,
        help_text="Each player's statistics beside their seat (hands, VPIP, PFR, 3-bet, "
        "aggression, showdowns), on hover or tap.",
    )
    # --- the hole-card broadcast (issue 53): on for a hand only if every seated player agreed
    broadcast_proposed = models.BooleanField(
        default=False,
        help_text="The host proposes showing hole cards to spectators (each player agrees).",
    )
    broadcast_delay = models.CharField(
        max_length=8,
        default="hand",
        help_text="When spectators see a hole card: none (at once), street (once the hand "
        "moved to the next street), hand (at its end) or minutes (broadcast_minutes after).",
    )
    broadcast_minutes = models.PositiveSmallIntegerField(
        default=5, help_text="The delay in minutes when broadcast_delay is minutes."
    )
    broadcast_room_screen = models.BooleanField(
        default=False, help_text="The room screen shows the broadcast hole cards too."
    )
    empty_since = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Since when nobody is seated (hosted games close after a day).",
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    pending_changes = models.JSONField(
        default=dict,
        blank=True,
        help_text="Host changes waiting for the hand being played to end (settings, stack "
        "corrections, closing): tables.services.host_pending applies them.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def effective_min_buy_in(self) -> int:
        return self.min_buy_in if self.min_buy_in is not None else 20 * self.unit

    @property
    def effective_max_buy_in(self) -> int:
        return self.max_buy_in if self.max_buy_in is not None else 100 * self.unit

    def buy_in_range(self, left_with: int = 0) -> tuple[int, int]:
        """The buy-ins a player may sit down with: the table's range, raised to ``left_with``,
        the chips they took from this table less than an hour ago (the rule against leaving
        with a win and coming back short: ``tables.selectors.hosting.left_table``). It
        may go past the table's maximum."""
        low, high = self.effective_min_buy_in, self.effective_max_buy_in
        return max(low, left_with), max(high, left_with)

    def rejoin_rule(self, left_with: int) -> str:
        """Why the least buy-in is ``left_with`` ("" when the rejoining rule changes nothing):
        the sit-down form's line and the refusal say it in these words."""
        if left_with <= self.effective_min_buy_in:
            return ""
        return (
            f"You left {self.name} with {left_with} chips less than an hour ago: "
            f"buy in for at least {left_with}."
        )

    @property
    def heading(self) -> str:
        """The line under the table's name: "No-limit Hold'em · 1/2 · Open" (a mixed
        table's: the game being dealt and its own stakes)."""
        return f"{self.variant} · {self.dealt_stakes} · {self.get_status_display()}"

    def clean(self) -> None:
        errors: dict[str, str] = {}
        name_refused = name_problem(self.name or "", "The table's name")
        if name_refused:
            errors["name"] = name_refused
        if self.game not in self.GAMES:  # nothing else can be checked without the game's rules
            errors["game"] = "Choose one of the games offered."
            raise ValidationError(errors)
        self._clean_game(errors)
        if self.unit:
            low, high = self.effective_min_buy_in, self.effective_max_buy_in
            if low < self.unit:
                errors["min_buy_in"] = (
                    "The minimum buy-in is at least one small bet."
                    if self.is_stud
                    else "The minimum buy-in is at least one big blind."
                )
            elif high < low:
                errors["max_buy_in"] = "The maximum buy-in cannot be below the minimum."
        if self.bot_seats and not self.bots_allowed:
            errors["bot_seats"] = "Allow bots to keep bots seated."
        elif self.max_seats and self.bot_seats > self.max_seats - 2:
            errors["bot_seats"] = (
                f"Bots may fill at most {max(self.max_seats - 2, 0)} of {self.max_seats} "
                "seats: leave two for people."
            )
        if self.bomb_pot_every and not self.bomb_pot_ante:
            errors["bomb_pot_every"] = "Set the bomb pot's ante to have bomb pots every few hands."
        if self.time_bank_refill_seconds and not self.time_bank_refill_hands:
            errors["time_bank_refill_hands"] = "Say after how many hands the time bank refills."
        if self.action_seconds is not None and self.action_seconds < 3:
            errors["action_seconds"] = "Give players at least 3 seconds to act."
        if self.pk and self.max_seats:
            taken = self.seats.filter(number__gte=self.max_seats).values_list("number", flat=True)
            if taken:
                errors["max_seats"] = (
                    f"Seat {max(taken) + 1} is taken: remove those players before shrinking."
                )
        if not errors:
            try:  # the engine's own check, so no table can hold a game it cannot deal
                for pick in self.choices:
                    HandConfig(**self.hand_config(pick))
            except PokerError as error:
                errors["game"] = f"{str(error).capitalize()}."
        if errors:
            raise ValidationError(errors)


class Seat(models.Model):
    """A player sitting at a table, with the chips in front of them.

    During a running hand ``stack`` follows the engine (chips behind, not yet bet); the chips
    bet in the hand are counted by the hand until it ends and pays out.
    """

    class Owes(models.TextChoices):
        NOTHING = "", "Nothing"
        BIG = "big", "A live big blind"
        MISSED = "missed", "Missed blinds: the small dead, the big live"

    class SitOutNext(models.TextChoices):
        NO = "", "No"
        HAND = "hand", "Next hand"
        BIG_BLIND = "big_blind", "At the next big blind"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(help_text="0 .. max_seats - 1, clockwise.")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    stack = models.PositiveBigIntegerField(default=0)
    sitting_out = models.BooleanField(default=False, help_text="Dealt out of new hands.")
    leave_after_hand = models.BooleanField(
        default=False, help_text="Cash out as soon as the current hand ends."
    )
    time_bank = models.PositiveIntegerField(default=0, help_text="Seconds of time bank left.")
    # --- seat etiquette (issue 50): decided as each hand is dealt (tables.services.etiquette)
    wait_for_big_blind = models.BooleanField(
        default=False, help_text="Not dealt in until the big blind reaches this seat."
    )
    owes_blinds = models.CharField(
        max_length=8,
        choices=Owes.choices,
        default=Owes.NOTHING,
        blank=True,
        help_text="What this seat posts when next dealt in away from the blinds.",
    )
    sit_out_next = models.CharField(
        max_length=10,
        choices=SitOutNext.choices,
        default=SitOutNext.NO,
        blank=True,
        help_text="Sit out from the next hand, or when the big blind reaches this seat.",
    )
    # --- acting in advance (issue 50): engine.pre_actions says what a choice means
    pre_action = models.CharField(
        max_length=10,
        blank=True,
        default="",
        help_text="What this player ticked to do when their turn comes (check_fold, check, "
        "call, call_any, fold); empty: nothing.",
    )
    pre_action_amount = models.PositiveBigIntegerField(
        default=0, help_text="A ticked call: the chips to call it was ticked for."
    )
    pre_action_hand = models.PositiveBigIntegerField(
        default=0, help_text="The hand (its id) the ticked choice belongs to."
    )
    pre_action_street = models.CharField(
        max_length=16, blank=True, default="", help_text="The street it belongs to."
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_number_unique"),
            models.UniqueConstraint(fields=["table", "player"], name="seat_player_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.number + 1}: {self.player}"
