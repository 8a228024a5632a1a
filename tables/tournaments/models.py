"""What a tournament keeps: its settings, entrants (with places and prizes) and tables.

Only ``tables.tournaments.services`` writes these rows. Everything a running tournament needs
is here or on its tables (levels are data, the level in play follows from the hands dealt or
the minutes since the start), so a restarted server carries on where it was.

Invariants (checked after every hand by the tests): chips across the tournament's tables ==
``starting_stack`` × (entries + rebuys + re-entries) + ``addon_chips`` × add-ons taken
(``selectors.chips_issued``); prizes paid == ``prize_pool`` once finished; fees paid ==
``prize_pool`` + the heads' bounties unpaid + the bounties paid (``services.bounties``), so
fees == prizes + bounties once finished.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import models

from tables.models import Player, Table


class Tournament(models.Model):
    class Format(models.TextChoices):
        SIT_AND_GO = "sit-and-go", "Sit & go"
        MULTI_TABLE = "multi-table", "Multi-table"
        FIXED_HANDS = "fixed-hands", "Fixed hands"

    class Start(models.TextChoices):
        MANUAL = "manual", "By the organiser"
        WHEN_FULL = "when-full", "When full"
        AT_TIME = "time", "At a set time"

    class Payouts(models.TextChoices):
        STANDARD = "standard", "Standard (about the top 15%)"
        WINNER_TAKES_ALL = "winner-takes-all", "Winner takes all"
        CUSTOM = "custom", "The organiser's percentages"

    class Bounty(models.TextChoices):
        NONE = "none", "No bounties"
        FIXED = "fixed", "Fixed bounties"
        PROGRESSIVE = "pko", "Progressive knockout"

    class Status(models.TextChoices):
        REGISTERING = "registering", "Registering"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    name = models.CharField(max_length=60)
    organiser = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="organised"
    )
    format = models.CharField(max_length=12, choices=Format.choices, default=Format.SIT_AND_GO)
    game = models.CharField(max_length=16, choices=Table.GAME_CHOICES, default=Table.DEFAULT_GAME)
    betting = models.CharField(
        max_length=16, choices=Table.Betting.choices, default=Table.Betting.NO_LIMIT
    )
    seats_per_table = models.PositiveSmallIntegerField(default=6)
    max_entrants = models.PositiveIntegerField(null=True, blank=True, help_text="Empty: no cap.")
    entry_fee = models.PositiveBigIntegerField(default=0, help_text="0 for a freeroll.")
    bounty_kind = models.CharField(max_length=5, choices=Bounty.choices, default=Bounty.NONE)
    bounty = models.PositiveBigIntegerField(
        default=0, help_text="The part of each entry fee put on the player's head."
    )
    # A satellite's prizes are seats in its target (``services.satellites``): as many as
    # the pool holds the target's entry fee (``seat_value``, kept from when it was organised).
    satellite_target = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="satellites",
        help_text="A satellite: its prizes are seats in this tournament.",
    )
    seat_value = models.PositiveBigIntegerField(
        default=0, help_text="A satellite: the target's entry fee, the value of one seat."
    )
    starting_stack = models.PositiveBigIntegerField(default=1500)
    structure = models.CharField(max_length=12, default="regular", help_text="Preset or custom.")
    levels = models.JSONField(
        help_text="Blinds, ante, minutes or hands per level; the last one stays."
    )
    hands = models.PositiveIntegerField(
        null=True, blank=True, help_text="Fixed hands: the hands played before it ends."
    )
    late_registration_levels = models.PositiveSmallIntegerField(
        default=0, help_text="Registration stays open during this many levels (0: none)."
    )
    rebuy_levels = models.PositiveSmallIntegerField(
        default=0,
        help_text="Rebuys during this many levels (0: freezeout).",
    )
    max_rebuys = models.PositiveSmallIntegerField(
        default=1, help_text="Rebuys per player (when rebuys are on)."
    )
    max_reentries = models.PositiveSmallIntegerField(
        default=0,
        help_text="Re-entries per player during late registration (0: none).",
    )
    addon_chips = models.PositiveBigIntegerField(
        default=0, help_text="Chips of the add-on at the end of the rebuys (0: none)."
    )
    addon_price = models.PositiveBigIntegerField(
        default=0, help_text="What the add-on costs, into the prize pool."
    )
    break_every_levels = models.PositiveSmallIntegerField(
        default=0, help_text="A break after every this many levels (0: none; levels by minutes)."
    )
    break_minutes = models.PositiveSmallIntegerField(default=0, help_text="Minutes per break.")
    start = models.CharField(max_length=10, choices=Start.choices, default=Start.MANUAL)
    start_at = models.DateTimeField(null=True, blank=True)
    payouts = models.CharField(max_length=16, choices=Payouts.choices, default=Payouts.STANDARD)
    payout_percentages = models.JSONField(default=list, blank=True)
    action_seconds = models.PositiveSmallIntegerField(default=20)
    time_bank_refill_seconds = models.PositiveSmallIntegerField(
        default=0,
        help_text="Seconds given back to each player's time bank at every new level, up to "
        "the bank's size (0: none).",
    )
    status = models.CharField(
        max_length=12, choices=Status.choices, default=Status.REGISTERING, db_index=True
    )
    registration_open = models.BooleanField(default=True)
    rebuys_open = models.BooleanField(default=False)
    prize_pool = models.PositiveBigIntegerField(default=0)
    hand_for_hand = models.BooleanField(default=False)
    hand_for_hand_round = models.PositiveIntegerField(default=0)
    hand_for_hand_batch = models.PositiveIntegerField(
        default=0, help_text="The elimination batch of the current hand-for-hand round."
    )
    out_batches = models.PositiveIntegerField(
        default=0, help_text="Elimination batches so far (a hand, or a hand-for-hand round)."
    )
    hands_dealt = models.PositiveIntegerField(
        default=0, help_text="Hands dealt at the table that has dealt the most (levels by hands)."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Private: seen only by the organiser, entrants, guests (who opened the invite link) and
    # staff, as private cash games (``tables.tournaments.access``); its tables are private.
    private = models.BooleanField(default=False)
    invite_token = models.CharField(max_length=64, unique=True, null=True, blank=True)
    guests = models.ManyToManyField(Player, blank=True, related_name="tournament_invites")
    # The level clock stands still while the players decide on a deal (``services.deals``).
    paused_at = models.DateTimeField(
        null=True, blank=True, help_text="The clock stopped then: a deal is being decided."
    )
    paused_for = models.DurationField(
        default=timedelta(0), help_text="Time the clock stood still for deals, in all."
    )

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name

    @property
    def by_hands(self) -> bool:
        """Levels last a number of hands (else minutes)."""
        return "hands" in self.levels[0]

    @property
    def is_satellite(self) -> bool:
        return self.seat_value > 0

    @property
    def seats(self) -> int:
        """A satellite's seats: as many target entry fees as its prize pool holds now."""
        return self.prize_pool // self.seat_value if self.seat_value else 0

    @property
    def prize_part(self) -> int:
        """The part of each entry fee (a rebuy's, a re-entry's) that goes to the prize pool."""
        return self.entry_fee - self.bounty

    @property
    def places_open(self) -> bool:
        """A player out may still come back (late registration with re-entry, or a rebuy), so
        the places of players out are not given yet."""
        return self.registration_open or self.rebuys_open


class Entry(models.Model):
    """A player entered in a tournament; ``out_order`` 1 is the first out (players out in the
    same batch with the same chips share one), ``place`` and ``prize`` once decided;
    ``final_chips`` kept beside the place for the players still in when it finished.

    ``out_batch``: players out in one batch (one hand, or one hand-for-hand round across the
    tables) are ranked together by ``out_chips``; a later batch finishes higher. A rebuy or a
    re-entry brings the same entry back (``out_*`` cleared, ``rebuys``/``reentries`` counted).

    ``bounty``: the bounty on the player's head now (paid out when they go out, or to them at
    the end); ``bounties_won``: the bounties paid to them (their own head at the end too).
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    fee_paid = models.PositiveBigIntegerField(
        default=0, help_text="The fee, rebuys, re-entries and the add-on paid."
    )
    out_order = models.PositiveIntegerField(null=True, blank=True)
    out_chips = models.PositiveBigIntegerField(
        null=True, blank=True, help_text="Chips at the start of the hand they went out in."
    )
    out_batch = models.PositiveIntegerField(null=True, blank=True)
    final_chips = models.PositiveBigIntegerField(
        null=True,
        blank=True,
        help_text="Chips at the end (the players still in when it finished).",
    )
    rebuys = models.PositiveSmallIntegerField(default=0)
    addon_taken = models.BooleanField(default=False, help_text="The add-on taken (once).")
    reentries = models.PositiveSmallIntegerField(default=0)
    place = models.PositiveIntegerField(null=True, blank=True)
    prize = models.PositiveBigIntegerField(default=0, help_text="Paid so far (a deal's share too).")
    deal_share = models.PositiveBigIntegerField(
        null=True, blank=True, help_text="Their share of a final-table deal (part of the prize)."
    )
    bounty = models.PositiveBigIntegerField(default=0, help_text="On their head now.")
    bounties_won = models.PositiveBigIntegerField(default=0, help_text="Bounties paid to them.")

    class Seat(models.TextChoices):
        NONE = "", "No seat"
        REGISTERED = "registered", "Won a seat: registered in the target"
        CHIPS = "chips", "Won a seat: paid its value in chips"

    seat = models.CharField(
        max_length=10,
        choices=Seat.choices,
        default=Seat.NONE,
        blank=True,
        help_text="A satellite's seat won (its value counted in the prize).",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    out_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "place", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_player_unique"),
        ]
        verbose_name_plural = "entries"

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"


class TournamentTable(models.Model):
    """One of a tournament's tables; ``broken_at`` once its players went to the others.

    ``hand_for_hand_round``: the last hand-for-hand round it has dealt (a table behind the
    tournament's round deals its hand of that round next, even if hand-for-hand has ended
    meanwhile); ``round_hand``: its latest hand was dealt in that round."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tables")
    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="tournament_table")
    number = models.PositiveSmallIntegerField()
    hand_for_hand_round = models.PositiveIntegerField(default=0)
    round_hand = models.BooleanField(default=False)
    broken_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="tournament_table_number_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} table {self.number}"


class Deal(models.Model):
    """A deal at the final table: proposed by one of the players left, made once every one of
    them agrees (``services.deals``). ``offer``: one row per player (``player_id``,
    ``chips``, ``share``) from the stacks when it was offered, biggest stack first (empty
    while the hand being played when it was proposed is still on); ``prizes``: the unpaid
    places' prizes it splits; ``keep``: kept back from them for the eventual winner."""

    class Method(models.TextChoices):
        ICM = "icm", "ICM"
        CHIP_CHOP = "chip_chop", "Chip chop"

    class Status(models.TextChoices):
        PENDING = "pending", "Being decided"
        MADE = "made", "Made"
        REFUSED = "refused", "Refused"
        LAPSED = "lapsed", "Lapsed"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="deals")
    proposed_by = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    method = models.CharField(max_length=10, choices=Method.choices, default=Method.ICM)
    keep = models.PositiveBigIntegerField(default=0, help_text="Kept back for the winner.")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    prizes = models.JSONField(default=list, blank=True)
    offer = models.JSONField(default=list, blank=True)
    agreed = models.JSONField(default=list, blank=True, help_text="Ids of the players agreed.")
    refused_by = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    offered_at = models.DateTimeField(null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament"],
                condition=models.Q(status__in=["pending", "made"]),
                name="deal_one_open_or_made",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_method_display()} deal in {self.tournament}"
