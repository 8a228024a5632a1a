"""A host's changes that wait for the hand being played to end, and the building blocks they
share with the changes made at once (announcing, correcting a stack, closing a game).

``Table.pending_changes`` holds what waits: ``{"settings": {field: value}, "corrections":
[{"player_id", "stack", "by"}], "close": true}``. ``pending_apply`` runs at the end of every
hand (``tables.services.hands``, under the same table row lock, in the same transaction) and
empties it. Every function here is internal: the caller holds the table row lock inside
``transaction.atomic()`` and bumps the version (``table_touch``).
"""

from __future__ import annotations

from django.db.models import Sum
from django.utils import timezone

from tables.models import Hand, HandAction, LedgerEntry, Seat, Table, TableNotice
from tables.services.errors import BuyInOutOfRange, InsufficientBankroll
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
    return TableNotice.objects.create(
        table=table, text=text[:300], hand_number=hand_number, after_actions=after_actions
    )


def pending_queue(table: Table, *, settings: dict | None = None, correction=None, close=False):
    """Add to what waits for the hand's end (later values of a setting win)."""
    pending = dict(table.pending_changes or {})
    if settings:
        pending["settings"] = {**pending.get("settings", {}), **settings}
    if correction is not None:
        pending["corrections"] = [*pending.get("corrections", []), correction]
    if close:
        pending["close"] = True
    table.pending_changes = pending
    Table.objects.filter(pk=table.pk).update(pending_changes=pending)


def stack_correct(table: Table, seat: Seat, stack: int, by: str) -> int:
    """Set ``seat``'s stack to ``stack`` through the ledger: the difference moves between the
    player's bankroll and the stack (a ``correction`` entry), so no chip is created or lost.
    Returns the change of the stack. Refused (``correction_refusal``) outside what a host may
    do; the refusals speak to the host and never name the player's bankroll."""
    change = stack - seat.stack
    refusal = correction_refusal(table, seat, stack)
    if refusal is not None:
        raise refusal
    if change:
        try:
            ledger_record(
                player=seat.player,
                amount=-change,
                kind=LedgerEntry.Kind.CORRECTION,
                reason=f"Stack corrected to {stack} at {table.name} by {by}",
                table=table,
            )
        except InsufficientBankroll:  # its message names the bankroll: private to the player
            raise InsufficientBankroll(
                f"{seat.player}'s bankroll does not cover a stack of {stack}: "
                "only they can add chips (a top-up)."
            ) from None
        Seat.objects.filter(pk=seat.pk).update(stack=stack)
        seat.stack = stack
    return change


def correction_refusal(table: Table, seat: Seat, stack: int) -> BuyInOutOfRange | None:
    """Why a host may not set ``seat``'s stack to ``stack`` (None: they may).

    A host's stack stays within the table's buy-in range, and corrections never take from a
    bankroll more than they gave back to it while the player sits here: the chips a player
    puts on the table are theirs to choose (a buy-in, a top-up), never the host's."""
    out_of_range = stack_out_of_range(table, stack)
    if out_of_range is not None:
        return out_of_range
    given_back = correction_balance(table, seat)
    if stack - seat.stack > given_back:
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
    table.action_deadline = None
    table.next_hand_at = None
    table.pending_changes = {}
    Table.objects.filter(pk=table.pk).update(
        status=table.status,
        closed_at=table.closed_at,
        action_deadline=None,
        next_hand_at=None,
        pending_changes={},
    )


def pending_apply(table: Table) -> None:
    """Apply what waited for the hand to end (see the module docstring), each announced."""
    pending = table.pending_changes or {}
    if not pending:
        return
    for correction in pending.get("corrections", []):
        seat = (
            table.seats.select_related("player__user")
            .filter(player_id=correction["player_id"])
            .first()
        )
        if seat is None:
            continue  # gone meanwhile: their chips are already back in their bankroll
        try:
            stack_correct(table, seat, correction["stack"], correction["by"])
        except ValueError as error:  # the bankroll no longer covers it: say so, change nothing
            notice_post(table, f"The correction of {seat.player}'s stack failed: {error}")
            continue
        notice_post(table, f"{seat.player}'s stack is now {correction['stack']} (corrected).")
    values = pending.get("settings", {})
    if values:
        for field, value in values.items():
            setattr(table, field, value)
        Table.objects.filter(pk=table.pk).update(**values)
        notice_post(table, f"Now in effect: {describe_settings(values)}.")
    table.pending_changes = {}
    Table.objects.filter(pk=table.pk).update(pending_changes={})
    if pending.get("close"):
        close_now(table, reason=f"{table.name} closed by the host")
        notice_post(table, "The game is closed: everyone was cashed out.")


def describe_settings(values: dict) -> str:
    """``values`` (field -> value) as a short sentence for the log."""
    return ", ".join(
        f"{Table._meta.get_field(field).verbose_name} {value}" for field, value in values.items()
    )
