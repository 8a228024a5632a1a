"""Starting, playing, finishing and voiding hands.

Every function runs in one transaction holding the table row lock (``table_lock``). A table's
runtime (``tables.live.runtime``) hands ``hand_act`` the running hand it holds in memory
(``LiveHand``), which is used when it is at the version the locked row has, and acted on in
place; otherwise the state is rebuilt from the database (``hand_state``: the engine replaying
the stored inputs and ``HandAction`` log), so a restarted server carries on where it was.
Each change bumps ``Table.version`` and publishes ``table.changed`` on commit.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from engine.button import next_button
from engine.cards import format_cards
from engine.config import double_board_fits
from engine.deck import commitment, new_seed, seeded_deck
from engine.errors import PokerError
from engine.hand import Hand as EngineHand
from engine.types import RUN_ACTIONS, Action, HandConfig
from tables.db import statements
from tables.db.rows import delete, insert
from tables.db.statements import Batch, Write
from tables.models import Hand, HandAction, HandSecret, Player, Seat, Table
from tables.selectors.broadcast import broadcast_for_deal
from tables.selectors.hands import Decision, hand_decisions, hand_state, with_deck
from tables.services import etiquette, hooks, mixed, runouts
from tables.services.errors import (
    HandInProgress,
    HandNotRunning,
    IllegalMove,
    NotEnoughPlayers,
    NotYourTurn,
    ServiceError,
    StaleAction,
)
from tables.services.events import (
    decision_write,
    fenced_atomic,
    require_open,
    table_lock,
    table_lock_held,
    table_touch,
)
from tables.services.hands_made import hand_made
from tables.services.host_pending import pending_apply
from tables.services.live_hand import LiveHand
from tables.services.pre_actions import pre_actions_clear, pre_actions_take
from tables.services.seats import seat_cash_out

#: What an action reads of the table's row with its lock besides the version, where the
#: runtime holds the row (``LiveHand.table``): the stale-click check's inputs both come from
#: the lock; the rest of the row is the runtime's copy (every change bumps the version).
ACTION_COLUMNS = ("hand_version",)


def straddles_for(settings: dict[str, Any], players: int) -> dict[str, Any]:
    """The table's ``hand_config`` for a hand of ``players``: the straddles that fit. Every
    seat but the blinds may straddle, so a short table posts fewer (none heads-up); the
    button straddle needs three players too."""
    room = max(players - 2, 0)
    if settings.get("straddles", 0) > room:
        settings = dict(settings, straddles=room)
    if settings.get("straddle") and not settings.get("straddles"):
        settings = dict(settings, straddle=0, straddles=0, button_straddle=False)
    return settings


def hand_start(*, table: Table, now: datetime | None = None) -> Hand:
    """Deal a new hand to every seated player with chips who is not sitting out, as seat
    etiquette says (``tables.services.etiquette``: waiting for the big blind, sitting out
    next hand, missed blinds posted as ``HandConfig.posts``).

    Lock: table row. Needs an open table, no hand running and at least two players. The
    button moves with ``engine.button.next_button``; the deck comes from a fresh seed whose
    ``sha256`` commitment is stored with the hand, the seed and the deck apart
    (``HandSecret``; the seed is revealed when it ends). The stakes are the table's as they
    are now. ``now``: the time the hooks see (the croupier's, injected in tests).
    """
    now = now or timezone.now()
    with transaction.atomic():
        table = table_lock(table)
        require_open(table)
        # Only this service creates hands, numbered 1, 2, 3... and never while one is
        # running: a running hand is always the table's latest, so one read answers both
        # "is a hand running?" and "what is the next number?".
        last = table.hands.order_by("-number").values_list("number", "status").first()
        if last is not None and last[1] == Hand.Status.RUNNING:
            raise HandInProgress("A hand is already being played at this table.")
        return hand_deal(table, now, last[0] if last is not None else 0)


def hand_deal(
    table: Table,
    now: datetime,
    last_number: int,
    dealing: etiquette.Dealing | None = None,
    clock: bool = False,
) -> Hand:
    """``hand_start``'s deal, for a caller inside its transaction that holds the row lock of
    the open ``table`` (as locked, with what it changed since) and knows no hand is running
    there: ``last_number`` is the number of the table's latest hand (0: none yet).

    ``dealing``: who is dealt in, as ``etiquette.dealing_for`` says at ``now``, when the caller
    has worked it out already (the ``hooks.hand_starting`` listeners change stakes, never who
    is dealt). ``clock``: the croupier deals, so the action clock counts from ``now``.
    """
    for listener in hooks.hand_starting:
        listener(table, now)
    if dealing is None:
        dealing = etiquette.dealing_for(table, now)  # who is dealt in, who posts what
    seats = etiquette.dealt_rows(dealing)
    if len(seats) < 2:
        raise NotEnoughPlayers("A hand needs at least two players with chips sitting in.")
    numbers = [number for number, _, _, _ in seats]
    button_seat = next_button(numbers, table.button_seat)
    button = numbers.index(button_seat)
    rotated = mixed.rotation_turn(table, len(seats), now)
    settings_now = straddles_for(table.hand_config(), len(seats))
    number = last_number + 1
    if table.bomb_pot_due(number):
        # a bomb pot has no preflop betting, so no straddle; the host's call is used up
        settings_now.update(
            bomb_pot=table.bomb_pot_ante, straddle=0, straddles=0, button_straddle=False
        )
        settings_now["double_board"] = table.bomb_pot_double_board and double_board_fits(
            settings_now["game"], len(seats)
        )  # two boards where the hands leave the cards for them
        table.bomb_pot_next = False
    posts = etiquette.posts_for(dealing, button, settings_now)
    if posts:
        settings_now["posts"] = posts
    try:
        config = HandConfig(**settings_now)
    except PokerError as error:
        raise ServiceError(f"The table's settings cannot be dealt: {error}") from error
    seed = new_seed()
    deck = [int(card) for card in seeded_deck(seed)]
    seat_list = [
        {"seat": number, "player_id": player_id, "name": name, "stack": stack}
        for number, player_id, stack, name in seats
    ]
    stacks = [stack for _, _, stack, _ in seats]
    try:
        state = EngineHand(
            config,
            stacks=stacks,
            button=button,
            deck=deck,
            players=[name for _, _, _, name in seats],
        )
    except PokerError as error:
        raise ServiceError(f"The hand cannot be dealt: {error}") from error
    hand = Hand(
        table=table,
        number=number,
        config=config.to_dict(),
        seats=seat_list,
        button=button,
        button_seat=button_seat,
        commitment=str(commitment(seed)),
        broadcast=broadcast_for_deal(table, [player_id for _, player_id, _, _ in seats]),
    )
    insert(hand, numbered=True)  # ``Hand.objects.create``, compiled once
    secret = {"hand_id": hand.pk, "deck": deck, "seed": str(seed)}  # no instance: nobody reads it
    writes = Batch()  # sent with the stacks and the table's version, in one trip
    writes.add(statements.insert_write(secret, HandSecret))
    etiquette.dealing_apply(dealing, writes)
    hand.secret_deck = deck  # as with_deck brings it: the replays need no read
    table.button_seat = button_seat
    table.next_hand_at = None
    _after_change(
        table,
        hand,
        state,
        stacks,
        "button_seat",
        "next_hand_at",
        "bomb_pot_next",
        *rotated,
        clock_now=now if clock else None,
        ahead=writes,
    )
    hand_made(table, hand, [], state)
    return hand


def hand_act(
    *,
    table: Table | int,
    player: Player,
    hand_id: int,
    version: int,
    action: object,
    source: str = HandAction.Source.PLAYER,
    live: LiveHand | None = None,
    clock_now: datetime | None = None,
    locked: bool = False,
) -> Hand:
    """Apply ``player``'s action to the running hand ``hand_id``.

    Lock: table row. ``version`` is the ``Table.version`` the player saw: if the hand has
    moved since (``Table.hand_version`` is later: the same action was already applied, or
    another player or the clock acted), or it is from the future, ``StaleAction`` and nothing
    changes. Changes that leave the hand as it was (seats taken or left by others, sitting
    out) do not make it stale. ``action`` is an engine ``Action``, a ``{"kind", "amount"}``
    dict or a ``(kind, amount)`` pair or text like ``"raise 120"``. ``source`` is ``player``,
    ``timeout`` (the clock acting; the player is also sat out) or ``bot``. When the hand
    ends: stacks written back, result stored, busted players and those leaving cashed out.
    ``live``: the runtime's hand in memory (no read, no replay when it is current).
    ``clock_now``: the croupier's time, when the clock acts: the next deadline counts from it.
    ``locked``: ``table`` is the row the caller's transaction locked and read already, as it
    is in the database (the clock's tick): not locked and read a second time.
    Then, in the same step, each next player to act who ticked a choice in advance acts by it
    (``tables.services.pre_actions``: logged with the source ``pre``), and the ticks that lost
    their meaning are cleared.
    """
    engine_action = _parse_action(action)
    kind, amount = str(engine_action.kind), engine_action.amount  # as the log stores them
    # the runtime's row, where it holds the hand acted on (the lock reads its version)
    held = (
        live.table
        if live is not None and not locked and not live.spent and live.hand.pk == hand_id
        else None
    )
    with fenced_atomic():  # a runtime's action: its lease's transaction, no savepoint
        if not (locked and isinstance(table, Table)):
            table = table_lock(table) if held is None else table_lock_held(held, ACTION_COLUMNS)
        current = (
            live is not None
            and live.version == table.version
            and live.hand.pk == hand_id
            and not live.spent
        )
        hand: Hand | None
        seats: dict[int, int] | None  # player id -> seat in the hand, when known
        if current:
            assert live is not None  # current: the runtime's hand
            hand, decisions, seats = live.hand, live.decisions, live.seats
        else:
            hand, decisions, seats = _table_hand(table, hand_id), None, None
        if hand is None:
            raise HandNotRunning("That hand is not being played at this table.")
        # 0: a hand dealt before hand_version existed; only the latest version is fresh.
        moved_at = table.hand_version or table.version
        if not moved_at <= version <= table.version:
            raise StaleAction(
                "The hand has changed since you saw it (or your action was already taken): "
                "nothing was done, look again."
            )
        if hand.status != Hand.Status.RUNNING:  # ``Hand.is_running``, off the field itself
            raise HandNotRunning(f"Hand #{hand.number} is over.")
        if decisions is None:
            decisions = hand_decisions(hand)
            state = hand_state(hand, decisions)
        else:
            assert live is not None  # the decisions came with the runtime's hand
            state = live.state
        index = seats.get(player.pk) if seats is not None else hand.seat_index_of(player.pk)
        if kind in runouts.RUN_CHOICES:
            runs = runouts.runs_answer(table=table, hand=hand, state=state, index=index, kind=kind)
            if runs is None:
                return hand  # the others are still choosing
            engine_action = Action(RUN_ACTIONS[runs])
            kind = str(engine_action.kind)
        if index is None:
            raise NotYourTurn(f"You are not in hand #{hand.number}.")
        # the run-it-twice choice is the players' together: whoever completed it makes it
        actor = index if kind in runouts.RUN_CHOICES else state.actor
        if actor != index:
            whose = hand.seats[actor]["name"] if actor is not None else "nobody"
            raise NotYourTurn(f"It is not your turn: {whose} is to act.")
        before = state.stacks
        if current:
            assert live is not None
            live.spent = True  # changed in place from here: read again if this fails
        try:
            state.act(engine_action)
        except PokerError as error:
            if current:
                assert live is not None
                live.spent = False  # the engine refuses before it changes anything
            raise IllegalMove(str(error), getattr(error, "code", None)) from error
        decision = Decision(kind, amount, source, format_cards(engine_action.cards))
        # the log entry and the seats' changes go with the table's UPDATE, in one trip
        writes = Batch()
        writes.add(decision_write(decision, hand.pk, len(decisions), index))
        sat_out = source == HandAction.Source.TIMEOUT and kind not in runouts.RUN_CHOICES
        if sat_out:
            writes.add(
                statements.update_write(
                    Seat, {"table_id": table.pk, "player_id": player.pk}, sitting_out=True
                )
            )
        had_pre_actions = table.pre_actions
        # the players whose turn comes next and who ticked a choice act now, in this step
        # (at a table where nobody ticked one, the usual case, there is nothing to look at)
        if had_pre_actions:
            writes.send()  # their seats are read, and the log written on
            taken, ticks_changed = pre_actions_take(table, hand, state, len(decisions) + 1)
        else:
            taken, ticks_changed = [], False
        _after_change(
            table,
            hand,
            state,
            before,
            *(("pre_actions",) if had_pre_actions else ()),
            # the turn passes unless the player who just acted is to act again
            last_actor=None if taken else index,
            clock_now=clock_now,
            ahead=writes,
        )
        if state.is_over:
            hand_made(table, hand, [*decisions, decision, *taken], state)
        if current:
            assert live is not None
            live.decisions = [*decisions, decision, *taken]
            if ticks_changed or sat_out:
                # the seats' ticks changed too, or the player timed out sat out, which the
                # runtime's next version built from memory would not show: it reads the table
                live.spent = True
            else:
                live.version, live.deadline = table.version, table.action_deadline
                live.table = table  # the row as written: this action's own copy
                live.spent = False
        return hand


def hand_void(*, table: Table, hand_id: int, reason: str) -> Hand:
    """Call off a running hand: every stack goes back to what it was when the hand started.

    Lock: table row. Used when a hand cannot go on (closing the table, a broken hand).
    """
    with transaction.atomic():
        table = table_lock(table)
        hand = _table_hand(table, hand_id)
        if hand is None or not hand.is_running:
            raise HandNotRunning("That hand is not being played at this table.")
        started = {start["player_id"]: start["stack"] for start in hand.seats}
        statements.update_each(Seat, {"table_id": table.pk}, "player_id", "stack", started)
        hand.status = Hand.Status.VOIDED
        hand.result = {"voided": reason}
        hand.finished_at = timezone.now()
        hand.save(update_fields=["status", "result", "finished_at"])
        _settle_seats(table, hand)
        table.action_deadline, table.action_banked = None, False
        pre_actions_clear(table)
        table_touch(table, "action_deadline", "action_banked", "pre_actions")
        return hand


def _parse_action(action: object) -> Action:
    """The engine ``Action`` of what a player sent (``Action.coerce``); ``IllegalMove``."""
    try:
        return Action.coerce(action)
    except PokerError as error:
        raise IllegalMove(str(error), "invalid_action") from None


def _after_change(
    table: Table,
    hand: Hand,
    state: EngineHand,
    before: Sequence[int],
    *changed: str,
    last_actor: int | None = None,
    clock_now: datetime | None = None,
    ahead: Batch | None = None,
) -> None:
    """Write the stacks the change moved (``before``: the engine's stacks before it) back to
    the seats; finish the hand if it is over; store the table's clock with the new version,
    which is also the hand's (``Table.hand_version``: actions that saw an earlier one are stale).
    ``ahead``: the caller's writes not sent yet, which go with these (``statements.Batch``).

    ``changed``: other fields of ``table`` the caller set, saved in the same UPDATE.
    ``last_actor``: the seat that made the last decision (None: a deal, or someone else):
    ``hooks.turn_passed`` hears of the next player to act unless it is that seat again.
    ``clock_now``: the croupier's time, when it made the change: the action clock (or the
    pause before the next hand) counts from it, else from the time now.
    """
    stacks = state.stacks
    writes = ahead if ahead is not None else Batch()
    moved = zip(hand.seats, before, stacks, strict=True)
    writes.add(
        _stacks_write(table, {s["player_id"]: chips for s, was, chips in moved if chips != was})
    )
    now = timezone.now()
    # a run-out begins only once nobody can bet: while betting goes on there is none to look at
    paced = state.no_more_betting and runouts.runout_record(hand, state)
    if state.is_over:
        hand.status = Hand.Status.FINISHED
        assert state.result is not None  # the hand is over: it has its result
        hand.result = state.result.to_dict()  # plain JSON: lists, dicts, ints, text
        hand.pot = _pot_total(hand, state)
        hand.finished_at = now
        writes.add(
            statements.update_write(
                Hand,
                {"pk": hand.pk},
                status=hand.status,
                result=hand.result,
                pot=hand.pot,
                finished_at=now,
                runout=hand.runout,
                odds_pending=hand.odds_pending,
            )
        )
        writes.send()  # the hand's end reads what the hand left (its listeners, the seats)
        for listener in hooks.hand_finished:
            listener(hand, state)
        _settle_seats(table, hand)
        for ended in hooks.hand_ended:
            ended(table, hand)
        table.action_deadline = None
        pause_from = clock_now or now
        table.next_hand_at = (
            runouts.runout_first_pause(pause_from)
            if paced
            else pause_from + timedelta(seconds=settings.POKER_HAND_PAUSE_SECONDS)
        )
        changed += ("next_hand_at",)
    else:
        table.action_deadline = (clock_now or now) + timedelta(seconds=table.action_seconds)
        if clock_now is not None and table.next_hand_at is not None:
            table.next_hand_at = None  # a hand runs: no next one is due (as the clock keeps it)
            changed += ("next_hand_at",)
    if table.action_banked:  # a new turn (or none): its clock has drawn no bank yet
        table.action_banked = False
        changed += ("action_banked",)  # written only then: most moves' UPDATE stays as it was
    table.hand_version = table.version + 1  # the version table_touch is about to write
    # a hand's end (stacks, results, cash-outs) waits for the disk; its moves need not
    fields = dict.fromkeys(("action_deadline", "hand_version", *changed))
    table_touch(table, *fields, wait_for_disk=state.is_over, ahead=writes)
    actor = None if state.is_over else state.actor
    if actor is not None and actor != last_actor and hooks.turn_passed:
        for turn_listener in hooks.turn_passed:
            turn_listener(table, hand, hand.seats[actor]["player_id"])


def _table_hand(table: Table, hand_id: int) -> Hand | None:
    """Hand ``hand_id`` if it was dealt at ``table``."""
    try:
        return with_deck(Hand.objects).get(pk=hand_id, table_id=table.pk)
    except Hand.DoesNotExist:
        return None


def _stacks_write(table: Table, stacks: dict[int, int]) -> Write | None:
    """Set the stacks of the seats of ``table`` held by these players (player id -> chips):
    one compiled UPDATE, ready to send (None: nothing to write)."""
    return statements.update_each_write(Seat, {"table_id": table.pk}, "player_id", "stack", stacks)


def _settle_seats(table: Table, hand: Hand) -> None:
    """After a hand: busted players leave their seat, those who asked to leave cash out."""
    # usually none: one cheap read (compiled), the seats themselves only when someone goes
    seats = statements.select_values(Seat, "seats-going", _seats_going, table.pk, 0)
    busted = [pk for pk, stack in seats if stack == 0]
    delete(Seat, busted)  # no row refers to a seat: one compiled DELETE, if any
    leaving = [pk for pk, stack in seats if stack != 0]
    if leaving:
        for seat in Seat.objects.filter(pk__in=leaving).select_related("player").order_by("number"):
            seat_cash_out(table=table, seat=seat, reason=f"Left {table.name}", hand=hand)
    if table.pending_changes:  # a host's changes that waited for this hand to end
        pending_apply(table)


def _seats_going(table_id: int, busted: int) -> QuerySet[Seat, tuple[int, int]]:
    """(pk, stack) of the seats of a table whose player busted (``busted``: 0) or leaves."""
    going = Q(stack=busted) | Q(leave_after_hand=True)
    return (
        Seat.objects.filter(table_id=table_id)
        .filter(going)
        .order_by("number")
        .values_list("pk", "stack")
    )


def _pot_total(hand: Hand, state: EngineHand) -> int:
    """Chips contested in the hand: everything put in, uncalled bets returned."""
    return int(state.total_pot)
