"""Players, their chip ledger, and the play API's idempotency keys."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from tables.models.base import AppendOnlyModel


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
    guest_table = models.ForeignKey(
        "Table",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="guest_accounts",
        help_text="A guest account, made with only a name from this game's invite link: it has "
        "no password until its owner keeps it by choosing one.",
    )
    # How the cards and the felt look to this player, and the nudge when it is their turn:
    # applied by the page (an attribute on <body>), never in the shared table frames.
    DECK_COLOURS = [("four", "Four-colour"), ("two", "Two-colour")]
    FELTS = [("green", "Green"), ("blue", "Blue"), ("red", "Red"), ("grey", "Grey")]

    deck_colours = models.CharField(
        max_length=4,
        choices=DECK_COLOURS,
        default="four",
        help_text="Four-colour: each suit its colour; two-colour: red and black.",
    )
    large_cards = models.BooleanField(default=False, help_text="Bigger cards at the table.")
    felt = models.CharField(
        max_length=8,
        choices=FELTS,
        default="green",
    )
    turn_nudge = models.BooleanField(
        default=False,
        help_text="A browser notification (when the tab is not in front) and a vibration on "
        "phones when it becomes this player's turn.",
    )
    hud = models.BooleanField(
        "HUD",
        default=True,
        help_text="The players' statistics beside their seats at the tables (where the table "
        "shows them).",
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
    def is_guest(self) -> bool:
        """A guest account not kept yet (no password: its cookie session is the way in)."""
        return self.guest_table_id is not None

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
