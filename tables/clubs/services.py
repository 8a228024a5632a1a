"""The clubs' writers: clubs and their members, their games, their seasons.

Each refusal is a ``ServiceError`` with a stable code, raised before anything is written; every
change is logged as a ``ClubEvent`` in the same transaction.
"""

from __future__ import annotations

import secrets
from datetime import date, datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from engine.text import plain_text
from tables.clubs import points
from tables.clubs.access import ACTIVE, ADMIN_ROLES, membership_of
from tables.clubs.errors import (
    BadInviteCode,
    ClubInvalid,
    InviteCodeRetired,
    NoSuchClub,
    NotAMember,
    NotClubAdmin,
    OwnerStays,
    RemovedFromClub,
    ScheduleInPast,
    SeasonOverlaps,
)
from tables.clubs.models import (
    Attendance,
    Club,
    ClubEvent,
    ClubTable,
    ClubTournament,
    Membership,
    RetiredInviteCode,
    ScheduledGame,
    Season,
)
from tables.models import Player, SeatRequest, Table
from tables.names import name_problem, same_name
from tables.services import hosting
from tables.services.seat_requests import seat_request_cancel
from tables.tournaments.models import Tournament
from tables.tournaments.services.organise import tournament_organise

Role, Status = Membership.Role, Membership.Status


def _event(club: Club, kind: str, actor: Player | None, **detail: Any) -> None:
    ClubEvent.objects.create(club=club, kind=kind, actor=actor, detail=detail)


def _new_code() -> str:
    return secrets.token_urlsafe(9)


def _name(value: object, what: str) -> str:
    name = value.strip() if isinstance(value, str) else ""
    if not name or len(name) > 60:
        raise ClubInvalid("name", f"Give the {what} a name (1 to 60 characters).")
    refused = name_problem(name, f"The {what}'s name")
    if refused:
        raise ClubInvalid("name", refused)
    return name


def _club_locked(club: Club | int) -> Club:
    pk = club.pk if isinstance(club, Club) else club
    found = Club.objects.select_for_update().filter(pk=pk).first()
    if found is None:
        raise NoSuchClub("There is no such club.")
    return found


def _admin(club: Club, by: Player) -> Membership:
    found = membership_of(club, by)
    if found is None or found.status != ACTIVE or found.role not in ADMIN_ROLES:
        raise NotClubAdmin("Only the club's owner or admins may do this.")
    return found


def club_create(
    *, owner: Player, name: str, description: str = "", needs_approval: bool = True
) -> Club:
    """A new club owned by ``owner`` (its first member), with a fresh invitation code."""
    name = _name(name, "club")
    if not isinstance(description, str) or len(description) > 2000:
        raise ClubInvalid("description", "The description is text of at most 2000 characters.")
    # stored clean: an escape, a bidi override or a zero-width space would act on the reader
    description = plain_text(description, keep_lines=True).strip()
    # by the names' skeleton: "Thursday Club" and "THURSDAY  CLUB" + an invisible filler are one
    if same_name(name, Club.objects.values_list("name", flat=True).iterator()):
        raise ClubInvalid("name", "A club has that name already: pick another.")
    with transaction.atomic():
        club = Club.objects.create(
            name=name,
            description=description,
            owner=owner,
            invite_code=_new_code(),
            needs_approval=bool(needs_approval),
        )
        Membership.objects.create(club=club, player=owner, role=Role.OWNER, status=ACTIVE)
        _event(club, "club_created", owner, name=name)
        return club


def club_invite_reset(*, club: Club | int, by: Player) -> Club:
    """A new invitation code; the old one is retired for good (``InviteCodeRetired``)."""
    with transaction.atomic():
        club = _club_locked(club)
        _admin(club, by)
        RetiredInviteCode.objects.create(club=club, code=club.invite_code)
        club.invite_code = _new_code()
        club.save(update_fields=["invite_code"])
        _event(club, "invite_reset", by)
        return club


def club_join(*, club: Club | int, player: Player, code: object) -> Membership:
    """``player`` joins with the invitation ``code``: a member at once, or awaiting an admin's
    approval when the club asks for it. A removed member is refused."""
    with transaction.atomic():
        club = _club_locked(club)
        if not isinstance(code, str) or code != club.invite_code:
            if (
                isinstance(code, str)
                and RetiredInviteCode.objects.filter(club=club, code=code).exists()
            ):
                raise InviteCodeRetired("That invitation code was reset: ask for the new one.")
            raise BadInviteCode("That invitation code is wrong.")
        found = membership_of(club, player)
        if found is not None and found.status == Status.REMOVED:
            raise RemovedFromClub("You were removed from this club and cannot join again.")
        if found is not None and found.status in (ACTIVE, Status.PENDING):
            return found
        status = Status.PENDING if club.needs_approval else ACTIVE
        if found is None:
            found = Membership.objects.create(club=club, player=player, status=status)
        else:  # left before, joins again
            found.status, found.role = status, Role.MEMBER
            found.save(update_fields=["status", "role"])
        _event(club, "member_joined" if status == ACTIVE else "join_requested", player)
        return found


def _member_locked(club: Club, player: Player | int) -> Membership:
    pk = player.pk if isinstance(player, Player) else player
    found = Membership.objects.select_for_update().filter(club=club, player_id=pk).first()
    if found is None:
        raise NotAMember("That player is not in this club.")
    return found


def club_member_update(
    *, club: Club | int, by: Player, player: Player | int, action: str
) -> Membership:
    """An admin's ``action`` on a member: ``approve``, ``promote``, ``demote`` or ``remove``.
    Only the owner promotes or demotes; nobody removes or demotes the owner."""
    with transaction.atomic():
        club = _club_locked(club)
        acting = _admin(club, by)
        member = _member_locked(club, player)
        if member.role == Role.OWNER and action in ("remove", "demote"):
            raise OwnerStays("The owner cannot be removed or demoted.")
        if action == "approve":
            if member.status != Status.PENDING:
                raise NotAMember("That player is not awaiting approval.")
            member.status = ACTIVE
        elif action in ("promote", "demote"):
            if acting.role != Role.OWNER:
                raise NotClubAdmin("Only the owner names or unnames admins.")
            if member.status != ACTIVE:
                raise NotAMember("Only an active member can be an admin.")
            member.role = Role.ADMIN if action == "promote" else Role.MEMBER
        elif action == "remove":
            if member.status == Status.REMOVED:
                raise NotAMember("That player was removed already.")
            member.status = Status.REMOVED
            _seat_requests_withdrawn(club, member.player)
        else:
            raise ClubInvalid("action", "The action is one of: approve, promote, demote, remove.")
        member.save(update_fields=["status", "role"])
        _event(club, f"member_{action.rstrip('e')}ed", by, player=member.player_id)
        return member


def club_leave(*, club: Club | int, player: Player) -> Membership:
    """``player`` leaves the club (the owner cannot: their club would have nobody in charge)."""
    with transaction.atomic():
        club = _club_locked(club)
        member = _member_locked(club, player)
        if member.role == Role.OWNER:
            raise OwnerStays("The owner cannot leave their own club.")
        if member.status != ACTIVE:
            raise NotAMember("You are not a member of this club.")
        member.status, member.role = Status.LEFT, Role.MEMBER
        _seat_requests_withdrawn(club, member.player)
        member.save(update_fields=["status", "role"])
        _event(club, "member_left", player)
        return member


def _seat_requests_withdrawn(club: Club, player: Player) -> None:
    """Someone out of the club (removed, or gone) waits for no seat at its games: their
    pending requests are cancelled, or the host could still seat them by approving one.
    Caller holds the club row lock (then each table's, in the core's order)."""
    waiting = SeatRequest.objects.filter(
        table__club_link__club=club, player=player, status=SeatRequest.Status.PENDING
    ).values_list("table_id", flat=True)
    for table_id in sorted(set(waiting)):
        seat_request_cancel(table=table_id, player=player)


def club_table_create(*, club: Club | int, by: Player, **fields: Any) -> Table:
    """A cash game hosted by ``by`` for the club (private: its members see it)."""
    club_pk = club.pk if isinstance(club, Club) else club
    with transaction.atomic():
        locked = _club_locked(club_pk)
        if not _active_member(locked, by):
            raise NoSuchClub("There is no such club.")
        table = hosting.table_create(host=by, **{**fields, "private": True})
        ClubTable.objects.create(club=locked, table=table)
        _event(locked, "table_opened", by, table=table.pk)
        return table


def club_tournament_create(*, club: Club | int, by: Player, **fields: Any) -> Tournament:
    """A tournament organised by ``by`` for the club (private: its members see it)."""
    club_pk = club.pk if isinstance(club, Club) else club
    with transaction.atomic():
        locked = _club_locked(club_pk)
        if not _active_member(locked, by):
            raise NoSuchClub("There is no such club.")
        tournament = tournament_organise(organiser=by, **{**fields, "private": True})
        ClubTournament.objects.create(club=locked, tournament=tournament)
        _event(locked, "tournament_created", by, tournament=tournament.pk)
        return tournament


def _active_member(club: Club, player: Player) -> bool:
    found = membership_of(club, player)
    return found is not None and found.status == ACTIVE


def club_schedule(
    *,
    club: Club | int,
    by: Player,
    kind: str,
    name: str,
    starts_at: datetime,
    settings: dict[str, Any] | None = None,
    now: datetime | None = None,
) -> ScheduledGame:
    """An admin schedules a game. A tournament is made now and starts itself at ``starts_at``
    (the tournaments' own timed start); a cash game's table is opened by the croupier's pass
    at that time (``tables.clubs.schedule``). The time is stored, so a restart keeps it."""
    now = now or timezone.now()
    name = _name(name, "game")
    if kind not in ScheduledGame.Kind.values:
        raise ClubInvalid("kind", "The kind is one of: cash, tournament.")
    if not isinstance(starts_at, datetime) or timezone.is_naive(starts_at):
        raise ClubInvalid("starts_at", "Give the start as a date and time with its time zone.")
    if starts_at <= now:
        raise ScheduleInPast("That time is already past: schedule the game ahead.")
    settings = dict(settings or {})
    if kind == ScheduledGame.Kind.CASH:  # its table opens later: its settings are checked now
        hosting.game_settings_check(**{**settings, "name": name})
    with transaction.atomic():
        locked = _club_locked(club)
        _admin(locked, by)
        game = ScheduledGame(
            club=locked, kind=kind, name=name, starts_at=starts_at, settings=settings, created_by=by
        )
        if kind == ScheduledGame.Kind.TOURNAMENT:
            game.tournament = club_tournament_create(
                club=locked,
                by=by,
                **{**settings, "name": name, "start": "time", "start_at": starts_at},
            )
        game.save()
        _event(locked, "game_scheduled", by, game=game.pk, game_kind=kind, at=starts_at.isoformat())
        return game


def club_attend(*, game: ScheduledGame | int, player: Player, going: bool) -> Attendance:
    """A member says they are in or out of a scheduled game."""
    pk = game.pk if isinstance(game, ScheduledGame) else game
    found = ScheduledGame.objects.filter(pk=pk).first()
    if found is None or not _active_member(found.club, player):
        raise NoSuchClub("There is no such game.")
    answer, _ = Attendance.objects.update_or_create(
        game=found, player=player, defaults={"going": bool(going)}
    )
    return answer


def season_open(
    *,
    club: Club | int,
    by: Player,
    name: str,
    starts_on: date,
    ends_on: date,
    rule: str = Season.Rule.SQRT,
    points_table: list[int] | None = None,
) -> Season:
    """An admin opens a season: its dates (not overlapping another of the club's) and its points
    rule (``points.check`` refuses a fixed table that does not add up)."""
    name = _name(name, "season")
    if not isinstance(starts_on, date) or not isinstance(ends_on, date) or ends_on < starts_on:
        raise ClubInvalid("ends_on", "A season ends on or after the day it starts.")
    table = points.check(rule, points_table)
    with transaction.atomic():
        locked = _club_locked(club)
        _admin(locked, by)
        if Season.objects.filter(
            club=locked, starts_on__lte=ends_on, ends_on__gte=starts_on
        ).exists():
            raise SeasonOverlaps("Those dates overlap another season of the club.")
        season = Season.objects.create(
            club=locked,
            name=name,
            starts_on=starts_on,
            ends_on=ends_on,
            rule=rule,
            points_table=table,
        )
        _event(locked, "season_opened", by, season=season.pk)
        return season


def season_close(*, season: Season | int, by: Player) -> Season:
    pk = season.pk if isinstance(season, Season) else season
    with transaction.atomic():
        found = Season.objects.select_for_update().filter(pk=pk).first()
        if found is None:
            raise NoSuchClub("There is no such season.")
        _admin(found.club, by)
        found.closed = True
        found.save(update_fields=["closed"])
        _event(found.club, "season_closed", by, season=found.pk)
        return found
