"""The tournaments' pages: the lobby (``/tournaments/``), organising one (``new/``, with its
structure's preview, ``new/structure/``), editing one before its start (``<id>/edit/``), the
invite link (``join/<token>/``), a tournament's page with its standings (refreshed by htmx),
register / unregister / start / cancel / new invite link buttons, a final-table deal (propose,
accept or refuse), and the level banner of a tournament table.

Thin: every change is one service; a refusal is shown as a message (or on the form's field).
A private tournament is 404 for whoever may not see it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tables.http import AuthenticatedRequest
from tables.models import Player, Table
from tables.selectors.access import can_see_table
from tables.selectors.banners import banner_for
from tables.selectors.players import viewer_player
from tables.services.errors import ServiceError
from tables.services.players import player_get_or_create
from tables.tournaments.access import (
    can_run_tournament,
    can_see_tournament,
    tournaments_visible_to,
)
from tables.tournaments.errors import DealRefused
from tables.tournaments.forms import TournamentEditForm, TournamentForm
from tables.tournaments.models import Deal, Tournament
from tables.tournaments.overview import tournament_overview
from tables.tournaments.preview import structure_preview
from tables.tournaments.selectors import Comebacks, comebacks_for, tournament_list
from tables.tournaments.services import addons, deals, edit, organise, rebuys, setup

Status = Tournament.Status
#: Finished tournaments listed in the lobby (the newest).
FINISHED_SHOWN = 20


def _visible(request: HttpRequest, tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_related("organiser__user").filter(pk=tournament_id)
    found = tournament.first()
    if found is None or not can_see_tournament(found, request.user):
        raise Http404("No such tournament.")
    return found


def tournament_lobby(request: HttpRequest) -> HttpResponse:
    """``/tournaments/``: upcoming, running and finished tournaments the viewer may see."""
    rows = tournaments_visible_to(request.user, tournament_list())
    return render(
        request,
        "tournaments/lobby.html",
        {
            "upcoming": rows.filter(status=Status.REGISTERING).order_by("start_at", "-created_at"),
            "running": rows.filter(status=Status.RUNNING).order_by("-started_at"),
            "finished": rows.filter(status=Status.FINISHED).order_by("-finished_at")[
                :FINISHED_SHOWN
            ],
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def tournament_new(request: AuthenticatedRequest) -> HttpResponse:
    """``/tournaments/new/``: organise a tournament (any logged-in player)."""
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        tournament = form.organise(player_get_or_create(user=request.user))
        if tournament is not None:
            return redirect("tournaments:detail", tournament_id=tournament.pk)
    preview = structure_preview(request.POST)
    return render(request, "tournaments/new.html", {"form": form, "preview": preview})


@login_required
@require_http_methods(["GET", "POST"])
def tournament_edit(request: AuthenticatedRequest, tournament_id: int) -> HttpResponse:
    """``/tournaments/<id>/edit/``: the organise form holding the tournament's settings, for
    its organiser (or staff) until it starts; anyone else, or once it started, is sent back
    to its page with why (``services.edit`` refuses the same)."""
    tournament = _visible(request, tournament_id)
    refusal = edit.edit_refusal(tournament, request.user)
    if refusal is not None:
        messages.error(request, str(refusal))
        return redirect("tournaments:detail", tournament_id=tournament.pk)
    form = TournamentEditForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid() and form.save(request.user) is not None:
        messages.success(request, "The tournament's settings are saved.")
        return redirect("tournaments:detail", tournament_id=tournament.pk)
    preview = structure_preview(request.POST or form.initial)
    context = {"form": form, "preview": preview, "editing": tournament}
    return render(request, "tournaments/new.html", context)


@login_required
@require_GET
def tournament_structure(request: AuthenticatedRequest) -> HttpResponse:
    """``/tournaments/new/structure/``: the organise form's structure preview (htmx asks for
    it as a field changes, with the form's fields; ``tables.tournaments.preview``)."""
    return render(
        request,
        "tournaments/_structure_preview.html",
        {"preview": structure_preview(request.GET), "swap_previewed": True},
    )


def tournament_join(request: HttpRequest, token: str) -> HttpResponse:
    """``/tournaments/join/<token>/``: the invite link (logged out: log in, then back)."""
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?{urlencode({'next': request.path})}")
    player = player_get_or_create(user=request.user)
    try:
        tournament = organise.tournament_invite_join(token=token, player=player)
    except ServiceError:
        raise Http404(organise.NO_SUCH_INVITE) from None
    return redirect("tournaments:detail", tournament_id=tournament.pk)


def _context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    view = tournament_overview(tournament, request.user)
    invite = None
    if (
        tournament.private
        and tournament.invite_token
        and can_run_tournament(tournament, request.user)
    ):
        invite = request.build_absolute_uri(
            reverse("tournaments:join", kwargs={"token": tournament.invite_token})
        )
    return {"t": tournament, "view": view, "invite_url": invite}


def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """``/tournaments/<id>/``: structure, entrants with live chips and ranks, payouts, the
    tables to watch, results; the viewer's buttons."""
    return render(
        request, "tournaments/detail.html", _context(request, _visible(request, tournament_id))
    )


def tournament_standings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The page's live part (htmx polls it while the tournament is not finished)."""
    return render(
        request,
        "tournaments/_standings.html",
        _context(request, _visible(request, tournament_id)),
    )


ACTIONS: dict[str, tuple[Callable[[Tournament, Player, User], object], str]] = {
    "register": (
        lambda t, p, user: setup.tournament_register(tournament=t, player=p),
        "You are registered.",
    ),
    "unregister": (
        lambda t, p, user: setup.tournament_unregister(tournament=t, player=p),
        "You are unregistered; your entry fee is back in your bankroll.",
    ),
    "start": (
        lambda t, p, user: setup.tournament_start(tournament=t, by=p),
        "The tournament has started.",
    ),
    "cancel": (
        lambda t, p, user: organise.tournament_cancel(tournament=t, by=user),
        "The tournament is cancelled; every entry fee went back.",
    ),
    "rebuy": (
        lambda t, p, user: rebuys.tournament_rebuy(tournament=t, player=p),
        "Rebuy done: a starting stack is added to your chips.",
    ),
    "addon": (
        lambda t, p, user: addons.tournament_addon(tournament=t, player=p),
        "Add-on done: its chips are added to your stack.",
    ),
    "new-invite": (
        lambda t, p, user: organise.tournament_invite_replace(tournament=t, by=user),
        "Here is a new invite link: the old one no longer works.",
    ),
}


@login_required
@require_POST
def tournament_action(
    request: AuthenticatedRequest, tournament_id: int, action: str
) -> HttpResponse:
    """``POST /tournaments/<id>/<action>/``: register (a re-entry too), unregister, rebuy,
    addon, start, cancel, or a new invite link (``new-invite``, a private tournament's organiser).
    A form may send ``next`` (a path on this site) to come back to, e.g. the table page's
    *Rebuy* and *Add-on*."""
    if action not in ACTIONS:
        raise Http404("No such action.")
    tournament = _visible(request, tournament_id)
    run, done = ACTIONS[action]
    player = player_get_or_create(user=request.user)
    try:
        run(tournament, player, request.user)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, done)
    back = request.POST.get("next", "")
    if back and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        return redirect(back)
    return redirect("tournaments:detail", tournament_id=tournament.pk)


@login_required
@require_POST
def tournament_deal(request: AuthenticatedRequest, tournament_id: int) -> HttpResponse:
    """``POST /tournaments/<id>/deal/``: propose a final-table deal (``method``: icm or
    chip_chop; ``keep``: chips kept back for the winner, empty for none)."""
    tournament = _visible(request, tournament_id)
    player = player_get_or_create(user=request.user)
    keep_text = request.POST.get("keep", "").strip() or "0"
    try:
        if not keep_text.isdigit():
            raise DealRefused("The amount kept to play for is a whole number of chips, 0 or more.")
        deals.deal_propose(
            tournament=tournament,
            player=player,
            method=request.POST.get("method", Deal.Method.ICM),
            keep=int(keep_text),
        )
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, "Deal proposed: the others see each share and answer.")
    return redirect("tournaments:detail", tournament_id=tournament.pk)


@login_required
@require_POST
def tournament_deal_answer(request: AuthenticatedRequest, tournament_id: int) -> HttpResponse:
    """``POST /tournaments/<id>/deal/answer/``: ``accept`` (yes) or refuse (anything else)."""
    tournament = _visible(request, tournament_id)
    player = player_get_or_create(user=request.user)
    accept = request.POST.get("answer") == "accept"
    try:
        deal = deals.deal_answer(tournament=tournament, player=player, accept=accept)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        if not accept:
            messages.success(request, "You refused the deal: play goes on.")
        elif deal.status == Deal.Status.MADE:
            messages.success(request, "Everyone agreed: the deal is made and paid.")
        else:
            messages.success(request, "You agreed; waiting for the others.")
    return redirect("tournaments:detail", tournament_id=tournament.pk)


def table_level(request: HttpRequest, table_id: int) -> HttpResponse:
    """A tournament table's level banner (the table page polls it); empty for a cash table."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not can_see_table(table, request.user):
        raise Http404("No such table.")
    return render(request, "tournaments/_table_level.html", _table_level_context(request, table))


def _table_level_context(request: HttpRequest, table: Table) -> dict[str, Any]:
    """The banner, and whether the viewer may rebuy or take the add-on now (its buttons)."""
    banner = banner_for(table)
    player = viewer_player(request.user)
    tournament, deciding = None, False
    comebacks = Comebacks(False, False)
    if banner is not None and player is not None:
        tournament = Tournament.objects.get(pk=banner["id"])
        comebacks = comebacks_for(tournament, player.pk)
        deciding = tournament.paused_at is not None  # a deal is being decided
    return {
        "banner": banner,
        "may_rebuy": comebacks.rebuy,
        "rebuy_fee": tournament.entry_fee if tournament else 0,
        "may_addon": comebacks.addon,
        "addon_chips": tournament.addon_chips if tournament else 0,
        "addon_price": tournament.addon_price if tournament else 0,
        "table": table,
        "deal_deciding": deciding,
    }
