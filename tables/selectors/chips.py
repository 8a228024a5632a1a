"""Where every chip is: the chip-conservation invariant's read.

Two kinds of chips. Play chips: bankrolls, stacks at cash tables (and what they bet in running
hands) and the entry fees held in tournament prize pools until paid out as prizes; only grants
bring new ones. Tournament chips: the stacks at tournament tables, worth nothing outside their
tournament; each running tournament holds exactly the starting stacks it gave out (entries,
rebuys, re-entries).

The chips a game of another app holds (a tournament's prize pools and the tournament chips it
gave out) come from that app: it registers ``f() -> ChipsHeld`` here from its
``AppConfig.ready`` (``register_holder``); the tables app does not import it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.db.models import Q, Sum

from tables.models import Hand, LedgerEntry, Player, Seat


@dataclass(frozen=True)
class ChipsHeld:
    """What one app's games hold: play chips not in any bankroll or stack (``prize_pools``:
    entry fees not yet paid out) and the tournament chips they gave out (``issued``)."""

    prize_pools: int = 0
    issued: int = 0


chip_holders: list[Callable[[], ChipsHeld]] = []


def register_holder(holder: Callable[[], ChipsHeld]) -> None:
    """Add ``holder`` once (``AppConfig.ready`` may run more than once in tests)."""
    if holder not in chip_holders:
        chip_holders.append(holder)


def _in_running_hands(hands: Iterable[Hand], stacks: dict[tuple[int, int], int]) -> int:
    total = 0
    for hand in hands:
        behind = sum(stacks.get((hand.table_id, s["player_id"]), 0) for s in hand.seats)
        total += hand.start_total - behind
    return total


def chips_in_running_hands(*, tournament: bool = False) -> int:
    """Chips bet in hands still being played (taken from stacks, not yet paid out), at cash
    tables (or, ``tournament``, at tournament tables)."""
    at_tournament = Q(table__tournament_table__isnull=False)
    where = at_tournament if tournament else ~at_tournament
    stacks = {(s.table_id, s.player_id): s.stack for s in Seat.objects.filter(where)}
    return _in_running_hands(Hand.objects.filter(where, status=Hand.Status.RUNNING), stacks)


def chips_total() -> dict[str, int]:
    """Where every chip is: bankrolls, cash stacks, cash running hands, unpaid prize pools,
    what was ever granted; and the tournament chips in play against those given out.

    Invariants: ``bankrolls + stacks + in_hands + prize_pools == granted`` and
    ``tournament_chips == tournament_chips_issued``.
    """
    held = [holder() for holder in chip_holders]
    bankrolls = Player.objects.aggregate(t=Sum("bankroll"))["t"] or 0
    cash = Seat.objects.filter(table__tournament_table__isnull=True)
    stacks = cash.aggregate(t=Sum("stack"))["t"] or 0
    tournament_stacks = (
        Seat.objects.filter(table__tournament_table__isnull=False).aggregate(t=Sum("stack"))["t"]
        or 0
    )
    granted = (
        LedgerEntry.objects.filter(kind__in=LedgerEntry.GRANT_KINDS).aggregate(t=Sum("amount"))["t"]
        or 0
    )
    return {
        "bankrolls": bankrolls,
        "stacks": stacks,
        "in_hands": chips_in_running_hands(),
        "prize_pools": sum(h.prize_pools for h in held),
        "granted": granted,
        "tournament_chips": tournament_stacks + chips_in_running_hands(tournament=True),
        "tournament_chips_issued": sum(h.issued for h in held),
    }


def chips_conserved(totals: dict[str, int]) -> bool:
    """Both invariants of ``chips_total``."""
    play_chips = totals["bankrolls"] + totals["stacks"] + totals["in_hands"]
    return (
        play_chips + totals["prize_pools"] == totals["granted"]
        and totals["tournament_chips"] == totals["tournament_chips_issued"]
    )
