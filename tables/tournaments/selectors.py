"""Reads of tournaments: lists, standings, chips in play, the level in play."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Q, QuerySet, Sum
from django.utils import timezone

from tables.models import Hand, Seat
from tables.selectors.chips import ChipsHeld
from tables.tournaments import structure
from tables.tournaments.models import Entry, Tournament


def tournament_list() -> QuerySet[Tournament]:
    """Every tournament with its number of entrants, newest first."""
    return Tournament.objects.annotate(entrant_count=Count("entries")).select_related(
        "organiser__user", "satellite_target"
    )


@dataclass(frozen=True)
class Standing:
    player_id: int
    name: str
    chips: int
    place: int | None
    prize: int
    table_id: int | None
    rank: int | None  # among the players still in, by chips
    rebuys: int
    reentries: int
    bounty: int = 0  # on their head now
    bounties_won: int = 0
    addon: bool = False  # the add-on taken
    seat: str = ""  # a satellite's seat won (``Entry.Seat``)


def standings(tournament: Tournament) -> list[Standing]:
    """Every entrant: players still in by chips (with their rank and table), then the places
    (a finished tournament's with the chips they ended with)."""
    seats = {
        player_id: (stack, table_id)
        for player_id, stack, table_id in Seat.objects.filter(
            table__tournament_table__tournament=tournament
        ).values_list("player_id", "stack", "table_id")
    }
    committed = _committed_in_running_hands(tournament)
    entries = Entry.objects.filter(tournament=tournament).select_related("player__user")
    rows = []
    for entry in entries:
        stack, table_id = seats.get(entry.player_id, (0, None))
        chips = stack + committed.get(entry.player_id, 0)
        rows.append((entry, chips, table_id))
    alive = sorted((r for r in rows if r[0].out_order is None), key=lambda r: (-r[1], r[0].pk))
    out = sorted(
        (r for r in rows if r[0].out_order is not None),
        key=lambda r: (-(r[0].out_order or 0), r[0].pk),
    )
    result = [
        Standing(
            e.player_id,
            e.player.name,
            chips,
            e.place,
            e.prize,
            table_id,
            rank,
            e.rebuys,
            e.reentries,
            e.bounty,
            e.bounties_won,
            e.addon_taken,
            e.seat,
        )
        for rank, (e, chips, table_id) in enumerate(alive, 1)
    ]
    result += [
        Standing(
            e.player_id,
            e.player.name,
            e.final_chips or 0,  # out before the end: none left
            e.place,
            e.prize,
            None,
            None,
            e.rebuys,
            e.reentries,
            e.bounty,
            e.bounties_won,
            e.addon_taken,
            e.seat,
        )
        for e, _, _ in out
    ]
    return result


def _committed_in_running_hands(tournament: Tournament) -> dict[int, int]:
    """Chips each player has put in the hands running at the tournament's tables."""
    committed: dict[int, int] = {}
    hands = Hand.objects.filter(
        table__tournament_table__tournament=tournament, status=Hand.Status.RUNNING
    )
    for hand in hands:
        stacks = dict(hand.table.seats.values_list("player_id", "stack"))
        for start in hand.seats:
            put_in = start["stack"] - stacks.get(start["player_id"], 0)
            committed[start["player_id"]] = committed.get(start["player_id"], 0) + put_in
    return committed


def tournament_chips(tournament: Tournament) -> int:
    """Chips across the tournament's tables: stacks plus chips in running hands."""
    stacks = Seat.objects.filter(table__tournament_table__tournament=tournament).aggregate(
        total=Sum("stack")
    )["total"]
    return (stacks or 0) + sum(_committed_in_running_hands(tournament).values())


def prizes_paid(tournament: Tournament) -> int:
    return tournament.entries.aggregate(total=Sum("prize"))["total"] or 0


def prize_list(tournament: Tournament) -> list[int]:
    """The prizes for places 1, 2, 3... with the entrants as they are now."""
    return structure.prize_table(
        tournament.prize_pool,
        tournament.entries.count(),
        tournament.payouts,
        tournament.payout_percentages,
        seat_value=tournament.seat_value,
    )


def table_counts(tournament: Tournament) -> dict[int, int]:
    """Players at each open table (table id -> players)."""
    return dict(
        tournament.tables.filter(broken_at__isnull=True)
        .annotate(players=Count("table__seats"))
        .values_list("table_id", "players")
    )


def chips_issued(tournament: Tournament) -> int:
    """The tournament chips given out: a starting stack per entry, rebuy and re-entry, and
    the add-ons' chips (what its tables must hold, stacks and running hands together, after
    every hand)."""
    totals = tournament.entries.aggregate(
        entries=Count("pk"),
        rebuys=Sum("rebuys"),
        reentries=Sum("reentries"),
        addons=Count("pk", filter=Q(addon_taken=True)),
    )
    stacks: int = totals["entries"] + (totals["rebuys"] or 0) + (totals["reentries"] or 0)
    addons: int = totals["addons"]
    return tournament.starting_stack * stacks + tournament.addon_chips * addons


def tournament_clock(tournament: Tournament, now: datetime | None = None) -> structure.LevelClock:
    """The level in play for the next hand dealt, whether a break is on, and the minutes (or
    hands, at the table that has dealt the most) until the next level.

    Levels by hands count the hands dealt at the tournament's leading table (the one that has
    dealt the most), so all its tables play the same level; levels by minutes count from the
    start, and their clock stands still during breaks and while a deal is decided.
    """
    if tournament.by_hands:
        dealt = tournament.hands_dealt
        index = structure.level_index(tournament.levels, hands=dealt)
        return structure.LevelClock(index, False, None)
    started = tournament.started_at
    if started is None:
        return structure.LevelClock(0, False, None)
    # The clock stands still while a deal is decided (and for every deal decided before).
    moment = tournament.paused_at or now or timezone.now()
    minutes = (moment - started - tournament.paused_for).total_seconds() / 60
    return structure.clock_at(
        tournament.levels,
        minutes,
        break_every=tournament.break_every_levels,
        break_minutes=tournament.break_minutes,
    )


def hands_to_next_level(tournament: Tournament) -> int | None:
    """Levels by hands: hands the leading table deals before the next level (None: minutes,
    or the last level)."""
    if not tournament.by_hands:
        return None
    total = 0
    for index, level in enumerate(tournament.levels):
        total += level["hands"]
        if tournament.hands_dealt < total:
            return None if index == len(tournament.levels) - 1 else total - tournament.hands_dealt
    return None


def rebuy_refusal(
    tournament: Tournament, entry: Entry, *, stack: int | None, in_hand: bool
) -> str | None:
    """Why ``entry``'s player may not rebuy now, or None (they may): rebuys on and open, some
    left, the place not decided, and (seated) at or below the starting stack and not in the
    hand being played. ``stack``: their seat's chips, None when they are out. The rule of
    ``services.rebuys.tournament_rebuy`` and of the pages' *Rebuy* button."""
    name = tournament.name
    if not tournament.rebuy_levels:
        return f"{name} is a freezeout: no rebuys."
    if tournament.status != Tournament.Status.RUNNING or not tournament.rebuys_open:
        return f"The rebuys of {name} are over."
    if entry.rebuys >= tournament.max_rebuys:
        return f"You have used your {tournament.max_rebuys} rebuy(s)."
    if entry.place is not None:
        return "Your place is decided: no rebuy."
    if stack is not None and stack > tournament.starting_stack:
        return (
            f"Rebuy at or below the starting stack ({tournament.starting_stack}); you have {stack}."
        )
    if stack is not None and in_hand:
        return "Rebuy between your hands: this one is still being played."
    return None


def addon_refusal(
    tournament: Tournament, entry: Entry, *, seated: bool, in_hand: bool
) -> str | None:
    """Why ``entry``'s player may not take the add-on now, or None (they may). Its window:
    the last level of the rebuys and a break after it, while rebuys are open (the first hand
    of the next level, or the bubble, closes both). Once per player, still in, between their
    hands. The rule of ``services.addons.tournament_addon`` and of the pages' buttons."""
    name, last = tournament.name, tournament.rebuy_levels
    if not tournament.addon_chips:
        return f"{name} has no add-on."
    if entry.addon_taken:
        return "You have taken your add-on already."
    if tournament.status == Tournament.Status.FINISHED or (
        tournament.status == Tournament.Status.RUNNING and not tournament.rebuys_open
    ):
        return f"The add-on of {name} is over (it ends with the rebuys)."
    if entry.place is not None:
        return "Your place is decided: no add-on."
    if tournament.status != Tournament.Status.RUNNING or tournament_clock(tournament).level < (
        last - 1
    ):
        return f"The add-on opens at level {last}, the last level of rebuys."
    if not seated:
        return "The add-on is for players still in: rebuy to come back first."
    if in_hand:
        return "Take the add-on between your hands: this one is still being played."
    return None


def addon_window_open(tournament: Tournament) -> bool:
    """The add-on's window is on (``addon_refusal`` without the player's own conditions)."""
    return (
        bool(tournament.addon_chips)
        and tournament.status == Tournament.Status.RUNNING
        and tournament.rebuys_open
        and tournament_clock(tournament).level >= tournament.rebuy_levels - 1
    )


def may_reenter(tournament: Tournament, entry: Entry) -> bool:
    """A re-entry (registering again): the player is out, the places are not given, and
    re-entries are left (``registration_open`` is checked by the caller)."""
    return (
        tournament.status == Tournament.Status.RUNNING
        and entry.out_batch is not None
        and entry.place is None
        and entry.reentries < tournament.max_reentries
    )


@dataclass(frozen=True)
class Comebacks:
    """What ``player`` may do now to come back or add chips (the pages' buttons)."""

    rebuy: bool
    reenter: bool
    addon: bool = False


def comebacks_for(tournament: Tournament, player_id: int | None) -> Comebacks:
    """Whether the player may rebuy now (``rebuy_refusal``), re-enter (``may_reenter``,
    during late registration) or take the add-on (``addon_refusal``)."""
    entry = None
    if player_id is not None and tournament.status == Tournament.Status.RUNNING:
        entry = tournament.entries.filter(player_id=player_id).first()
    if entry is None or player_id is None:
        return Comebacks(False, False)
    seat = (
        Seat.objects.filter(player_id=player_id, table__tournament_table__tournament=tournament)
        .values_list("stack", "table_id")
        .first()
    )
    stack, in_hand = None, False
    if seat is not None:
        stack = seat[0]
        running = Hand.objects.filter(table_id=seat[1], status=Hand.Status.RUNNING).first()
        in_hand = running is not None and any(s["player_id"] == player_id for s in running.seats)
    rebuy = tournament.rebuy_levels > 0 and (
        rebuy_refusal(tournament, entry, stack=stack, in_hand=in_hand) is None
    )
    reenter = tournament.registration_open and may_reenter(tournament, entry)
    addon = tournament.addon_chips > 0 and (
        addon_refusal(tournament, entry, seated=seat is not None, in_hand=in_hand) is None
    )
    return Comebacks(rebuy, reenter, addon)


def prize_pools_unpaid() -> int:
    """Play chips held in prize pools, not yet paid out as prizes, and on the players' heads
    as bounties not yet paid (every tournament)."""
    pools = Tournament.objects.aggregate(total=Sum("prize_pool"))["total"] or 0
    paid = Entry.objects.aggregate(prizes=Sum("prize"), heads=Sum("bounty"))
    return pools - (paid["prizes"] or 0) + (paid["heads"] or 0)


def chips_issued_running() -> int:
    """Tournament chips given out by the running tournaments (``chips_issued`` of each)."""
    running = Tournament.objects.filter(status=Tournament.Status.RUNNING)
    return sum(chips_issued(tournament) for tournament in running)


def chips_held() -> ChipsHeld:
    """What the tournaments hold, for the chip count (``tables.selectors.chips``)."""
    return ChipsHeld(prize_pools=prize_pools_unpaid(), issued=chips_issued_running())
