"""Seat etiquette: who is dealt the next hand, and who posts what besides the blinds.

Decided as each hand is dealt (``hand_start``; the croupier asks the same question, without
writing, before it deals):

- A player who sits down waits for the big blind (``Seat.wait_for_big_blind``, the default)
  or posts now: a live big blind out of position at the next hand (``Seat.Owes.BIG``).
- A waiting player is dealt in once the big blind reaches or passes their seat (between the
  last hand's big blind and this one's, clockwise); in the big blind (or the small blind, as
  the seats fall) they post that blind, elsewhere a live big blind.
- Sitting out while the big blind passes your seat is missing the blinds (``Seat.Owes.MISSED``):
  on return you post the small blind dead and the big blind live, or wait for the big blind,
  as the host chose (``Table.missed_blinds``). In a blind's seat the blind is all you post.
- "Sit out next hand" sits you out as the next hand is dealt; "sit out at the next big blind"
  when the big blind reaches you (heads-up you play on: sitting out would end the game).
- With fewer than two players who need not wait (or only bots), or in a game without blinds
  (stud, a bomb pot, short deck's button blind), everyone sitting in is dealt and owes
  nothing.

A tournament's tables (``TableRules.deal_sitting_out``) deal every seat with chips: none of
this applies there. The caller holds the table row lock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import QuerySet

from engine.button import next_button
from engine.variants import variant
from tables.db import statements
from tables.db.statements import Batch
from tables.models import Hand, Seat, Table
from tables.services import hooks


@dataclass(slots=True)  # not frozen: one per seat at every deal, whose __init__ then is plain
class SeatNow:
    """A seat as the dealing reads it (never changed)."""

    pk: int
    number: int
    player_id: int
    stack: int
    name: str
    is_bot: bool
    sitting_out: bool
    leaving: bool
    waiting: bool
    owes: str
    sit_out_next: str


@dataclass
class Dealing:
    """Who the next hand deals in (``seats``, in seat order) and what changes with it."""

    seats: list[SeatNow]
    owes: dict[int, str] = field(default_factory=dict)  # seat number -> what it posts
    sit_out: list[int] = field(default_factory=list)  # seat pks sat out as it is dealt
    cleared: list[int] = field(default_factory=list)  # seat pks that wait or owe no more
    missed: list[int] = field(default_factory=list)  # seat pks the big blind passed

    @property
    def numbers(self) -> list[int]:
        return [seat.number for seat in self.seats]


def _seats_now(table: Table) -> list[SeatNow]:
    """The table's seats by number: one compiled statement (every deal reads them)."""
    rows = statements.select_values(Seat, "dealing-seats", _seats_query, table.pk)
    return [
        # the driver's values: SQLite's truths are 0 or 1
        SeatNow(
            pk,
            number,
            player_id,
            stack,
            name,
            bool(is_bot),
            bool(sitting_out),
            bool(leaving),
            bool(waiting),
            owes,
            sit_out_next,
        )
        for (
            pk,
            number,
            player_id,
            stack,
            name,
            is_bot,
            sitting_out,
            leaving,
            waiting,
            owes,
            sit_out_next,
        ) in rows
    ]


def _seats_query(table_id: int) -> QuerySet[Seat, tuple[Any, ...]]:
    username = get_user_model().USERNAME_FIELD
    return (
        Seat.objects.filter(table_id=table_id)
        .order_by("number")
        .values_list(
            "pk",
            "number",
            "player_id",
            "stack",
            f"player__user__{username}",
            "player__is_bot",
            "sitting_out",
            "leave_after_hand",
            "wait_for_big_blind",
            "owes_blinds",
            "sit_out_next",
        )
    )


def big_blind_seat(numbers: list[int], previous_button: int | None) -> int:
    """The seat number in the big blind when ``numbers`` are dealt after ``previous_button``
    (the engine's blinds: heads-up the button is the small blind)."""
    ordered = sorted(numbers)
    button = ordered.index(next_button(ordered, previous_button))
    return ordered[(button + (1 if len(ordered) == 2 else 2)) % len(ordered)]


def _passed(number: int, since: int | None, to: int) -> bool:
    """The big blind moving from seat ``since`` to seat ``to`` (clockwise) reached ``number``."""
    if since is None or since == to:
        return False
    if since < to:
        return since < number <= to
    return number > since or number <= to


class NotRead:
    """A value the caller has not read (``NOT_READ``), as against one read and found None."""


NOT_READ = NotRead()


def _last_big_blind(table: Table, latest: Hand | None | NotRead = NOT_READ) -> int | None:
    """The seat number of the big blind in the table's last hand (None: none, or no blinds).
    ``latest``: that hand (voided or not; None: no hand yet), when the caller has it."""
    if isinstance(latest, NotRead):
        last = table.hands.order_by("-number").values_list("seats", "button", "config").first()
    else:
        last = None if latest is None else (latest.seats, latest.button, latest.config)
    if last is None:
        return None
    seats, button, config = last
    if not _has_blinds(config) or len(seats) < 2:
        return None
    count = len(seats)
    number: int = seats[(button + (1 if count == 2 else 2)) % count]["seat"]
    return number


def _has_blinds(config: dict[str, Any]) -> bool:
    game = variant(config.get("game", "holdem"))
    return not (game.is_stud or game.button_blind or config.get("bomb_pot"))


def dealing_for(
    table: Table,
    now: datetime,
    rules: hooks.TableRules | None = None,
    latest: Hand | None | NotRead = NOT_READ,
) -> Dealing:
    """Who ``table``'s next hand deals in at ``now``, and the seats' changes with it.
    ``rules``: ``hooks.rules_for(table, now)``, when the caller has them already; ``latest``:
    the table's latest hand, voided or not (None: none yet), when the caller has read it
    (where the big blind was: not read again)."""
    seats = _seats_now(table)
    if (
        rules or hooks.rules_for(table, now)
    ).deal_sitting_out:  # a tournament's: every seat with chips
        return Dealing([s for s in seats if not s.leaving and s.stack > 0])
    sitting_in = [s for s in seats if not s.leaving and s.stack > 0 and not s.sitting_out]
    leaving_now = [s for s in sitting_in if s.sit_out_next == Seat.SitOutNext.HAND]
    sitting_in = [s for s in sitting_in if s not in leaving_now]
    wait_rule = table.missed_blinds == Table.MissedBlinds.WAIT

    def waits(seat: SeatNow) -> bool:
        return seat.waiting or (wait_rule and seat.owes == Seat.Owes.MISSED)

    active = [s for s in sitting_in if not waits(s)]
    dealing = Dealing([], sit_out=[s.pk for s in leaving_now])
    if (
        len(active) < 2
        or all(s.is_bot for s in active)  # the croupier deals no hand of bots alone
        or not _has_blinds(table.hand_config())
    ):
        # no game without them, or no blinds to wait for: everyone sitting in, owing nothing
        dealing.seats = sitting_in
        dealing.cleared = [s.pk for s in sitting_in if s.waiting or s.owes]
        return dealing
    while len(active) > 2:  # heads-up a player plays on rather than end the game
        big = big_blind_seat([s.number for s in active], table.button_seat)
        going = next((s for s in active if s.number == big), None)
        if going is None or going.sit_out_next != Seat.SitOutNext.BIG_BLIND:
            break
        active.remove(going)
        dealing.sit_out.append(going.pk)
    waiting = [s for s in sitting_in if waits(s)]
    away = [s for s in seats if s not in active and not s.leaving and not waits(s)]
    # only a seat that waits or sits out cares where the last big blind was (one read less)
    since = _last_big_blind(table, latest) if waiting or away else None
    reached = big_blind_seat([s.number for s in active], table.button_seat)
    joining = [s for s in waiting if _passed(s.number, since, reached)]
    dealing.seats = sorted(active + joining, key=lambda s: s.number)
    dealing.owes = {s.number: s.owes for s in active if s.owes}
    dealing.owes.update({s.number: Seat.Owes.BIG for s in joining})
    dealing.cleared = [s.pk for s in joining]
    dealt_big = big_blind_seat(dealing.numbers, table.button_seat)
    dealing.missed = [
        s.pk
        for s in away
        if _passed(s.number, since, dealt_big)  # the big blind went past, or it was theirs
        or big_blind_seat([*dealing.numbers, s.number], table.button_seat) == s.number
    ]
    return dealing


def posts_for(
    dealing: Dealing, button: int, settings: dict[str, Any]
) -> list[tuple[int, int, int]]:
    """The hand's posts besides the blinds, as ``HandConfig.posts`` takes them (seat index,
    dead, live), for the hand's ``settings`` with the button at index ``button``. A seat in a
    blind or a straddle owes nothing more; the seats that owed are marked settled."""
    count = len(dealing.seats)
    if not dealing.owes or not _has_blinds(settings):
        return []  # owed until a hand with blinds
    if count < 3:  # heads-up both seats are the blinds: that is all they post
        dealing.cleared += [s.pk for s in dealing.seats if s.number in dealing.owes]
        return []
    taken = {(button + 1) % count, (button + 2) % count}
    if settings.get("button_straddle"):
        taken.add(button)
    taken.update((button + 3 + k) % count for k in range(settings.get("straddles", 0)))
    posts = []
    for index, seat in enumerate(dealing.seats):
        owes = dealing.owes.get(seat.number)
        if not owes:
            continue
        dealing.cleared.append(seat.pk)
        if index not in taken:
            dead = settings["small_blind"] if owes == Seat.Owes.MISSED else 0
            posts.append((index, dead, settings["big_blind"]))
    return posts


def dealing_apply(dealing: Dealing, writes: Batch) -> None:
    """Write the seats' changes that come with the hand being dealt, with ``writes`` (the
    deal's, sent together)."""
    _seats_update(writes, dealing.sit_out, sitting_out=True, sit_out_next=Seat.SitOutNext.NO)
    _seats_update(writes, dealing.cleared, wait_for_big_blind=False, owes_blinds=Seat.Owes.NOTHING)
    _seats_update(writes, dealing.missed, owes_blinds=Seat.Owes.MISSED)


def _seats_update(writes: Batch, pks: list[int], **values: Any) -> None:
    """``Seat.objects.filter(pk__in=pks).update(**values)``, compiled (the ORM writes its SQL
    anew each time), added to ``writes``."""
    if pks:
        writes.add(statements.update_write(Seat, {"pk": list(dict.fromkeys(pks))}, **values))


def dealt_rows(dealing: Dealing) -> list[tuple[int, int, int, str]]:
    """The dealt seats as ``hand_start`` reads them: (number, player id, stack, name)."""
    return [(s.number, s.player_id, s.stack, s.name) for s in dealing.seats]
