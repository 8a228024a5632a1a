"""Event-sourced hands: inputs, the secret shuffle, the action log, each player's figures."""

from __future__ import annotations

from functools import reduce
from operator import or_

from django.db import models
from django.db.models import Q

from engine.variants import DEFAULT_GAME
from tables.models.base import AppendOnlyModel
from tables.models.players import Player
from tables.models.tables import Table


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
    # --- run-outs (tables.services.runouts writes them) ------------------------------------
    runout = models.JSONField(
        null=True,
        blank=True,
        help_text="An all-in run-out: each run's streets with every live hand's chance "
        "(engine.runout; null until the croupier has computed it), and how many streets are "
        'on screen ({"runs": [[{"street", "cards", "chances"}...]...], "shown": n}).',
    )
    odds_pending = models.BooleanField(
        default=False,
        help_text="The run-out's chances are still to be computed: the croupier computes them "
        "outside any transaction (tables.croupier) and stores them.",
    )
    run_answers = models.JSONField(
        default=dict,
        blank=True,
        help_text="Run it twice: each live hand seat's answer so far (engine seat -> 1 or 2).",
    )
    rabbit = models.JSONField(
        null=True,
        blank=True,
        help_text="The rabbit hunt, once asked: the cards that would have come and who asked.",
    )
    shown_cards = models.JSONField(
        default=list,
        blank=True,
        help_text="Cards players chose to show once the hand was over, in order: "
        '[[engine seat, ["Ah", ...]], ...] (tables.services.showing; the engine\'s reveal).',
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    broadcast = models.CharField(
        max_length=16,  # "street+tv", "m32767+tv"
        blank=True,
        default="",
        help_text="Hole cards shown to spectators, decided at the deal: empty (no), '0' (at "
        "once), 'street', 'hand' or 'm<N>' (N minutes after each was dealt); '+tv': on the "
        "room screen too.",
    )

    # Set on an instance only, never fields: the deck ``tables.selectors.hands.with_deck``
    # reads with the row, and the ``HandSecret`` that ``hand_secret`` reads once.
    secret_deck: list[int]
    _secret: HandSecret

    class Meta:
        ordering = ["-started_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_number_unique"),
        ]
        indexes = [
            models.Index(fields=["table", "status"]),
            # the croupier looks for these every pass: a handful of rows at any time
            models.Index(
                fields=["odds_pending"],
                condition=models.Q(odds_pending=True),
                name="hand_odds_pending",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} hand #{self.number}"

    @property
    def is_running(self) -> bool:
        return self.status == self.Status.RUNNING

    @property
    def start_total(self) -> int:
        return sum(s["stack"] for s in self.seats)

    @property
    def runout_showing(self) -> bool:
        """An all-in run-out whose streets are still being dealt on screen, one by one
        (``tables.services.runouts``): the hand is over, its end not yet shown."""
        runout = self.runout
        if self.is_running or not runout:
            return False
        shown: int = runout["shown"]
        return shown < len(runout["runs"][0]) - 1

    @property
    def in_play(self) -> bool:
        """Still being played for everyone who reads it: running, or finished with its
        run-out still being dealt on screen. Its board, result, seed and deck stay secret
        (the API, the histories, the replayer and the admin) until its last street is shown."""
        return self.is_running or self.runout_showing

    def seat_index_of(self, player_id: int) -> int | None:
        """The engine seat index of a player in this hand, or None if not dealt in."""
        return self.seat_indexes.get(player_id)

    @property
    def seat_indexes(self) -> dict[int, int]:
        """Player id -> engine seat index, for every player dealt in (``seat_index_of`` of
        each at once: a hand's seats never change, so a holder of the hand works it out once)."""
        return {seat["player_id"]: index for index, seat in enumerate(self.seats)}


def runout_showing_q(path: str = "") -> Q:
    """``Hand.runout_showing`` as a query: the finished hands whose run-out's next street is
    still to be shown (``path``: the way to the hand, e.g. ``"hand__"`` from its rows). A run
    has at most four streets (preflop to river), so ``shown`` is 0 to 3."""
    runout = f"{path}runout__"
    still_to_show = (
        Q(**{f"{runout}shown": shown, f"{runout}runs__0__{shown + 1}__isnull": False})
        for shown in range(4)
    )
    return Q(**{f"{path}status": Hand.Status.FINISHED}) & reduce(or_, still_to_show)


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
    clicked, ticked it in advance
    (``engine.pre_actions``), the clock acted for them, or a bot decided.
    """

    class Source(models.TextChoices):
        PLAYER = "player", "Player"
        TIMEOUT = "timeout", "Clock (timeout)"
        BOT = "bot", "Bot"
        PRE_ACTION = "pre", "Ticked in advance"

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="actions")
    index = models.PositiveIntegerField(help_text="0, 1, 2... per hand.")
    seat = models.PositiveSmallIntegerField(help_text="Engine seat index.")
    kind = models.CharField(max_length=16)
    amount = models.PositiveBigIntegerField(null=True, blank=True)
    cards = models.CharField(
        max_length=16,
        blank=True,
        default="",
        help_text='A draw game\'s discard: the cards thrown away ("7h2c"; empty: stood pat). '
        "Hidden information: only the engine's replay reads it, never another player.",
    )
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

    Derived data, written at hand end by the statistics (``tables.stats.player_hands``) from the
    engine's replayed hand through ``tables.stats.figures.seat_figures``; rebuildable from the hands
    at any time. ``net`` is collected − contributed (an uncalled bet returned is not
    contributed); ``net_bb`` is ``net / big_blind`` of that hand. ``ev_net`` is computed once,
    off the hand's end (see the field), so the statistics never recompute it.
    """

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="player_hands")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="player_hands")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField(help_text="Engine seat index in the hand.")
    started_at = models.DateTimeField(help_text="When the hand started (copied from it).")
    game = models.CharField(
        max_length=16, default=DEFAULT_GAME, help_text="The hand's game (copied from its config)."
    )
    big_blind = models.PositiveIntegerField(
        help_text="The hand's unit: its big blind, or a stud game's small bet."
    )
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
    all_in = models.BooleanField(
        default=False,
        help_text="Money went in all-in before the last card (engine.allin_ev): ev_net is "
        "the all-in EV, not the net.",
    )
    ev_net = models.FloatField(
        null=True,
        blank=True,
        help_text="All-in adjusted net (chips): the expected net at the all-in, else the net; "
        "null while an all-in's is still to be computed (the croupier, or the allin_ev "
        "command for hands older than it).",
    )
    ev_net_bb = models.FloatField(null=True, blank=True, help_text="ev_net / big_blind.")

    class Meta:
        ordering = ["-started_at", "-hand_id"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "player"], name="player_hand_unique"),
        ]
        indexes = [
            models.Index(fields=["player", "started_at"]),
            models.Index(fields=["player", "table", "started_at"]),
            models.Index(fields=["player", "game", "started_at"]),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in hand {self.hand_id}: {self.net:+d}"


class HandShare(models.Model):
    """A finished hand shared by a link (``/shared/<token>/``): anyone holding it sees the
    hand's replayer as a spectator did (the board, the actions, the amounts, the cards shown
    at showdown or by choice), and the sharer's own cards when they chose so. The token is
    unguessable (``secrets.token_urlsafe``); a revoked link shows nothing
    (``tables.services.sharing``)."""

    token = models.CharField(max_length=64, unique=True)
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="+")
    created_by = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    own_cards = models.BooleanField(
        default=False, help_text="The sharer's own cards appear (they were dealt in)."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"hand {self.hand_id} shared by {self.created_by_id}"
