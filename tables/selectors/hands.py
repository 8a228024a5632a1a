"""Reads of hands: the stored decisions, the engine state rebuilt from them, the secret deck
and seed, the hand running at a table."""

from __future__ import annotations

from typing import Any, NamedTuple

from django.db.models import Manager, OuterRef, Prefetch, QuerySet, Subquery

from engine.cards import Card
from engine.hand import Hand as EngineHand
from engine.types import Action, ActionKind, HandConfig, action_kind, discard_cards
from tables.db import statements
from tables.db.rows import select_first
from tables.models import Hand, HandAction, HandSecret, Table
from tables.models.hands import runout_showing_q


class Decision(NamedTuple):
    """One decision of a hand as its ``HandAction`` log stores it."""

    kind: str  # an engine action kind, "all_in" included
    amount: int | None
    source: str  # HandAction.Source: the player, the clock (a timeout) or a bot
    cards: str = ""  # a discard's cards ("7h2c"): hidden, for the engine's replay only


def hand_decisions(hand: Hand, start: int = 0) -> list[Decision]:
    """The hand's ``HandAction`` log in order from index ``start`` on.

    One statement written once, without model instances (every table socket's snapshot reads
    it); none when the actions came with the hand (``with_actions``).
    """
    prefetched: list[HandAction] | None = getattr(hand, PREFETCHED_ACTIONS, None)
    if prefetched is not None:
        return [
            Decision(a.kind, a.amount, a.source, a.cards) for a in prefetched if a.index >= start
        ]
    rows = statements.select_values(HandAction, "hand-decisions", _decisions_query, hand.pk, start)
    return list(map(Decision._make, rows))


#: The attribute of a hand that ``with_actions`` fills with its actions, in order.
PREFETCHED_ACTIONS = "prefetched_actions"


def with_actions(hands: QuerySet[Hand]) -> QuerySet[Hand]:
    """The ``Hand`` queryset ``hands`` with each hand's actions read in one more query for
    all of them, in order, for ``hand_decisions`` (a list set on each hand by Django's
    ``Prefetch(to_attr=...)``)."""
    actions = HandAction.objects.order_by("index")
    return hands.prefetch_related(Prefetch("actions", queryset=actions, to_attr=PREFETCHED_ACTIONS))


def _decisions_query(
    hand_id: int, start: int
) -> QuerySet[HandAction, tuple[str, int | None, str, str]]:
    return (
        HandAction.objects.filter(hand_id=hand_id)
        .filter(index__gte=start)
        .order_by("index")
        .values_list("kind", "amount", "source", "cards")
    )


def decision_action(decision: Decision) -> Action:
    """The engine ``Action`` of a stored decision (a discard with its cards)."""
    kind = action_kind(decision.kind)
    if kind is ActionKind.DISCARD:
        return Action(kind, cards=discard_cards(decision.cards))
    return Action(kind, decision.amount)


def hand_state(hand: Hand, decisions: list[Decision] | None = None) -> EngineHand:
    """The engine ``Hand`` of ``hand``, rebuilt from the database alone.

    Replays the stored inputs (config, starting stacks, button, deck, player names) and every
    ``HandAction`` in order. This is the truth about a hand: no cache is consulted.
    ``decisions``: the log as ``hand_decisions(hand)`` returns it, when the caller has read it
    already (in the same transaction).
    """
    if decisions is None:
        decisions = hand_decisions(hand)
    state = EngineHand.replay(
        HandConfig.from_dict(hand.config),
        [s["stack"] for s in hand.seats],
        hand.button,
        hand_deck(hand),
        [decision_action(decision) for decision in decisions],
        players=[s["name"] for s in hand.seats],
    )
    if state.is_over:  # the cards shown by choice once it was over, in their order
        for seat, cards in hand.shown_cards or ():
            state.reveal(seat, tuple(Card.parse(card) for card in cards))
    return state


def running_hand(table: Table) -> Hand | None:
    """The hand being played at ``table``, if any (at most one at a time), with its deck
    (``with_deck``). One compiled statement (every action and clock tick asks)."""
    return select_first(
        Hand,
        "running-hand",
        _running_hand_query,
        Hand.Status.RUNNING,
        table.pk,
        annotations=_DECK_ANNOTATION,
    )


def _running_hand_query(running: str, table_id: int) -> QuerySet[Hand]:
    # the parameters in the order of the statement's (checked when it is compiled)
    hands = Hand.objects.filter(status=running, table_id=table_id)
    return with_deck(hands).order_by("-number")[:1]


def last_hand(table: Table) -> Hand | None:
    """The table's latest hand that was not voided (running or over), with its deck: the
    hand on screen. One compiled statement."""
    return select_first(
        Hand,
        "last-hand",
        _last_hand_query,
        table.pk,
        Hand.Status.VOIDED,
        annotations=_DECK_ANNOTATION,
    )


def _last_hand_query(table_id: int, voided: str) -> QuerySet[Hand]:
    return with_deck(Hand.objects.filter(table_id=table_id).exclude(status=voided)).order_by(
        "-number"
    )[:1]


def player_in_running_hand(table: Table, player_id: int) -> bool:
    """Whether the player was dealt into the hand being played at ``table``."""
    hand = running_hand(table)
    return hand is not None and hand.seat_index_of(player_id) is not None


# --- The shuffle: a hand's deck and seed (HandSecret) ---------------------------------------
# Read here only, for the engine's replays and for revealing a finished hand's seed; never
# given to a template, an API answer or an admin page of a running hand. The deck a replay
# needs comes in the statement that reads the hand (``with_deck``), so the live path reads no
# more rows for it.


def with_deck(hands: QuerySet[Hand] | Manager[Hand]) -> QuerySet[Hand]:
    """The ``Hand`` queryset ``hands`` with each hand's deck read in the same statement, as
    ``hand.secret_deck`` (an attribute of the instance for ``hand_deck``, never a field: no
    filter, ordering or search names it)."""
    decks = HandSecret.objects.filter(hand=OuterRef("pk")).values("deck")
    # Hand declares secret_deck as an attribute of its instances, for hand_deck to type.
    return hands.annotate(secret_deck=Subquery(decks))  # type: ignore[no-redef]


#: The field of ``with_deck``'s annotation (a JSON list: the statements decode it through it).
_DECK_ANNOTATION = {"secret_deck": HandSecret._meta.get_field("deck")}


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


def finished_hand_secrets(hands: QuerySet[Hand]) -> dict[int, HandSecret]:
    """hand id -> the seed and deck of each hand of the ``Hand`` queryset ``hands`` that is
    over (finished or voided), in one read; a hand still running, or whose run-out is still
    being dealt on screen (``Hand.in_play``), is never among them."""
    over = hands.exclude(status=Hand.Status.RUNNING).exclude(runout_showing_q()).values("pk")
    return {secret.hand_id: secret for secret in HandSecret.objects.filter(hand__in=over)}


def runout_streets_of(runs: list[list[dict[str, Any]]]) -> list[list[tuple[str, int]]]:
    """The shape of a run-out's runs, chances left out: what identifies the run-out the
    chances were computed for."""
    return [[(step["street"], step["cards"]) for step in run] for run in runs]
