"""Starting, playing, finishing and voiding hands.

Every function runs in one transaction holding the table row lock (``table_lock``); the
state of a running hand is rebuilt from the database (``hand_state``: the engine replaying
the stored inputs and ``HandAction`` log), so a restarted server carries on where it was.
Each change bumps ``Table.version`` and publishes ``table.changed`` on commit.
"""

from __future__ import annotations

import json
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from engine.table import next_button
from tables.models import Hand, HandAction, Seat, Table
from tables.selectors import hand_state
from tables.services.errors import (
    HandInProgress,
    HandNotRunning,
    IllegalMove,
    NotEnoughPlayers,
    NotYourTurn,
    ServiceError,
    StaleAction,
)
from tables.services.events import table_touch
from tables.services.locks import require_open, running_hand, table_lock
from tables.services.player_hands import player_hands_record
from tables.services.seats import seat_cash_out


def hand_start(*, table: Table) -> Hand:
    """Deal a new hand to every seated player with chips who is not sitting out.

    Lock: table row. Needs an open table, no hand running and at least two players. The
    button moves with ``engine.table.next_button``; the deck comes from a fresh seed whose
    ``sha256`` commitment is stored with the hand (the seed is revealed when it ends). The
    stakes are the table's as they are now.
    """
    from engine.deck import commitment, new_seed, seeded_deck
    from engine.errors import PokerError
    from engine.hand import Hand as EngineHand
    from engine.hand import HandConfig

    with transaction.atomic():
        table = table_lock(table)
        require_open(table)
        if running_hand(table) is not None:
            raise HandInProgress("A hand is already being played at this table.")
        seats = list(
            table.seats.select_related("player__user")
            .filter(sitting_out=False, leave_after_hand=False, stack__gt=0)
            .order_by("number")
        )
        if len(seats) < 2:
            raise NotEnoughPlayers("A hand needs at least two players with chips sitting in.")
        numbers = [s.number for s in seats]
        button_seat = next_button(numbers, table.button_seat)
        button = numbers.index(button_seat)
        settings_now = table.hand_config()
        if len(seats) < 3:
            settings_now["straddle"] = 0  # a straddle needs three or more players
        try:
            config = HandConfig(**settings_now)
        except PokerError as error:
            raise ServiceError(f"The table's settings cannot be dealt: {error}") from error
        seed = new_seed()
        deck = [int(card) for card in seeded_deck(seed)]
        seat_list = [
            {"seat": s.number, "player_id": s.player_id, "name": s.player.name, "stack": s.stack}
            for s in seats
        ]
        try:
            state = EngineHand(
                config,
                stacks=[s.stack for s in seats],
                button=button,
                deck=deck,
                players=[s.player.name for s in seats],
            )
        except PokerError as error:
            raise ServiceError(f"The hand cannot be dealt: {error}") from error
        last = table.hands.aggregate(last=Max("number"))["last"] or 0
        hand = Hand.objects.create(
            table=table,
            number=last + 1,
            config=config.to_dict(),
            seats=seat_list,
            button=button,
            button_seat=button_seat,
            deck=deck,
            seed=str(seed),
            commitment=str(commitment(seed)),
        )
        table.button_seat = button_seat
        table.next_hand_at = None
        _after_change(table, hand, state)
        return hand


def hand_act(
    *,
    table: Table,
    player,
    hand_id: int,
    version: int,
    action,
    source: str = HandAction.Source.PLAYER,
) -> Hand:
    """Apply ``player``'s action to the running hand ``hand_id``.

    Lock: table row. ``version`` is the ``Table.version`` the player saw: if the table has
    changed since (or the same action was already applied), ``StaleAction`` and nothing
    changes. ``action`` is an engine ``Action``, a ``{"kind", "amount"}`` dict or a
    ``(kind, amount)`` pair or text like ``"raise 120"``. ``source`` is ``player``, ``timeout`` (the clock acting; the
    player is also sat out) or ``bot``. When the hand ends: stacks written back, result
    stored, busted players and those leaving cashed out.
    """
    from engine.errors import PokerError
    from engine.hand import Action

    kind, amount = _parse_action(action)
    with transaction.atomic():
        table = table_lock(table)
        hand = table.hands.filter(pk=hand_id).first()
        if hand is None:
            raise HandNotRunning("That hand is not being played at this table.")
        if version != table.version:
            raise StaleAction(
                "The table has changed since you saw it (or your action was already taken): "
                "nothing was done, look again."
            )
        if not hand.is_running:
            raise HandNotRunning(f"Hand #{hand.number} is over.")
        state = hand_state(hand)
        index = hand.seat_index_of(player.pk)
        if index is None:
            raise NotYourTurn(f"You are not in hand #{hand.number}.")
        actor = state.actor
        if actor != index:
            whose = hand.seats[actor]["name"] if actor is not None else "nobody"
            raise NotYourTurn(f"It is not your turn: {whose} is to act.")
        try:
            state.act(Action(kind, amount))
        except PokerError as error:
            raise IllegalMove(str(error)) from error
        HandAction.objects.create(
            hand=hand,
            index=hand.actions.count(),
            seat=index,
            kind=kind,
            amount=amount,
            source=source,
        )
        if source == HandAction.Source.TIMEOUT:
            Seat.objects.filter(table=table, player_id=player.pk).update(sitting_out=True)
        _after_change(table, hand, state)
        return hand


def hand_void(*, table: Table, hand_id: int, reason: str) -> Hand:
    """Call off a running hand: every stack goes back to what it was when the hand started.

    Lock: table row. Used when a hand cannot go on (closing the table, a broken hand).
    """
    with transaction.atomic():
        table = table_lock(table)
        hand = table.hands.filter(pk=hand_id).first()
        if hand is None or not hand.is_running:
            raise HandNotRunning("That hand is not being played at this table.")
        for start in hand.seats:
            Seat.objects.filter(table=table, player_id=start["player_id"]).update(
                stack=start["stack"]
            )
        hand.status = Hand.Status.VOIDED
        hand.result = {"voided": reason}
        hand.finished_at = timezone.now()
        hand.save(update_fields=["status", "result", "finished_at"])
        _settle_seats(table, hand)
        table.action_deadline = None
        table.save(update_fields=["action_deadline"])
        table_touch(table)
        return hand


def _parse_action(action) -> tuple[str, int | None]:
    if isinstance(action, str):
        parts = action.split()
        if len(parts) == 2 and parts[1].isdigit():
            kind, amount = parts[0], int(parts[1])
        elif len(parts) == 1:
            kind, amount = parts[0], None
        else:
            raise IllegalMove(f"Not an action: {action!r} (try fold, check, call, raise 120).")
    elif isinstance(action, dict):
        kind, amount = action.get("kind"), action.get("amount")
    elif isinstance(action, (tuple, list)) and len(action) in (1, 2):
        kind, amount = action[0], action[1] if len(action) == 2 else None
    else:
        kind, amount = getattr(action, "kind", None), getattr(action, "amount", None)
    if not isinstance(kind, str) or not kind:
        raise IllegalMove("An action needs a kind (fold, check, call, raise, all_in).")
    kind = {"bet": "raise", "allin": "all_in", "all-in": "all_in"}.get(kind, kind)
    if amount is not None and (isinstance(amount, bool) or not isinstance(amount, int)):
        raise IllegalMove("An amount is a whole number of chips.")
    return kind, amount


def _after_change(table: Table, hand: Hand, state) -> None:
    """Write the engine's stacks back to the seats; finish the hand if it is over."""
    stacks = list(state.stacks)
    for start, stack in zip(hand.seats, stacks, strict=True):
        Seat.objects.filter(table=table, player_id=start["player_id"]).update(stack=stack)
    now = timezone.now()
    if state.is_over:
        hand.status = Hand.Status.FINISHED
        hand.result = _jsonable(state.result)
        hand.pot = _pot_total(hand, state)
        hand.finished_at = now
        hand.save(update_fields=["status", "result", "pot", "finished_at"])
        player_hands_record(hand=hand, state=state)
        _settle_seats(table, hand)
        table.action_deadline = None
        table.next_hand_at = now + timedelta(seconds=settings.POKER_HAND_PAUSE_SECONDS)
    else:
        table.action_deadline = now + timedelta(seconds=table.action_seconds)
    table.save(update_fields=["button_seat", "action_deadline", "next_hand_at"])
    table_touch(table)


def _settle_seats(table: Table, hand: Hand) -> None:
    """After a hand: busted players leave their seat, those who asked to leave cash out."""
    for seat in table.seats.select_related("player__user"):
        if seat.stack == 0:
            seat.delete()
        elif seat.leave_after_hand:
            seat_cash_out(table=table, seat=seat, reason=f"Left {table.name}", hand=hand)


def _jsonable(value):
    """The engine's result as plain JSON (lists, dicts, ints, strings)."""
    if hasattr(value, "to_dict"):
        value = value.to_dict()
    return json.loads(json.dumps(value, default=_json_default))


def _json_default(value):
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    if hasattr(value, "__dict__"):
        return vars(value)
    return str(value)


def _pot_total(hand: Hand, state) -> int:
    """Chips contested in the hand: everything put in, uncalled bets returned."""
    return int(state.total_pot)
