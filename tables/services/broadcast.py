"""The hole-card broadcast (issue 53): the host proposes it, each seated player agrees or
withdraws from their own screen, and a hand shows its hole cards to spectators only when
every player seated at its deal had agreed (``broadcast_for_deal``, read by ``hand_start``).

The delay is the host's: ``none`` (at once), ``street`` (a card dealt on a street once the
hand moved to the next one), ``hand`` (at its end) or ``minutes`` (N minutes after it was
dealt). A change of the delay or of the room screen's part asks everyone again (their
agreement was to the setting they saw). A withdrawal, or a newcomer who has not agreed, stops
it from the next deal: the hand being played keeps what it was dealt with. Every proposal,
agreement and withdrawal is announced in the table's log (``notice_post``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction

from tables.models import BroadcastConsent, Player, Seat, Table
from tables.services.errors import InvalidSettings, NotSeated, ServiceError
from tables.services.events import table_lock, table_touch
from tables.services.host_pending import notice_post
from tables.services.hosting import hosted_table

if TYPE_CHECKING:
    from tables.selectors.access import Viewer

#: The delays a host may choose, as ``Table.broadcast_delay`` stores them.
DELAYS = ("none", "street", "hand", "minutes")
#: The longest delay in minutes.
MAX_MINUTES = 120
_WORDS = {"none": "at once", "street": "one street later", "hand": "once each hand is over"}

SETTINGS = ("broadcast_proposed", "broadcast_delay", "broadcast_minutes", "broadcast_room_screen")


class BroadcastNotProposed(ServiceError):
    """There is no broadcast to agree to: the host has not proposed one."""

    code = "not_proposed"


def delay_words(table: Table) -> str:
    """When spectators see a hole card, in words."""
    if table.broadcast_delay == "minutes":
        return f"{table.broadcast_minutes} minutes after it is dealt"
    return _WORDS.get(table.broadcast_delay, "")


def table_broadcast_propose(
    *,
    table: Table | int,
    by: Viewer,
    delay: str,
    minutes: int = 5,
    room_screen: bool = False,
) -> Table:
    """The host proposes (or changes) the broadcast: nothing shows until every seated player
    agrees. ``InvalidSettings`` for a delay not in ``DELAYS`` or minutes out of 1..120."""
    if delay not in DELAYS:
        raise InvalidSettings({"broadcast_delay": f"Choose one of: {', '.join(DELAYS)}."})
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= MAX_MINUTES:
        raise InvalidSettings({"broadcast_minutes": f"The delay is 1 to {MAX_MINUTES} minutes."})
    with transaction.atomic():
        table = hosted_table(table, by)
        minutes = minutes if delay == "minutes" else table.broadcast_minutes
        new = (True, delay, minutes, bool(room_screen))
        if new == tuple(getattr(table, field) for field in SETTINGS):
            return table
        # Agreements were given to what the players saw: a changed proposal asks again.
        BroadcastConsent.objects.filter(table=table).delete()
        for field, value in zip(SETTINGS, new, strict=True):
            setattr(table, field, value)
        where = " and on the room screen" if table.broadcast_room_screen else ""
        notice_post(
            table,
            f"The host proposes showing hole cards to spectators{where}, "
            f"{delay_words(table)}: it starts once every seated player agrees.",
        )
        table_touch(table, *SETTINGS)
        return table


def table_broadcast_stop(*, table: Table | int, by: Viewer) -> Table:
    """The host takes the proposal back: no hand dealt from now on is broadcast."""
    with transaction.atomic():
        table = hosted_table(table, by)
        if not table.broadcast_proposed:
            return table
        table.broadcast_proposed = False
        BroadcastConsent.objects.filter(table=table).delete()
        notice_post(
            table, "The host stopped showing hole cards to spectators (from the next hand)."
        )
        table_touch(table, "broadcast_proposed")
        return table


def _seated(table: Table, player: Player) -> None:
    if not Seat.objects.filter(table=table, player=player).exists():
        raise NotSeated("Only a player seated at this table can answer that.")


def broadcast_agree(*, table: Table | int, player: Player) -> Table:
    """``player`` (seated) agrees to the proposed broadcast."""
    with transaction.atomic():
        table = table_lock(table)
        _seated(table, player)
        if not table.broadcast_proposed:
            raise BroadcastNotProposed("The host has not proposed showing hole cards.")
        _, created = BroadcastConsent.objects.get_or_create(table=table, player=player)
        if created:
            notice_post(table, f"{player.name} agrees to show hole cards to spectators.")
            table_touch(table)
        return table


def broadcast_withdraw(*, table: Table | int, player: Player) -> Table:
    """``player`` (seated) withdraws their agreement: no hand dealt from now on is broadcast
    until they agree again (the hand being played keeps what it was dealt with)."""
    with transaction.atomic():
        table = table_lock(table)
        _seated(table, player)
        deleted, _ = BroadcastConsent.objects.filter(table=table, player=player).delete()
        if deleted:
            notice_post(
                table,
                f"{player.name} withdrew: hole cards are not shown to spectators from the "
                "next hand.",
            )
            table_touch(table)
        return table
