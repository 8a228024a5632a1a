"""Reads: rebuild a hand's state (and its secret deck), the lobby, a player's ledger, the chip
totals."""

from __future__ import annotations

from django.db.models import Avg, Count, F, IntegerField, OuterRef, Prefetch, Subquery, Sum

from engine.hand import Hand as EngineHand
from engine.types import Action, HandConfig
from tables.db import statements
from tables.models import Hand, HandAction, HandSecret, LedgerEntry, Player, Seat, Table


def hand_decisions(hand: Hand, start: int = 0) -> list[tuple[str, int | None, str]]:
    """The hand's ``HandAction`` log in order from index ``start`` on, as
    ``(kind, amount, source)``.

    One compiled query without model instances (every table socket's snapshot reads it);
    none when the actions were prefetched (``prefetch_related("actions")``).
    """
    cached = getattr(hand, "_prefetched_objects_cache", {}).get("actions")
    if cached is not None:
        ordered = sorted(cached, key=lambda a: a.index)
        return [(a.kind, a.amount, a.source) for a in ordered if a.index >= start]
    return statements.select_values(HandAction, "hand-decisions", _decisions_query, hand.pk, start)


def _decisions_query(hand_id, start):
    return (HandAction.objects.filter(hand_id=hand_id).filter(index__gte=start).order_by("index")
            .values_list("kind", "amount", "source"))


def hand_state(hand: Hand, decisions: list[tuple] | None = None):
    """The engine ``Hand`` of ``hand``, rebuilt from the database alone.

    Replays the stored inputs (config, starting stacks, button, deck, player names) and every
    ``HandAction`` in order. This is the truth about a hand: no cache is consulted.
    ``decisions``: the log as ``hand_decisions(hand)`` returns it, when the caller has read it
    already (in the same transaction).
    """
    if decisions is None:
        decisions = hand_decisions(hand)
    return EngineHand.replay(
        HandConfig.from_dict(hand.config),
        [s["stack"] for s in hand.seats],
        hand.button,
        hand_deck(hand),
        [Action(kind, amount) for kind, amount, *_ in decisions],
        players=[s["name"] for s in hand.seats],
    )


# --- The shuffle: a hand's deck and seed (HandSecret) ---------------------------------------
# Read here only, for the engine's replays and for revealing a finished hand's seed; never
# given to a template, an API answer or an admin page of a running hand. The deck a replay
# needs comes in the statement that reads the hand (``with_deck``), so the live path reads no
# more rows for it.


def with_deck(hands):
    """The ``Hand`` queryset ``hands`` with each hand's deck read in the same statement, as
    ``hand.secret_deck`` (an attribute of the instance for ``hand_deck``, never a field: no
    filter, ordering or search names it)."""
    decks = HandSecret.objects.filter(hand=OuterRef("pk")).values("deck")
    return hands.annotate(secret_deck=Subquery(decks))


def hand_deck(hand: Hand) -> list[int]:
    """The deck of ``hand`` (card ints in dealing order), for the engine's replay: brought by
    ``with_deck`` or set by ``hand_start``, else read once (``hand_secret``)."""
    if "secret_deck" not in hand.__dict__:
        hand.secret_deck = hand_secret(hand).deck
    return hand.secret_deck


def hand_secret(hand: Hand) -> HandSecret:
    """The deck and the seed of ``hand``, read once per instance (a secret while it runs:
    callers reveal the seed only of a hand that is over)."""
    secret = hand.__dict__.get("_secret")
    if secret is None:
        secret = hand._secret = HandSecret.objects.get(hand_id=hand.pk)
    return secret


def running_hand(table: Table) -> Hand | None:
    """The hand being played at ``table``, if any (with its deck: ``with_deck``)."""
    return with_deck(table.hands.filter(status=Hand.Status.RUNNING)).order_by("-number").first()


def lobby_tables():
    """Every open table with its seats (players prefetched), seat count and average pot."""
    seats = Seat.objects.select_related("player__user").order_by("number")
    finished = (
        Hand.objects.filter(table=OuterRef("pk"), status=Hand.Status.FINISHED)
        .order_by()
        .values("table")
    )
    return (
        Table.objects.filter(status=Table.Status.OPEN)
        .annotate(
            seats_taken=Count("seats"),
            seats_free=F("max_seats") - Count("seats"),
            average_pot=Subquery(finished.annotate(a=Avg("pot")).values("a")),
            hands_played=Subquery(
                finished.annotate(n=Count("pk")).values("n"), output_field=IntegerField()
            ),
        )
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("name")
    )


def player_ledger(player: Player, limit: int = 200):
    """The player's most recent ledger entries, newest first."""
    return player.ledger.select_related("table").order_by("-created_at", "-id")[:limit]


def chips_in_running_hands() -> int:
    """Chips bet in hands still being played (taken from stacks, not yet paid out)."""
    total = 0
    stacks = {(s.table_id, s.player_id): s.stack for s in Seat.objects.all()}
    for hand in Hand.objects.filter(status=Hand.Status.RUNNING):
        behind = sum(stacks.get((hand.table_id, s["player_id"]), 0) for s in hand.seats)
        total += hand.start_total - behind
    return total


def chips_total() -> dict:
    """Where every chip is: bankrolls, stacks, running hands, and what was ever granted.

    Invariant: ``bankrolls + stacks + in_hands == granted``.
    """
    bankrolls = Player.objects.aggregate(t=Sum("bankroll"))["t"] or 0
    stacks = Seat.objects.aggregate(t=Sum("stack"))["t"] or 0
    granted = (
        LedgerEntry.objects.filter(kind__in=LedgerEntry.GRANT_KINDS).aggregate(t=Sum("amount"))[
            "t"
        ]
        or 0
    )
    return {
        "bankrolls": bankrolls,
        "stacks": stacks,
        "in_hands": chips_in_running_hands(),
        "granted": granted,
    }
