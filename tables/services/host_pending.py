"""A host's changes that wait for the hand being played to end, and the building blocks they
share with the changes made at once (announcing, correcting a stack, closing a game).

``Table.pending_changes`` holds what waits: ``{"settings": {field: value}, "corrections":
[{"player_id", "stack", "shown", "change", "by"}], "remove": [player_id], "sit_out":
[player_id], "close": true}``. ``pending_apply`` runs at the end of every hand
(``tables.services.hands``, under the same table row lock, in the same transaction) and
empties it. A stack set during the player's hand waits as a difference (PokerNow's "in the
next hand"): the stack asked minus the stack shown when asked, added to the stack the hand
leaves, so the hand's result is kept. A player the host sits out or removes plays the hand
out as usual (their clock, their buttons) and is away, or cashed out, from the next one.
Every function here is internal: the caller holds the table row lock inside
``transaction.atomic()`` and bumps the version (``table_touch``).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Sum
from django.utils import timezone

from tables.models import Hand, HandAction, LedgerEntry, Player, Seat, Table, TableNotice
from tables.selectors.hands import running_hand
from tables.services.errors import BuyInOutOfRange, InsufficientBankroll, InvalidAmount
from tables.services.hands_made import notice_noted
from tables.services.players import ledger_record
from tables.services.seats import seat_cash_out


def notice_post(table: Table, text: str) -> TableNotice:
    """Announce ``text`` in the table's log, at the point the table's latest hand has reached
    (after its decisions so far, or after the hand if it is over): every screen shows it
    there, among the hand's lines (``tables.presenters.log``)."""
    last = (
        Hand.objects.filter(table_id=table.pk)
        .order_by("-number")
        .values_list("pk", "number", "status")
        .first()
    )
    hand_number, after_actions = 0, None
    if last is not None:
        hand_id, hand_number, status = last
        if status == Hand.Status.RUNNING:
            after_actions = HandAction.objects.filter(hand_id=hand_id).count()
    notice_noted(table.pk)  # the runtime's next version reads the notices, not carries them
    return TableNotice.objects.create(
        table=table, text=text[:300], hand_number=hand_number, after_actions=after_actions
    )


def pending_queue(
    table: Table,
    *,
    settings: dict[str, Any] | None = None,
    correction: dict[str, Any] | None = None,
    close: bool = False,
    sit_out: int | None = None,
    remove: int | None = None,
) -> None:
    """Add to what waits for the hand's end (later values of a setting, and a later
    correction of the same player, win). ``sit_out``, ``remove``: a player's id."""
    pending = dict(table.pending_changes or {})
    if settings:
        pending["settings"] = {**pending.get("settings", {}), **settings}
    if correction is not None:
        others = [
            earlier
            for earlier in pending.get("corrections", [])
            if earlier["player_id"] != correction["player_id"]
        ]
        pending["corrections"] = [*others, correction]
    for key, player_id in (("sit_out", sit_out), ("remove", remove)):
        if player_id is not None and player_id not in pending.get(key, []):
            pending[key] = [*pending.get(key, []), player_id]
    if close:
        pending["close"] = True
    table.pending_changes = pending
    Table.objects.filter(pk=table.pk).update(pending_changes=pending)


def stack_correct(table: Table, seat: Seat, stack: int, by: str) -> int:
    """Set ``seat``'s stack to ``stack`` through the ledger: the difference moves between the
    player's bankroll and the stack (a ``correction`` entry), so no chip is created or lost.
    Returns the change of the stack. Refused (``correction_refusal``) outside what a host may
    do; the refusals speak to the host and never name the player's bankroll."""
    refusal = correction_refusal(table, seat, stack)
    if refusal is not None:
        raise refusal
    change = stack - seat.stack
    _stack_move(table, seat, change, f"Stack corrected to {stack} at {table.name} by {by}")
    return change


def stack_shown(table: Table, seat: Seat, player: Player, shown: object) -> int:
    """The stack the host's panel showed when they asked (``shown``; None: the stack now, as
    the API asks). During the player's hand their chips behind only go down from what they
    were dealt in with: a panel a bet behind still shows one of those, and the difference is
    taken from it. Anything else (the hand ended, a new one was dealt) is refused: the host
    looks again."""
    if shown is None:
        return seat.stack
    if isinstance(shown, bool) or not isinstance(shown, int):
        raise InvalidAmount("The stack shown must be a whole number of chips.")
    hand = running_hand(table)
    index = hand.seat_index_of(player.pk) if hand is not None else None
    dealt_with = hand.seats[index]["stack"] if hand is not None and index is not None else None
    if shown == seat.stack or (dealt_with is not None and seat.stack <= shown <= dealt_with):
        return shown
    raise InvalidAmount(
        f"{player}'s stack is {seat.stack} now, not the {shown} you saw: nothing changed, "
        "look at it and set it again."
    )


def stack_change_apply(table: Table, seat: Seat, correction: dict[str, Any]) -> int:
    """At the hand's end: add a correction asked during it (its ``change``, the stack asked
    minus the stack shown then) to the stack the hand left. Refused when the bankroll bound
    (``addition_refusal``) no longer holds or the stack left cannot give the chips taken.
    Returns the new stack."""
    change: int = correction["change"]
    stack = seat.stack + change
    if stack < 1:
        raise InvalidAmount(
            f"{seat.player} has {seat.stack} chips after the hand: a correction of {change} "
            "would leave none."
        )
    refusal = addition_refusal(table, seat, change)
    if refusal is not None:
        raise refusal
    _stack_move(
        table,
        seat,
        change,
        f"Stack corrected by {change:+} at {table.name} by {correction['by']} "
        f"(set to {correction['stack']} from {correction['shown']} during a hand)",
    )
    return stack


def _stack_move(table: Table, seat: Seat, change: int, reason: str) -> None:
    """Move ``change`` chips from the player's bankroll to ``seat``'s stack (negative: back)."""
    if not change:
        return
    try:
        ledger_record(
            player=seat.player,
            amount=-change,
            kind=LedgerEntry.Kind.CORRECTION,
            reason=reason,
            table=table,
        )
    except InsufficientBankroll:  # its message names the bankroll: private to the player
        raise InsufficientBankroll(
            f"{seat.player}'s bankroll does not cover {change} more chips: "
            "only they can add chips (a top-up)."
        ) from None
    seat.stack += change
    Seat.objects.filter(pk=seat.pk).update(stack=seat.stack)


def correction_refusal(table: Table, seat: Seat, stack: int) -> BuyInOutOfRange | None:
    """Why a host may not set ``seat``'s stack to ``stack`` (None: they may).

    A host's stack stays within the table's buy-in range, and corrections never take from a
    bankroll more than they gave back to it while the player sits here: the chips a player
    puts on the table are theirs to choose (a buy-in, a top-up), never the host's."""
    return stack_out_of_range(table, stack) or addition_refusal(table, seat, stack - seat.stack)


def addition_refusal(table: Table, seat: Seat, change: int) -> BuyInOutOfRange | None:
    """Why a correction may not add ``change`` chips to ``seat``'s stack from the bankroll
    (None: it may): more than corrections gave back is a top-up, the player's own call."""
    given_back = correction_balance(table, seat)
    if change > given_back:
        return BuyInOutOfRange(
            f"A correction may add at most {max(given_back, 0)} chips to {seat.player}'s stack "
            "(what corrections took off it): more is a top-up, which only they can ask for."
        )
    return None


def stack_out_of_range(table: Table, stack: int) -> BuyInOutOfRange | None:
    """The refusal of a host's ``stack`` outside the table's buy-in range (None: inside)."""
    low, high = table.effective_min_buy_in, table.effective_max_buy_in
    if low <= stack <= high:
        return None
    return BuyInOutOfRange(
        f"A stack the host sets stays within {table.name}'s buy-in range, {low} to {high} chips."
    )


def correction_balance(table: Table, seat: Seat) -> int:
    """The chips corrections moved from ``seat``'s stack back to the player's bankroll since
    they sat down (less what corrections took from it): what a correction may put back."""
    total = LedgerEntry.objects.filter(
        player_id=seat.player_id,
        table_id=table.pk,
        kind=LedgerEntry.Kind.CORRECTION,
        created_at__gte=seat.joined_at,
    ).aggregate(total=Sum("amount"))["total"]
    return total or 0


def close_now(table: Table, reason: str) -> None:
    """Cash everyone out and close ``table`` (no hand may be running): read-only from now,
    its hands and ledger kept."""
    for seat in table.seats.select_related("player__user").order_by("number"):
        seat_cash_out(table=table, seat=seat, reason=reason)
    table.status = Table.Status.CLOSED
    table.closed_at = timezone.now()
    table.action_deadline, table.action_banked = None, False
    table.next_hand_at = None
    table.pending_changes = {}
    Table.objects.filter(pk=table.pk).update(
        status=table.status,
        closed_at=table.closed_at,
        action_deadline=None,
        action_banked=False,
        next_hand_at=None,
        pending_changes={},
    )


def pending_apply(table: Table) -> None:
    """Apply what waited for the hand to end (see the module docstring), each announced:
    stack corrections, then removals, then sit-outs, settings and closing."""
    pending = table.pending_changes or {}
    if not pending:
        return
    for correction in pending.get("corrections", []):
        seat = _seat_or_none(table, correction["player_id"])
        if seat is None:
            continue  # gone meanwhile: their chips are already back in their bankroll
        if "change" not in correction:  # queued as a target before differences: as meant then
            correction = {**correction, "shown": seat.stack}
            correction["change"] = correction["stack"] - seat.stack
        try:
            stack = stack_change_apply(table, seat, correction)
        except ValueError as error:  # the bankroll no longer covers it: say so, change nothing
            notice_post(table, f"The correction of {seat.player}'s stack failed: {error}")
            continue
        notice_post(
            table,
            f"{seat.player}'s stack is now {stack}: the host's correction "
            f"({correction['change']:+}) added to this hand's result.",
        )
    for player_id in pending.get("remove", []):
        seat = _seat_or_none(table, player_id)
        if seat is not None:
            seat_cash_out(table=table, seat=seat, reason=f"Removed from {table.name} by the host")
            notice_post(table, f"{seat.player} is cashed out (removed by the host).")
    for player_id in pending.get("sit_out", []):
        seat = _seat_or_none(table, player_id)
        if seat is not None and not seat.sitting_out:
            Seat.objects.filter(pk=seat.pk).update(sitting_out=True)
            notice_post(table, f"{seat.player} sits out from now (the host's call).")
    values = pending.get("settings", {})
    if values:
        for field, value in values.items():
            setattr(table, field, value)
        Table.objects.filter(pk=table.pk).update(**values)
        notice_post(table, f"From this hand: {describe_settings(table, values)}.")
    table.pending_changes = {}
    Table.objects.filter(pk=table.pk).update(pending_changes={})
    if pending.get("close"):
        close_now(table, reason=f"{table.name} closed by the host")
        notice_post(table, "The game is closed: everyone was cashed out.")


def _seat_or_none(table: Table, player_id: int) -> Seat | None:
    return table.seats.select_related("player__user").filter(player_id=player_id).first()


#: The settings a player reads as the game and its stakes ("No-limit Hold'em 1/2"): a change
#: of any of them is said as the whole game, in the words of the table's heading.
GAME_FIELDS = (
    "game",
    "betting",
    "small_blind",
    "big_blind",
    "ante",
    "ante_mode",
    "straddle",
    "straddles",
    "button_straddle",
    "bring_in",
    "small_bet",
    "big_bet",
)
GAME_WORDS_FIELDS = frozenset(GAME_FIELDS)


def describe_settings(table: Table, values: dict[str, Any]) -> str:
    """``values`` (field -> value), set on ``table``, as a short phrase a player reads in the
    log: the game and its stakes as the heading says them ("No-limit Hold'em 2/4"), then each
    other setting of that game by its name ("private off", "dealer's choice games: Fixed-limit
    Razz")."""
    parts = [game_words(table)] if GAME_WORDS_FIELDS & set(values) else []
    # what does not apply to the game (put back to its default when the game changed)
    apart = Table.settings_not_for(table.game, table.betting)
    for field, value in values.items():
        if field in GAME_WORDS_FIELDS or field in apart:
            continue
        # The settings are the table's own fields, never a reverse relation (no verbose_name).
        name = Table._meta.get_field(field).verbose_name  # type: ignore[union-attr]
        if field == "choice_games":
            words = dict(Table.PICKS)
            picked = ", ".join(words.get(pick, pick) for pick in value) or "every game"
            parts.append(f"dealer's choice games: {picked}")
        else:
            parts.append(f"{name} {_setting_text(value)}")
    return ", ".join(parts)


def game_words(table: Table) -> str:
    """The game ``table`` deals and its stakes: "No-limit Hold'em 1/2", "HORSE 2/4 ante 1"."""
    mixed = table.mixed
    name = mixed.label if mixed is not None else table.words_of((table.game, table.betting))
    return f"{name} {table.stakes}"


def _setting_text(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None:
        return "as the game's default"
    return str(value)
