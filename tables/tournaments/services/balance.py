"""Balancing and breaking a tournament's tables, after every hand.

No table is left more than one player shorter than another: players move from the fullest
table between hands to the shortest, into the same position relative to the blinds where a
seat allows it (the player due the big blind next, to the seat due it next). A table is broken
as soon as the players left fit on fewer tables. Only tables between hands give players; any
table takes them (a player who arrives during a hand is dealt in from the next). Other tables
are locked with ``skip_locked``: a busy table is left for a later pass, never waited for.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from django.db.models import Count
from django.utils import timezone

from tables.models import Hand, Seat, Table
from tables.services.events import table_lock, table_touch
from tables.tournaments.models import Tournament, TournamentTable
from tables.tournaments.services.places import table_close_for_tournament

#: The clockwise position (1: first after the button) of the next hand's big blind.
NEXT_BIG_BLIND = 3


def needed_tables(players: int, seats_per_table: int) -> int:
    return max(1, math.ceil(players / seats_per_table))


class _Locks:
    """The tables this balancing holds, locked without waiting (None: busy elsewhere), and
    their players as counted once locked (kept up to date by the moves made here)."""

    def __init__(self, table: Table) -> None:
        self.tables: dict[int, Table | None] = {table.pk: table}
        self.players: dict[int, int] = {table.pk: table.seats.count()}

    def get(self, pk: int) -> Table | None:
        if pk not in self.tables:
            table = self.tables[pk] = table_lock(pk, skip_locked=True)
            if table is not None:
                self.players[pk] = table.seats.count()
        return self.tables[pk]

    def held(self, pk: int) -> Table:
        """Table ``pk``, which this balancing holds locked (``get`` gave it)."""
        table = self.tables.get(pk)
        if table is None:
            raise RuntimeError(f"table {pk} is not held by this balancing")
        return table

    def first(self, candidates: Iterable[int]) -> int | None:
        """The first of ``candidates`` (table ids, best first) that could be locked. Only
        the tables a move needs are locked: not every table of a large tournament."""
        return next((pk for pk in candidates if self.get(pk) is not None), None)


def balance(tournament: Tournament, table: Table) -> int:
    """Balance and break the tables of ``tournament`` after a hand at ``table`` (locked by
    the caller, with the tournament). Returns how many players moved."""
    locks = _Locks(table)
    moved = 0
    for _ in range(10 * tournament.seats_per_table + 10):  # each turn moves or stops
        counts = dict(
            TournamentTable.objects.filter(tournament=tournament, broken_at__isnull=True)
            .annotate(players=Count("table__seats"))
            .values_list("table_id", "players")
        )
        if len(counts) < 2:
            break
        running = set(
            Hand.objects.filter(table_id__in=counts, status=Hand.Status.RUNNING).values_list(
                "table_id", flat=True
            )
        )
        between_hands = [pk for pk in counts if pk not in running]
        alive = sum(counts.values())
        if len(counts) > needed_tables(alive, tournament.seats_per_table):
            # Break the shortest table between hands (the one that just played on a tie).
            broken = locks.first(
                sorted(between_hands, key=lambda pk: (counts[pk], pk != table.pk, pk))
            )
            if broken is None:
                break
            targets = sorted((pk for pk in counts if pk != broken), key=lambda pk: (counts[pk], pk))
            done = _break(locks, broken, targets)
            moved += done
            if not done and counts[broken]:
                break
            continue
        if max(counts.values()) - min(counts.values()) <= 1:
            break
        shortest = locks.first(sorted(counts, key=lambda pk: (counts[pk], pk)))
        if shortest is None:
            break
        fullest = locks.first(
            sorted(
                (pk for pk in between_hands if counts[pk] - counts[shortest] > 1),
                key=lambda pk: (-counts[pk], pk != table.pk, pk),
            )
        )
        if fullest is None:
            break
        _move(locks.held(fullest), locks.held(shortest))
        moved += 1
    return moved


def _with_room(locks: _Locks, targets: list[int]) -> int | None:
    """The held target with the fewest players and a free seat."""
    held = [
        t
        for t in targets
        if (held := locks.tables.get(t)) is not None and locks.players[t] < held.max_seats
    ]
    return min(held, key=lambda t: (locks.players[t], t)) if held else None


def _break(locks: _Locks, pk: int, targets: list[int]) -> int:
    """Move every player of table ``pk`` to the shortest of ``targets`` (shortest first) with
    a free seat, locking more of them only as those held fill up; close it when empty."""
    source = locks.held(pk)
    to_lock = iter(targets)
    locks.first(to_lock)  # the shortest table that can be locked
    moved = 0
    for _seat in list(source.seats.all()):
        target = _with_room(locks, targets)
        while target is None:
            candidate = next(to_lock, None)
            if candidate is None:
                return moved
            if locks.get(candidate) is not None:
                target = _with_room(locks, targets)
        _move(source, locks.held(target))
        locks.players[target] += 1
        locks.players[pk] -= 1
        moved += 1
    TournamentTable.objects.filter(table_id=pk).update(broken_at=timezone.now())
    table_close_for_tournament(source)
    return moved


def _clockwise(numbers: list[int], button: int | None, max_seats: int) -> list[int]:
    """Seat ``numbers`` in dealing order: the first after ``button`` first."""
    start = -1 if button is None else button
    return sorted(numbers, key=lambda n: (n - start - 1) % max_seats)


def _move(source: Table, target: Table) -> Seat:
    """Move the player due the big blind next at ``source`` to the free seat of ``target``
    nearest the same position relative to its button. Both tables are locked by the caller."""
    taken = list(source.seats.values_list("number", flat=True))
    order = _clockwise(taken, source.button_seat, source.max_seats)
    position = min(NEXT_BIG_BLIND, len(order))
    seat = source.seats.get(number=order[position - 1])
    occupied = list(target.seats.values_list("number", flat=True))
    free = [n for n in range(target.max_seats) if n not in occupied]

    def distance(number: int) -> tuple[int, int]:
        dealing = _clockwise([*occupied, number], target.button_seat, target.max_seats)
        return (abs(dealing.index(number) + 1 - position), number)

    number = min(free, key=distance)
    player_id, stack, sitting_out, bank = (
        seat.player_id,
        seat.stack,
        seat.sitting_out,
        seat.time_bank,
    )
    seat.delete()
    moved = Seat.objects.create(
        table=target,
        number=number,
        player_id=player_id,
        stack=stack,
        sitting_out=sitting_out,
        time_bank=bank,
    )
    table_touch(source)
    table_touch(target)
    return moved
