"""Tables and the seats at them."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import models

from engine.config import HILO_GAMES, STUD_GAMES, HandConfig
from engine.errors import PokerError
from engine.types import MAX_SEATS as ENGINE_MAX_SEATS, check_straddle
from tables.models.players import Player
from tables.names import name_problem


class Table(models.Model):
    """A persistent table: variant, stakes, seats, timers and its live status.

    Stake and variant changes take effect at the next hand: every ``Hand`` stores its own
    ``config``. ``version`` is bumped on every change to the table, its seats or its running
    hand; a player's action carries the version they saw and is refused when it is stale.
    """

    class Game(models.TextChoices):
        HOLDEM = "holdem", "Texas Hold'em"
        OMAHA = "omaha", "Omaha"
        OMAHA_HILO = "omaha-hilo", "Omaha Hi-Lo"
        STUD = "stud", "Seven-card Stud"
        STUD_HILO = "stud-hilo", "Stud Hi-Lo"
        RAZZ = "razz", "Razz"

    class Betting(models.TextChoices):
        NO_LIMIT = "no-limit", "No-limit"
        POT_LIMIT = "pot-limit", "Pot-limit"
        FIXED_LIMIT = "fixed-limit", "Fixed-limit"

    class AnteMode(models.TextChoices):
        PER_PLAYER = "per-player", "Every player"
        BIG_BLIND = "big-blind", "Big blind ante"

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        PAUSED = "paused", "Paused"
        CLOSED = "closed", "Closed"

    #: Most seats per game: the engine's limit (by game name, as ``game`` stores it).
    MAX_SEATS = ENGINE_MAX_SEATS
    #: The seven-card games (antes, a bring-in and small/big bets; no blinds, no straddle)
    #: and the games that split each pot between a high and an eight-or-better low.
    STUD_GAMES = STUD_GAMES
    HILO_GAMES = HILO_GAMES
    #: The bettings each game is played with (the first is the one a new table gets).
    BETTINGS_OF = {
        "holdem": ("no-limit", "pot-limit", "fixed-limit"),
        "omaha": ("pot-limit", "no-limit", "fixed-limit"),
        "omaha-hilo": ("pot-limit", "fixed-limit"),
        "stud": ("fixed-limit",),
        "stud-hilo": ("fixed-limit",),
        "razz": ("fixed-limit",),
    }

    name = models.CharField(max_length=80, unique=True)
    game = models.CharField(max_length=16, choices=Game.choices, default=Game.HOLDEM)
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
        default=6, help_text="2 to 12 for Hold'em, 2 to 10 for Omaha, 2 to 8 for stud games."
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
    version = models.PositiveBigIntegerField(
        default=1, help_text="Bumped on every change; actions carry the version they saw."
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

    #: Settings that apply only to some games: flop games' blinds, straddles, run-outs and
    #: bomb pots, stud's
    #: bring-in, fixed limit's bets. Forms show them only where they apply.
    FLOP_GAME_SETTINGS = (
        "small_blind",
        "big_blind",
        "ante_mode",
        "straddle",
        "straddles",
        "button_straddle",
        "run_it_twice",
        "bomb_pot_ante",
        "bomb_pot_every",
    )
    STUD_SETTINGS = ("bring_in",)
    FIXED_LIMIT_SETTINGS = ("small_bet", "big_bet")

    @classmethod
    def settings_not_for(cls, game: str, betting: str) -> frozenset[str]:
        """The settings that do not apply to ``game`` played ``betting`` (a form leaves
        them at their defaults)."""
        stud = game in STUD_GAMES
        apart = set(cls.FLOP_GAME_SETTINGS if stud else cls.STUD_SETTINGS)
        if not stud and betting != cls.Betting.FIXED_LIMIT:
            apart.update(cls.FIXED_LIMIT_SETTINGS)
        return frozenset(apart)

    # --- derived values ------------------------------------------------------------------
    @property
    def is_stud(self) -> bool:
        return self.game in STUD_GAMES

    @property
    def is_hilo(self) -> bool:
        return self.game in HILO_GAMES

    @property
    def unit(self) -> int:
        """The stake buy-ins and bb/100 count in: the big blind, or a stud game's small bet
        (stud has no blinds; its small bet is what fixed-limit hold'em's big blind is)."""
        if self.is_stud:
            return self.small_bet or 0
        return self.big_blind

    @property
    def effective_min_buy_in(self) -> int:
        return self.min_buy_in if self.min_buy_in is not None else 20 * self.unit

    @property
    def effective_max_buy_in(self) -> int:
        return self.max_buy_in if self.max_buy_in is not None else 100 * self.unit

    def buy_in_range(self, left_with: int = 0) -> tuple[int, int]:
        """The buy-ins a player may sit down with: the table's range, raised to ``left_with``,
        the chips they took from this table less than an hour ago (the rule against leaving
        with a win and coming back short: ``tables.selectors.hosting.rejoin_minimum``). It
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
    def stakes(self) -> str:
        """The stakes in one line: "1/2/4/8 ante 1" (blinds, then each straddle), "1/2/4
        button straddle", stud's "5/10 ante 1 bring-in 2" (small/big bet)."""
        if self.is_stud:
            small = self.small_bet or 0
            text = f"{small}/{self.big_bet or 2 * small}"
            if self.ante:
                text += f" ante {self.ante}"
            return f"{text} bring-in {self.bring_in}"
        text = f"{self.small_blind}/{self.big_blind}"
        if self.straddle:
            count = 1 if self.button_straddle else max(self.straddles, 1)
            text += "".join(f"/{self.straddle << k}" for k in range(count))
            if self.button_straddle:
                text += " button straddle"
        if self.ante:
            text += f" ante {self.ante}"
        return text

    @property
    def variant(self) -> str:
        return f"{self.get_betting_display()} {self.get_game_display()}"

    @property
    def heading(self) -> str:
        """The line under the table's name: "No-limit Hold'em · 1/2 · Open"."""
        return f"{self.variant} · {self.stakes} · {self.get_status_display()}"

    def hand_config(self) -> dict[str, Any]:
        """The engine ``HandConfig`` (as a dict) for the next hand at this table."""
        fixed = self.betting == self.Betting.FIXED_LIMIT
        if self.is_stud:
            return {
                "game": self.game,
                "betting": self.betting,
                "small_blind": 0,
                "big_blind": 0,
                "ante": self.ante,
                "ante_mode": self.AnteMode.PER_PLAYER,
                "small_bet": self.small_bet,
                "big_bet": self.big_bet,
                "bring_in": self.bring_in,
            }
        return {
            "game": self.game,
            "betting": self.betting,
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "ante": self.ante,
            "ante_mode": self.ante_mode,
            "straddle": self.straddle,
            "straddles": (self.straddles or 1) if self.straddle else 0,
            "button_straddle": self.button_straddle and bool(self.straddle),
            "small_bet": self.small_bet if fixed else None,
            "big_bet": self.big_bet if fixed else None,
            "run_it_twice": self.run_it_twice,
        }

    @property
    def has_bomb_pots(self) -> bool:
        """Bomb pots are played here: an ante is set and the game has a flop."""
        return bool(self.bomb_pot_ante) and self.game not in STUD_GAMES

    def bomb_pot_due(self, number: int) -> bool:
        """Whether hand ``number`` here is a bomb pot: the host called one, or every
        ``bomb_pot_every`` hands (stud games have no bomb pots)."""
        if not self.has_bomb_pots:
            return False
        return self.bomb_pot_next or bool(self.bomb_pot_every and number % self.bomb_pot_every == 0)

    def clean(self) -> None:
        errors: dict[str, str] = {}
        name_refused = name_problem(self.name or "", "The table's name")
        if name_refused:
            errors["name"] = name_refused
        game_name = self.get_game_display()
        most = self.MAX_SEATS.get(self.game, 10)
        if self.max_seats is not None and not 2 <= self.max_seats <= most:
            errors["max_seats"] = f"{game_name} seats 2 to {most} players."
        bettings = self.BETTINGS_OF.get(self.game, ())
        if self.betting not in bettings and self.game in self.BETTINGS_OF:
            names = " or ".join(self.Betting(b).label.lower() for b in bettings)
            errors["betting"] = f"{game_name} is played {names}."
        if self.is_stud:
            self._clean_stud(errors)
        else:
            self._clean_flop_game(errors)
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
                HandConfig(**self.hand_config())
            except PokerError as error:
                errors["game"] = f"{str(error).capitalize()}."
        if errors:
            raise ValidationError(errors)

    def _clean_stud(self, errors: dict[str, str]) -> None:
        """Stud, stud hi-lo, razz: antes, a bring-in, small and big bets. They have no blinds
        (set to 0 here, so the blinds a form left at its defaults do not matter)."""
        name = self.get_game_display()
        self.small_blind = self.big_blind = 0
        if self.straddle or self.straddles or self.button_straddle:
            field = "button_straddle" if self.button_straddle else "straddle"
            errors[field] = f"{name} has no blinds, so no straddle: set it to 0."
        if self.ante_mode != self.AnteMode.PER_PLAYER:
            errors["ante_mode"] = f"{name} antes are paid by every player."
        if self.run_it_twice:
            errors["run_it_twice"] = f"{name} is not run twice: its cards are dealt to players."
        if self.bomb_pot_ante or self.bomb_pot_every:
            field = "bomb_pot_ante" if self.bomb_pot_ante else "bomb_pot_every"
            errors[field] = f"{name} has no flop, so no bomb pots: set it to 0."
        if not self.small_bet:
            errors["small_bet"] = f"{name} needs its small bet (the bet on 3rd and 4th street)."
            return
        if self.big_bet is not None and self.big_bet < self.small_bet:
            errors["big_bet"] = "The big bet cannot be below the small bet."
        if not 1 <= (self.bring_in or 0) < self.small_bet:
            errors["bring_in"] = (
                f"The bring-in is at least 1 chip and below the small bet ({self.small_bet})."
            )

    def _clean_flop_game(self, errors: dict[str, str]) -> None:
        """Hold'em and Omaha: blinds, antes, straddles; a fixed-limit table's bets."""
        if self.bring_in:
            errors["bring_in"] = "Only stud games have a bring-in: set it to 0."
        if self.betting != self.Betting.FIXED_LIMIT and (self.small_bet or self.big_bet):
            errors["small_bet" if self.small_bet else "big_bet"] = (
                "Only fixed-limit games have a small and a big bet: leave it empty."
            )
        if self.small_bet and self.big_bet and self.big_bet < self.small_bet:
            errors["big_bet"] = "The big bet cannot be below the small bet."
        if self.small_blind is None or self.big_blind is None:
            # full_clean() runs clean() even after clean_fields() found a blind left empty.
            return  # type: ignore[unreachable]
        if self.big_blind < 1:
            errors["big_blind"] = "The big blind must be at least 1 chip."
            return
        if self.small_blind > self.big_blind:
            errors["small_blind"] = "The small blind cannot be more than the big blind."
        try:
            check_straddle(self.big_blind, self.straddle or 0)
        except PokerError as error:
            errors["straddle"] = f"{str(error).capitalize()}."
        if self.straddle and not self.straddles:
            self.straddles = 1  # the one straddle of tables made before re-straddles
        if self.straddles and not self.straddle:
            errors["straddle"] = "Set the first straddle's amount (twice the big blind or more)."
        most = (self.max_seats or 2) - 2
        if self.straddles > most:
            errors["straddles"] = (
                f"At most {most} straddles at {self.max_seats} seats (every seat but the blinds)."
            )
        if self.button_straddle and self.straddles > 1:
            errors["button_straddle"] = (
                "The button straddle is the only straddle: set straddles to 1."
            )


class Seat(models.Model):
    """A player sitting at a table, with the chips in front of them.

    During a running hand ``stack`` follows the engine (chips behind, not yet bet); the chips
    bet in the hand are counted by the hand until it ends and pays out.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(help_text="0 .. max_seats - 1, clockwise.")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    stack = models.PositiveBigIntegerField(default=0)
    sitting_out = models.BooleanField(default=False, help_text="Dealt out of new hands.")
    leave_after_hand = models.BooleanField(
        default=False, help_text="Cash out as soon as the current hand ends."
    )
    time_bank = models.PositiveIntegerField(default=0, help_text="Seconds of time bank left.")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_number_unique"),
            models.UniqueConstraint(fields=["table", "player"], name="seat_player_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.number + 1}: {self.player}"
