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

from django.db.models import Count
from django.utils import timezone

from tables.models import Hand, Seat, Table
from tables.services.events import table_touch
from tables.services.locks import table_lock
from tables.tournaments.models import Tournament, TournamentTable
from tables.tournaments.services.places import table_close_for_tournament

#: The clockwise position (1: first after the button) of the next hand's big blind.
NEXT_BIG_BLIND = 3


def needed_tables(players: int, seats_per_table: int) -> int:
    return max(1, math.ceil(players / seats_per_table))


class _Locks:
    """The tables this balancing holds, locked without waiting (None: busy elsewhere)."""

    def __init__(self, table: Table) -> None:
        self.tables: dict[int, Table | None] = {table.pk: table}

    def get(self, pk: int) -> Table | None:
        if pk not in self.tables:
            self.tables[pk] = table_lock(pk, skip_locked=True)
        return self.tables[pk]


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
        sources = [pk for pk in counts if pk not in running and locks.get(pk) is not None]
        targets = [pk for pk in counts if locks.get(pk) is not None]
        if not sources:
            break
        alive = sum(counts.values())
        if len(counts) > needed_tables(alive, tournament.seats_per_table):
            # Break the shortest table between hands (the one that just played on a tie).
            broken = min(sources, key=lambda pk: (counts[pk], pk != table.pk, pk))
            done = _break(tournament, locks, broken, [pk for pk in targets if pk != broken])
            moved += done
            if not done and counts[broken]:
                break
            continue
        fullest = max(sources, key=lambda pk: (counts[pk], pk == table.pk, -pk))
        shortest = min(targets, key=lambda pk: (counts[pk], pk))
        if counts[fullest] - counts[shortest] <= 1:
            break
        _move(locks.get(fullest), locks.get(shortest))
        moved += 1
    return moved


def _break(tournament: Tournament, locks: _Locks, pk: int, targets: list[int]) -> int:
    """Move every player of table ``pk`` to the shortest of ``targets``; close it when empty."""
    source = locks.get(pk)
    moved = 0
    for _seat in list(source.seats.all()):
        room = [
            target
            for target in targets
            if locks.get(target).seats.count() < locks.get(target).max_seats
        ]
        if not room:
            return moved
        shortest = min(room, key=lambda t: (locks.get(t).seats.count(), t))
        _move(source, locks.get(shortest))
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
