"""``/clubs/...``: the clubs' pages. A player's clubs and a form to create one; a club's page
(members, pending approvals for its admins, running and scheduled games, recent events,
standings, the ledger of its nights); joining by the invitation link; the admins' forms.

Thin: each POST is one service of ``tables.clubs.services``; a refusal is shown on the page
and changes nothing. A non-member gets 404 for every club page but the invitation's.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.views.decorators.http import require_POST

from tables import ratelimit
from tables.clubs import selectors, services
from tables.clubs.access import membership_of
from tables.clubs.errors import BadInviteCode, InviteCodeRetired
from tables.clubs.models import Club, Membership
from tables.http import AuthenticatedRequest
from tables.models import Table
from tables.services.errors import ServiceError
from tables.services.players import player_get_or_create
from tables.text import LARGEST, NumberError, parse_optional_number, parse_whole_number
from tables.tournaments.forms import STRUCTURES

ADMIN_ROLES = (Membership.Role.OWNER, Membership.Role.ADMIN)


def _member_club(request: AuthenticatedRequest, club_id: int) -> tuple[Club, Membership]:
    player = player_get_or_create(user=request.user)
    club = selectors.club_for(club_id, player)
    member = membership_of(club, player) if club is not None else None
    if club is None or member is None:
        raise Http404("No such club.")
    return club, member


@login_required
def club_list(request: AuthenticatedRequest) -> HttpResponse:
    """``/clubs/``: your clubs; POST creates one (you own it)."""
    player = player_get_or_create(user=request.user)
    error = None
    if request.method == "POST":
        try:
            club = services.club_create(
                owner=player,
                name=request.POST.get("name", ""),
                description=request.POST.get("description", ""),
                needs_approval=request.POST.get("needs_approval") == "on",
            )
        except ServiceError as refused:
            error = str(refused)
        else:
            return redirect("clubs:detail", club_id=club.pk)
    return render(
        request,
        "clubs/list.html",
        {"clubs": selectors.clubs_of(player).order_by("name"), "error": error},
    )


def _page(
    request: AuthenticatedRequest, club: Club, member: Membership, error: str | None
) -> HttpResponse:
    admin = member.role in ADMIN_ROLES
    season = selectors.season_for(club, request.GET.get("season"), timezone.localdate())
    ledger = selectors.club_ledger(club)
    context: dict[str, Any] = {
        "club": club,
        "member": member,
        "admin": admin,
        "members": selectors.members(club, with_pending=admin),
        "tables": selectors.club_tables(club)[:20],
        "tournaments": selectors.club_tournaments(club)[:20],
        "scheduled": selectors.scheduled_games(club).prefetch_related("answers__player"),
        "events": selectors.recent_events(club),
        "season": season,
        "seasons": club.seasons.all(),
        "standings": selectors.standings(season) if season is not None else [],
        "ledger": ledger,
        "totals": sorted(
            ((ledger.names[pk], net) for pk, net in ledger.totals.items()), key=lambda r: -r[1]
        ),
        "invite_url": (
            request.build_absolute_uri(f"/clubs/{club.pk}/join/?code={club.invite_code}")
            if admin
            else None
        ),
        "error": error,
        "games": Table.GAME_CHOICES,
        "bettings": Table.Betting.choices,
        "structures": SCHEDULE_STRUCTURES,
    }
    return render(request, "clubs/detail.html", context, status=400 if error else 200)


def _act(
    request: AuthenticatedRequest,
    club: Club,
    member: Membership,
    service: Callable[[], object],
    then: HttpResponse | None = None,
) -> HttpResponse:
    """A member's or admin's POST: its one service, then ``then`` (the club's page by
    default); a refusal shows the club's page again with it (400), nothing changed."""
    try:
        service()
    except ServiceError as refused:
        return _page(request, club, member, str(refused))
    return then or redirect("clubs:detail", club_id=club.pk)


@login_required
def club_detail(request: AuthenticatedRequest, club_id: int) -> HttpResponse:
    club, member = _member_club(request, club_id)
    return _page(request, club, member, None)


@login_required
def club_join(request: AuthenticatedRequest, club_id: int) -> HttpResponse:
    """``/clubs/<id>/join/?code=...``: the invitation; POST joins (or asks to)."""
    player = player_get_or_create(user=request.user)
    code = request.POST.get("code") or request.GET.get("code") or ""
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        raise Http404("No such club.")
    error, status = None, None
    if request.method == "POST":
        wait = ratelimit.wrong_code_wait(request)
        if wait is not None:
            return ratelimit.wrong_code_refusal(request, wait)
        try:
            status = services.club_join(club=club, player=player, code=code).status
        except (BadInviteCode, InviteCodeRetired) as refused:
            ratelimit.wrong_code_counted(request)
            error = str(refused)
        except ServiceError as refused:
            error = str(refused)
        else:
            if status == Membership.Status.ACTIVE:
                return redirect("clubs:detail", club_id=club.pk)
    known = code == club.invite_code  # the club's name only for a valid invitation
    return render(
        request,
        "clubs/join.html",
        {
            "club": club if known else None,
            "club_id": club_id,
            "code": code,
            "error": error,
            "status": status,
        },
        status=400 if error else 200,
    )


@login_required
@require_POST
def club_member(
    request: AuthenticatedRequest, club_id: int, player_id: int, action: str
) -> HttpResponse:
    club, member = _member_club(request, club_id)
    return _act(
        request,
        club,
        member,
        lambda: services.club_member_update(
            club=club, by=member.player, player=player_id, action=action
        ),
    )


@login_required
@require_POST
def club_leave(request: AuthenticatedRequest, club_id: int) -> HttpResponse:
    club, member = _member_club(request, club_id)
    return _act(
        request,
        club,
        member,
        lambda: services.club_leave(club=club, player=member.player),
        then=redirect("clubs:list"),
    )


def _when(text: str) -> datetime | None:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    return timezone.make_aware(moment) if timezone.is_naive(moment) else moment


def _day(text: str) -> date | None:
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


#: The tournaments a club schedules from its page: every preset structure the tournament form
#: offers (custom levels are written on that form, not here).
SCHEDULE_STRUCTURES = [(value, label) for value, label in STRUCTURES if value != "custom"]
#: A scheduled cash game's numbers on the page (field -> its name in an error).
CASH_NUMBERS = {
    "small_blind": "The small blind",
    "big_blind": "The big blind",
    "max_seats": "Seats",
    "min_buy_in": "The smallest buy-in",
    "max_buy_in": "The largest buy-in",
}


@login_required
@require_POST
def club_schedule(request: AuthenticatedRequest, club_id: int) -> HttpResponse:
    """An admin schedules a game (``starts_at``: the local date and time)."""
    club, member = _member_club(request, club_id)
    starts_at = _when(request.POST.get("starts_at", ""))
    if starts_at is None:
        return _page(request, club, member, "Give the start as a date and time.")
    kind = request.POST.get("kind", "")
    settings: dict[str, Any] = {}
    if kind == "tournament":
        structure = request.POST.get("structure", "regular")
        presets = [value for value, _ in SCHEDULE_STRUCTURES]
        settings["structure_name"] = structure if structure in presets else "regular"
        try:
            bots = parse_optional_number(request.POST.get("bot_entrants"), what="Bots")
            hands = parse_optional_number(request.POST.get("hands"), what="Hands")
            big_blinds = parse_optional_number(
                request.POST.get("starting_big_blinds"), what="The starting stack in big blinds"
            )
        except NumberError as error:
            return _page(request, club, member, str(error))
        settings["bot_entrants"] = bots or 0
        if big_blinds is not None:
            settings["starting_big_blinds"] = big_blinds
        if hands:
            settings.update(format="fixed-hands", hands=hands)
    elif kind == "cash":
        try:
            stakes = {
                name: parse_optional_number(request.POST.get(name), what=what, minimum=1)
                for name, what in CASH_NUMBERS.items()
            }
        except NumberError as error:
            return _page(request, club, member, str(error))
        settings.update({name: value for name, value in stakes.items() if value is not None})
        for name in ("game", "betting"):
            if request.POST.get(name):
                settings[name] = request.POST[name]
    return _act(
        request,
        club,
        member,
        lambda: services.club_schedule(
            club=club,
            by=member.player,
            kind=kind,
            name=request.POST.get("name", ""),
            starts_at=starts_at,
            settings=settings,
        ),
    )


def _number_or_text(cell: str) -> int | str:
    """A points-table cell: a whole number, or the text as typed (the service refuses it)."""
    try:
        return parse_whole_number(cell, what="points", minimum=-LARGEST)
    except NumberError:
        return cell


@login_required
@require_POST
def club_season(request: AuthenticatedRequest, club_id: int) -> HttpResponse:
    """An admin opens a season (``points_table``: points by place, comma-separated)."""
    club, member = _member_club(request, club_id)
    starts_on, ends_on = (
        _day(request.POST.get("starts_on", "")),
        _day(request.POST.get("ends_on", "")),
    )
    if starts_on is None or ends_on is None:
        return _page(request, club, member, "Give the season's first and last days.")
    cells = [
        cell.strip() for cell in request.POST.get("points_table", "").split(",") if cell.strip()
    ]
    table: list[Any] = [_number_or_text(cell) for cell in cells]
    return _act(
        request,
        club,
        member,
        lambda: services.season_open(
            club=club,
            by=member.player,
            name=request.POST.get("name", ""),
            starts_on=starts_on,
            ends_on=ends_on,
            rule=request.POST.get("rule", "sqrt"),
            points_table=table,
        ),
    )


@login_required
@require_POST
def club_invite_reset(request: AuthenticatedRequest, club_id: int) -> HttpResponse:
    """An admin replaces the invitation code (the old one is refused from now on)."""
    club, member = _member_club(request, club_id)
    return _act(
        request,
        club,
        member,
        lambda: services.club_invite_reset(club=club, by=member.player),
    )


@login_required
@require_POST
def club_attend(request: AuthenticatedRequest, club_id: int, game_id: int) -> HttpResponse:
    """A member says they are in (``going=1``) or out of a scheduled game."""
    club, member = _member_club(request, club_id)
    if not club.scheduled.filter(pk=game_id).exists():
        raise Http404("No such game.")
    return _act(
        request,
        club,
        member,
        lambda: services.club_attend(
            game=game_id, player=member.player, going=request.POST.get("going") == "1"
        ),
    )


@login_required
@require_POST
def club_season_close(request: AuthenticatedRequest, club_id: int, season_id: int) -> HttpResponse:
    club, member = _member_club(request, club_id)
    if not club.seasons.filter(pk=season_id).exists():
        raise Http404("No such season.")
    return _act(
        request,
        club,
        member,
        lambda: services.season_close(season=season_id, by=member.player),
    )


urlpatterns = [
    path("<int:club_id>/invite/reset/", club_invite_reset, name="invite-reset"),
    path("<int:club_id>/games/<int:game_id>/attend/", club_attend, name="attend"),
    path("<int:club_id>/seasons/<int:season_id>/close/", club_season_close, name="season-close"),
    path("", club_list, name="list"),
    path("<int:club_id>/", club_detail, name="detail"),
    path("<int:club_id>/join/", club_join, name="join"),
    path("<int:club_id>/leave/", club_leave, name="leave"),
    path("<int:club_id>/schedule/", club_schedule, name="schedule"),
    path("<int:club_id>/seasons/", club_season, name="seasons"),
    path("<int:club_id>/members/<int:player_id>/<str:action>/", club_member, name="member"),
]
