"""Acting in advance (issue 50): ticking a choice, and taking the ticked choices in the same
step as the action before them.

A player in the hand who is not to act may tick one of the choices ``engine.pre_actions``
offers them now; it is stored on their ``Seat`` (with the hand and street it belongs to) and
``hand_act`` takes it the moment their turn comes, in the same transaction as the action
that brought the turn to them (``pre_actions_take``): no extra round trip. A choice whose
meaning changed, or whose street ended, is cleared there too. ``Table.pre_actions`` says
whether any seat may hold one, so an action at a table where nobody ticked reads no seat.
"""

from __future__ import annotations

from django.db import transaction

from engine.hand import Hand as EngineHand
from engine.pre_actions import CALL, KINDS, PreAction, meaning, offers
from engine.types import Action, ActionKind
from tables.db.statements import run
from tables.models import Hand, HandAction, Player, Seat, Table
from tables.selectors.hands import Decision, hand_state, running_hand
from tables.services.errors import HandNotRunning, InvalidChoice, NotSeated, NotYourTurn
from tables.services.events import decision_write, table_lock, table_touch


def pre_action_set(
    *, table: Table | int, player: Player, kind: str, amount: int | None = None
) -> Seat:
    """Tick ``kind`` for ``player`` (one of ``engine.pre_actions.KINDS``; "" clears it).

    Lock: table row. Refused (``ServiceError``, nothing changed) unless the player is in the
    running hand and not to act, and ``kind`` is offered to them now; a "call" ticked for
    ``amount`` chips is refused when the amount to call is another (None: the amount now).
    Bumps the version (screens show the tick); not the hand's, so nobody's action goes stale.
    """
    with transaction.atomic():
        table = table_lock(table)
        seat = Seat.objects.filter(table=table, player=player).first()
        if seat is None:
            raise NotSeated("You are not sitting at this table.")
        hand = running_hand(table)
        if kind == "":
            _clear(table, [seat.pk])
            return seat
        if kind not in KINDS:
            raise InvalidChoice(f"Pre-actions are {', '.join(KINDS)} (or nothing).")
        index = hand.seat_index_of(player.pk) if hand is not None else None
        if hand is None or index is None:
            raise HandNotRunning("You are not in a hand being played here.")
        state = hand_state(hand)
        if state.actor == index:
            raise NotYourTurn("It is your turn already: act now.")
        offer = next((o for o in offers(state, index) if o.kind == kind), None)
        if offer is None:
            raise InvalidChoice(f"{kind} makes no sense for you now.")
        if kind == CALL and amount is not None and amount != offer.amount:
            raise InvalidChoice(f"The amount to call is {offer.amount} now, not {amount}.")
        seat.pre_action, seat.pre_action_amount = kind, offer.amount
        seat.pre_action_hand, seat.pre_action_street = hand.pk, state.street
        seat.save(
            update_fields=[
                "pre_action",
                "pre_action_amount",
                "pre_action_hand",
                "pre_action_street",
            ]
        )
        table.pre_actions = True
        table_touch(table, "pre_actions")
        return seat


def _clear(table: Table, seat_ids: list[int]) -> None:
    cleared = Seat.objects.filter(pk__in=seat_ids).exclude(pre_action="")
    if cleared.update(pre_action="", pre_action_amount=0, pre_action_hand=0, pre_action_street=""):
        table_touch(table)


def pre_actions_take(
    table: Table, hand: Hand, state: EngineHand, first_index: int
) -> tuple[list[Decision], bool]:
    """After an action at ``table`` (its row locked, ``state`` the engine hand after it):
    while the player to act has a choice that still means something, act it for them, each
    one logged from ``first_index`` on with the source ``pre``; then clear every choice that
    was taken or is void. Returns the decisions made and whether any seat's choice changed.
    The caller calls it only where a seat may hold one (``Table.pre_actions``), and saves
    that flag."""
    ticked = {
        player_id: PreAction(kind, amount, hand_id, street)
        for player_id, kind, amount, hand_id, street in Seat.objects.filter(table=table)
        .exclude(pre_action="")
        .values_list(
            "player_id", "pre_action", "pre_action_amount", "pre_action_hand", "pre_action_street"
        )
    }
    made: list[Decision] = []
    taken: set[int] = set()
    while state.actor is not None and not state.is_over:
        index = state.actor
        player_id = hand.seats[index]["player_id"]
        pre = ticked.get(player_id)
        kind = meaning(pre, state, index, hand.pk) if pre is not None else None
        if kind is None:
            break
        taken.add(player_id)
        state.act(Action(ActionKind(kind)))
        decision = Decision(kind, None, HandAction.Source.PRE_ACTION)
        run(decision_write(decision, hand.pk, first_index + len(made), index))
        made.append(decision)
    void = {
        player_id
        for player_id, pre in ticked.items()
        if player_id in taken or _void(pre, hand, state, player_id)
    }
    if void:
        Seat.objects.filter(table=table, player_id__in=void).update(
            pre_action="", pre_action_amount=0, pre_action_hand=0, pre_action_street=""
        )
    table.pre_actions = len(void) < len(ticked)
    return made, bool(void)


def _void(pre: PreAction, hand: Hand, state: EngineHand, player_id: int) -> bool:
    """Whether a ticked choice no longer means anything: another hand or street, the player
    out of the betting, or its meaning changed ("call 40" facing 80, "check" facing a bet)."""
    index = hand.seat_index_of(player_id)
    return index is None or meaning(pre, state, index, hand.pk) is None


def pre_actions_clear(table: Table) -> None:
    """At the end of a hand: no ticked choice outlives it (the caller saves ``pre_actions``)."""
    if table.pre_actions:
        Seat.objects.filter(table=table).exclude(pre_action="").update(
            pre_action="", pre_action_amount=0, pre_action_hand=0, pre_action_street=""
        )
        table.pre_actions = False
