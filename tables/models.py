"""What persists: players and their chip ledger, tables, seats, and event-sourced hands.

Only ``tables.services`` writes these rows (each service in one transaction with the table row
locked); selectors and views read them. Chips are integers everywhere. Invariant, checked by
the tests: bankrolls + seat stacks + chips committed in running hands == sum of all grants.

A hand is stored as its inputs (config, seats and stacks at the start, button, deck) plus the
append-only ``HandAction`` log; its state is ``tables.selectors.hands.hand_state(hand)``,
the engine replaying those inputs. The deck and the seed are server secrets until the hand
is finished: they live in ``HandSecret``, which nothing but ``tables.selectors`` reads.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from engine.errors import PokerError
from engine.types import MAX_SEATS as ENGINE_MAX_SEATS
from engine.types import check_straddle


class AppendOnlyError(Exception):
    """Raised when code tries to change or delete a row of an append-only log."""


class AppendOnlyQuerySet(models.QuerySet):
    """A queryset that refuses bulk updates and deletes: the log only grows."""

    def update(self, **kwargs):
        raise AppendOnlyError(f"{self.model.__name__} rows are append-only: no update")

    def delete(self):
        raise AppendOnlyError(f"{self.model.__name__} rows are append-only: no delete")


class AppendOnlyModel(models.Model):
    """Base for log rows: ``save()`` only inserts, ``delete()`` refuses."""

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise AppendOnlyError(f"{type(self).__name__} rows are append-only: no update")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnlyError(f"{type(self).__name__} rows are append-only: no delete")


class Player(models.Model):
    """A person (or a bot) who plays: the profile of one auth user, with a play-chip bankroll.

    ``bankroll`` is the chips not at any table; every change to it has a ``LedgerEntry``.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player"
    )
    bankroll = models.BigIntegerField(default=0, help_text="Play chips away from the tables.")
    is_bot = models.BooleanField(default=False, help_text="Seated and played by the croupier.")
    bot_account = models.BooleanField(
        default=False,
        help_text="Played by its owner's program through the play API (their choice, or an "
        "admin's): shown with a bot badge.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["user__username"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(bankroll__gte=0), name="player_bankroll_not_negative"
            )
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        return self.user.get_username()

    @property
    def shown_as_bot(self) -> bool:
        """The bot badge: the croupier's bots and the accounts marked as bots."""
        return self.is_bot or self.bot_account


class LedgerEntry(AppendOnlyModel):
    """One chip movement into or out of a player's bankroll (append-only).

    ``amount`` is signed from the bankroll's point of view: a grant or a cash-out is positive,
    a buy-in or a top-up negative. ``balance_after`` is the bankroll right after the entry.
    """

    class Kind(models.TextChoices):
        GRANT = "grant", "Starting grant"
        ADMIN_GRANT = "admin_grant", "Admin grant"
        BUY_IN = "buy_in", "Buy-in"
        TOP_UP = "top_up", "Top-up"
        CASH_OUT = "cash_out", "Cash-out"
        CORRECTION = "correction", "Stack correction"
        TOURNAMENT_ENTRY = "tourney_entry", "Tournament entry fee"
        TOURNAMENT_PRIZE = "tourney_prize", "Tournament prize"
        TOURNAMENT_REFUND = "tourney_refund", "Tournament refund"

    #: Kinds that bring new chips into the game (everything else moves existing chips).
    GRANT_KINDS = (Kind.GRANT, Kind.ADMIN_GRANT)

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="ledger")
    amount = models.BigIntegerField(help_text="Signed change of the bankroll.")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    reason = models.CharField(max_length=200, blank=True)
    table = models.ForeignKey(
        "Table", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    hand = models.ForeignKey(
        "Hand", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    balance_after = models.BigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "ledger entries"

    def __str__(self) -> str:
        return f"{self.player} {self.amount:+d} ({self.get_kind_display()})"


class Table(models.Model):
    """A persistent table: variant, stakes, seats, timers and its live status.

    Stake and variant changes take effect at the next hand: every ``Hand`` stores its own
    ``config``. ``version`` is bumped on every change to the table, its seats or its running
    hand; a player's action carries the version they saw and is refused when it is stale.
    """

    class Game(models.TextChoices):
        HOLDEM = "holdem", "Texas Hold'em"
        OMAHA = "omaha", "Omaha"

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

    name = models.CharField(max_length=80, unique=True)
    game = models.CharField(max_length=16, choices=Game.choices, default=Game.HOLDEM)
    betting = models.CharField(max_length=16, choices=Betting.choices, default=Betting.NO_LIMIT)
    small_blind = models.PositiveIntegerField(default=1)
    big_blind = models.PositiveIntegerField(default=2)
    ante = models.PositiveIntegerField(default=0)
    ante_mode = models.CharField(
        max_length=16, choices=AnteMode.choices, default=AnteMode.PER_PLAYER
    )
    straddle = models.PositiveIntegerField(default=0, help_text="0 for none.")
    max_seats = models.PositiveSmallIntegerField(
        default=6, help_text="2 to 12 for Hold'em, 2 to 10 for Omaha."
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

    # --- derived values ------------------------------------------------------------------
    @property
    def effective_min_buy_in(self) -> int:
        return self.min_buy_in if self.min_buy_in is not None else 20 * self.big_blind

    @property
    def effective_max_buy_in(self) -> int:
        return self.max_buy_in if self.max_buy_in is not None else 100 * self.big_blind

    @property
    def stakes(self) -> str:
        text = f"{self.small_blind}/{self.big_blind}"
        if self.straddle:
            text += f"/{self.straddle}"
        if self.ante:
            text += f" ante {self.ante}"
        return text

    @property
    def variant(self) -> str:
        return f"{self.get_betting_display()} {self.get_game_display()}"

    def hand_config(self) -> dict:
        """The engine ``HandConfig`` (as a dict) for the next hand at this table."""
        return {
            "game": self.game,
            "betting": self.betting,
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "ante": self.ante,
            "ante_mode": self.ante_mode,
            "straddle": self.straddle,
        }

    def clean(self) -> None:
        errors: dict[str, str] = {}
        most = self.MAX_SEATS.get(self.game, 10)
        if self.max_seats is not None and not 2 <= self.max_seats <= most:
            errors["max_seats"] = f"{self.get_game_display()} seats 2 to {most} players."
        if self.small_blind is not None and self.big_blind is not None:
            if self.big_blind < 1:
                errors["big_blind"] = "The big blind must be at least 1 chip."
            elif self.small_blind > self.big_blind:
                errors["small_blind"] = "The small blind cannot be more than the big blind."
            try:
                check_straddle(self.big_blind, self.straddle or 0)
            except PokerError as error:
                errors["straddle"] = f"{str(error).capitalize()}."
        if self.big_blind:
            low, high = self.effective_min_buy_in, self.effective_max_buy_in
            if low < self.big_blind:
                errors["min_buy_in"] = "The minimum buy-in is at least one big blind."
            elif high < low:
                errors["max_buy_in"] = "The maximum buy-in cannot be below the minimum."
        if self.bot_seats and not self.bots_allowed:
            errors["bot_seats"] = "Allow bots to keep bots seated."
        elif self.max_seats and self.bot_seats > self.max_seats - 2:
            errors["bot_seats"] = (
                f"Bots may fill at most {max(self.max_seats - 2, 0)} of {self.max_seats} "
                "seats: leave two for people."
            )
        if self.action_seconds is not None and self.action_seconds < 3:
            errors["action_seconds"] = "Give players at least 3 seconds to act."
        if self.pk and self.max_seats:
            taken = self.seats.filter(number__gte=self.max_seats).values_list("number", flat=True)
            if taken:
                errors["max_seats"] = (
                    f"Seat {max(taken) + 1} is taken: remove those players before shrinking."
                )
        if errors:
            raise ValidationError(errors)


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


class Hand(models.Model):
    """One hand at a table, stored as its inputs; the state is the engine replaying them.

    - ``config``: engine ``HandConfig.to_dict()`` (stakes as they were when it started).
    - ``seats``: ``[{"seat": n, "player_id": id, "name": str, "stack": chips}, ...]`` at the
      start, clockwise; the engine's seat index is the position in this list.
    - ``button``: index into ``seats``; ``button_seat`` the table's seat number.
    - ``commitment``: ``sha256(seed)``, published before the deal (provably fair dealing);
      the seed and the deck derived from it are the hand's ``HandSecret``.
    - ``result``: the engine's result when finished; ``pot``: total chips contested.
    """

    class Status(models.TextChoices):
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        VOIDED = "voided", "Voided"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField(help_text="1, 2, 3... per table.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RUNNING)
    config = models.JSONField()
    seats = models.JSONField()
    button = models.PositiveSmallIntegerField(help_text="Index into seats.")
    button_seat = models.PositiveSmallIntegerField(help_text="Table seat number of the button.")
    commitment = models.CharField(max_length=128)
    result = models.JSONField(null=True, blank=True)
    pot = models.PositiveBigIntegerField(default=0, help_text="Chips contested (when over).")
    started_at = models.DateTimeField(auto_now_add=True, db_index=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_number_unique"),
        ]
        indexes = [models.Index(fields=["table", "status"])]

    def __str__(self) -> str:
        return f"{self.table} hand #{self.number}"

    @property
    def is_running(self) -> bool:
        return self.status == self.Status.RUNNING

    @property
    def start_total(self) -> int:
        return sum(s["stack"] for s in self.seats)

    def seat_index_of(self, player_id: int) -> int | None:
        """The engine seat index of a player in this hand, or None if not dealt in."""
        for index, seat in enumerate(self.seats):
            if seat["player_id"] == player_id:
                return index
        return None


class HandSecret(models.Model):
    """A hand's shuffle: the seed and the deck derived from it (card ints, in dealing order).

    A server secret while the hand runs; the seed is published once it is over, so anyone can
    check it against ``Hand.commitment`` and the cards dealt. A model of its own so that no
    admin page, filter, ordering, search or API can reach it: ``Hand`` has no relation to it
    (``related_name="+"``: no ``hand.secret``, no ``secret__seed__...`` lookup), it has no admin,
    and only ``tables.selectors`` reads it (``hand_deck``, ``hand_secret``).
    """

    hand = models.OneToOneField(Hand, primary_key=True, on_delete=models.CASCADE, related_name="+")
    deck = models.JSONField()
    seed = models.CharField(max_length=128)


class HandAction(AppendOnlyModel):
    """One decision in a hand (append-only): who, what, how many chips, and why.

    ``seat`` is the engine seat index (position in ``Hand.seats``); ``amount`` is the
    raise-to / bet-to total for bets and raises, else null. ``source`` says whether the player
    clicked, the clock acted for them, or a bot decided.
    """

    class Source(models.TextChoices):
        PLAYER = "player", "Player"
        TIMEOUT = "timeout", "Clock (timeout)"
        BOT = "bot", "Bot"

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="actions")
    index = models.PositiveIntegerField(help_text="0, 1, 2... per hand.")
    seat = models.PositiveSmallIntegerField(help_text="Engine seat index.")
    kind = models.CharField(max_length=16)
    amount = models.PositiveBigIntegerField(null=True, blank=True)
    source = models.CharField(max_length=8, choices=Source.choices, default=Source.PLAYER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["hand", "index"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "index"], name="hand_action_index_unique"),
        ]

    def __str__(self) -> str:
        amount = f" {self.amount}" if self.amount is not None else ""
        return f"#{self.index} seat {self.seat}: {self.kind}{amount}"


class PlayerHand(models.Model):
    """A player's part in one finished hand: the figures the statistics add up.

    Derived data, written by the hand-end service (``tables.services.player_hands``) from the
    engine's replayed hand through ``tables.stats.figures.seat_figures``; rebuildable from the hands
    at any time. ``net`` is collected − contributed (an uncalled bet returned is not
    contributed); ``net_bb`` is ``net / big_blind`` of that hand.
    """

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="player_hands")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="player_hands")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField(help_text="Engine seat index in the hand.")
    started_at = models.DateTimeField(help_text="When the hand started (copied from it).")
    big_blind = models.PositiveIntegerField()
    contributed = models.PositiveBigIntegerField()
    collected = models.PositiveBigIntegerField()
    net = models.BigIntegerField()
    net_bb = models.FloatField()
    vpip = models.BooleanField()
    pfr = models.BooleanField()
    three_bet_chance = models.BooleanField()
    three_bet = models.BooleanField()
    saw_flop = models.BooleanField()
    showdown = models.BooleanField()
    won_at_showdown = models.BooleanField()
    postflop_aggressive = models.PositiveIntegerField(help_text="Postflop bets and raises.")
    postflop_calls = models.PositiveIntegerField()

    class Meta:
        ordering = ["-started_at", "-hand_id"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "player"], name="player_hand_unique"),
        ]
        indexes = [
            models.Index(fields=["player", "started_at"]),
            models.Index(fields=["player", "table", "started_at"]),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in hand {self.hand_id}: {self.net:+d}"


class TableGuest(models.Model):
    """A player who opened a game's invite link (so may see a private game), and their chat mute.

    Seated players and the host see a private game without a row here; a replaced invite token
    does not remove guests who already came in.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="guests")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="guest_of")
    muted = models.BooleanField(default=False, help_text="The host muted this player's chat.")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "player"], name="table_guest_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.table}"


class SeatRequest(models.Model):
    """A request the host answers: to sit down (``SEAT``) or to add chips (``TOP_UP``).

    Pending requests expire after a few minutes; the answer is kept for the player to see.
    """

    class Kind(models.TextChoices):
        SEAT = "seat", "Sit down"
        TOP_UP = "top_up", "Top-up"

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        APPROVED = "approved", "Approved"
        DECLINED = "declined", "Declined"
        EXPIRED = "expired", "Expired"
        CANCELLED = "cancelled", "Cancelled"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seat_requests")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="seat_requests")
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.SEAT)
    amount = models.PositiveBigIntegerField(help_text="The buy-in or the top-up asked for.")
    seat_number = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["table", "status"])]

    def __str__(self) -> str:
        return f"{self.player} asks {self.get_kind_display().lower()} {self.amount} at {self.table}"


class ChatMessage(AppendOnlyModel):
    """One line of table chat (append-only), plain text as typed: escaped wherever shown."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    text = models.CharField(max_length=280)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "id"]
        indexes = [models.Index(fields=["table", "-id"])]

    def __str__(self) -> str:
        return f"{self.player}: {self.text[:40]}"


class IdempotencyKey(models.Model):
    """The first answer to a play API request sent with an ``Idempotency-Key`` header: a retry
    with the same key (same user) gets it again and acts once. Kept ``KEEP_HOURS``.

    ``fingerprint``: a hash of the method, path and body, so a key reused for another request
    is refused rather than answered with the wrong response.
    """

    KEEP_HOURS = 24

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="idempotency_keys"
    )
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField()
    body = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_unique")
        ]
        indexes = [models.Index(fields=["user", "created_at"])]

    def __str__(self) -> str:
        return f"{self.user} {self.key} -> {self.status_code}"


class TableNotice(AppendOnlyModel):
    """One announcement in a table's log (append-only): what the host (or the site) changed,
    and when it takes effect."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="notices")
    text = models.CharField(max_length=300)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "id"]

    def __str__(self) -> str:
        return f"{self.table}: {self.text[:40]}"
