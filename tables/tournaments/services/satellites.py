"""Satellites: a tournament whose prizes are seats (paid entries) in a target tournament.

- Seats: as many as the prize pool holds the target's entry fee (``Tournament.seat_value``,
  kept when the satellite is organised); the remainder of the pool is paid in chips to the
  next place, the first without a seat (``structure.prize_table``).
- The satellite ends as soon as the players left are no more than the seats (and nobody out
  can come back): each of them has won one.
- A seat won registers its winner in the target, the entry fee paid from the satellite's
  pool, not from their bankroll (a target that starts when full starts once its seats fill
  it). When it cannot (the winner is registered there already,
  the target started, was cancelled or is full), the seat's value is paid in chips through
  the ledger instead. Players tied across the last seat share those places' value in chips.
- Money: the seat's value counts in the entry's ``prize`` either way, so satellite fees ==
  seats × target fee + the remainder (+ bounties) once finished, and the play chips stay
  whole (the value leaves this pool for the target's).

Callers hold the satellite's row lock; the target's row is locked after it (a target never
locks its satellites).
"""

from __future__ import annotations

from tables.models import LedgerEntry, Player
from tables.services.players import ledger_record
from tables.tournaments.access import can_see_tournament
from tables.tournaments.errors import TournamentInvalid
from tables.tournaments.models import Entry, Tournament

Format, Status = Tournament.Format, Tournament.Status


def satellite_target_check(
    target: object, *, organiser: Player | None, entry_fee: int, format: str
) -> Tournament | None:
    """The target a satellite may be organised for (``TournamentInvalid`` names the field):
    one the organiser may see, that takes entries and has not started, with an entry fee;
    the satellite has an entry fee of its own and is not a fixed-hands game (bots join)."""
    if target is None:
        return None
    if isinstance(target, bool) or not isinstance(target, int | Tournament):
        raise TournamentInvalid("satellite_target", "satellite_target is a tournament's id.")
    pk = target.pk if isinstance(target, Tournament) else target
    found = Tournament.objects.filter(pk=pk).first()
    viewer = organiser.user if organiser is not None else None
    hidden = found is not None and viewer is not None and not can_see_tournament(found, viewer)
    if found is None or hidden:
        raise TournamentInvalid("satellite_target", f"No tournament {pk} to win seats in.")
    if found.status != Status.REGISTERING or not found.registration_open:
        raise TournamentInvalid(
            "satellite_target",
            f"{found.name} does not take entries: a satellite's target has not started.",
        )
    if not found.entry_fee:
        raise TournamentInvalid(
            "satellite_target", f"{found.name} is a freeroll: a seat in it is worth nothing."
        )
    if not entry_fee:
        raise TournamentInvalid(
            "entry_fee", "A satellite's seats are paid from its entry fees: set entry_fee."
        )
    if format == Format.FIXED_HANDS:
        raise TournamentInvalid("satellite_target", "A fixed-hands game is not a satellite.")
    return found


def satellite_over(tournament: Tournament, players_left: int) -> bool:
    """Every player left has won a seat (nobody out can come back): the satellite ends."""
    return (
        tournament.is_satellite
        and not tournament.places_open
        and 1 <= players_left <= tournament.seats
    )


def seat_award(tournament: Tournament, entry: Entry, value: int) -> None:
    """``entry`` won a seat worth ``value`` (the target's entry fee): registered in the target,
    paid from this pool; else the value in chips (see the module docstring). The caller adds
    ``value`` to ``entry.prize`` and saves it."""
    target = (
        Tournament.objects.select_for_update()
        .filter(pk=tournament.satellite_target_id or 0)
        .first()
    )
    why = _seat_refusal(target, entry.player)
    if target is not None and not why:
        _seat_register(target, entry.player)
        entry.seat = Entry.Seat.REGISTERED
        return
    entry.seat = Entry.Seat.CHIPS
    ledger_record(
        player=entry.player,
        amount=value,
        kind=LedgerEntry.Kind.TOURNAMENT_PRIZE,
        reason=f"Seat won in {tournament.name}, paid in chips ({why})",
    )


def _seat_refusal(target: Tournament | None, player: Player) -> str:
    if target is None:
        return "the target is gone"
    if target.status != Status.REGISTERING or not target.registration_open:
        return f"{target.name} has started or was cancelled"
    if target.entries.filter(player=player).exists():
        return f"already registered in {target.name}"
    if target.max_entrants and target.entries.count() >= target.max_entrants:
        return f"{target.name} is full"
    return ""


def _seat_register(target: Tournament, player: Player) -> None:
    """Enter ``player`` in ``target`` with the fee paid by the satellite's pool (no ledger row:
    the chips go from one pool to the other)."""
    target.prize_pool += target.prize_part
    Tournament.objects.filter(pk=target.pk).update(prize_pool=target.prize_pool)
    Entry.objects.create(
        tournament=target, player=player, fee_paid=target.entry_fee, bounty=target.bounty
    )


def target_to_start(tournament: Tournament) -> Tournament | None:
    """The finished satellite's target, when its seats filled it and it starts when full
    (``services.play`` starts it: this module does not import ``setup``)."""
    target = tournament.satellite_target if tournament.is_satellite else None
    if (
        target is None
        or target.status != Status.REGISTERING
        or target.start != Tournament.Start.WHEN_FULL
    ):
        return None
    return target if target.entries.count() == target.max_entrants else None
