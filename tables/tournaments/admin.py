"""Django admin for tournaments: the list (filters by status and format), a tournament with
its entrants, tables and final-table deals read-only, and the actions start and cancel
through the services.

Read-only apart from organising and the actions: *Add* is the site's organise form (the same
``TournamentForm`` and service, the admin as organiser), and entrants, places and prizes move
only through the services (and the ledger).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse

from tables.admin_helpers import ReadOnlyAdminMixin, run_on_each
from tables.http import AuthenticatedRequest
from tables.services.players import player_get_or_create
from tables.tournaments.forms import TournamentForm
from tables.tournaments.models import Deal, Entry, Tournament, TournamentTable
from tables.tournaments.services import organise, setup


class _ReadOnlyInline(ReadOnlyAdminMixin, admin.TabularInline[Any, Tournament]):
    extra = 0
    can_delete = False


class EntryInline(_ReadOnlyInline):
    model = Entry
    fields = (
        "player",
        "fee_paid",
        "rebuys",
        "addon_taken",
        "reentries",
        "out_order",
        "out_chips",
        "place",
        "prize",
        "deal_share",
        "bounty",
        "bounties_won",
        "seat",
        "out_at",
    )
    readonly_fields = fields


class DealInline(_ReadOnlyInline):
    """Final-table deals: proposed, refused, lapsed or made (``services.deals``)."""

    model = Deal
    fk_name = "tournament"
    fields = (
        "status",
        "method",
        "keep",
        "proposed_by",
        "prizes",
        "offer",
        "agreed",
        "refused_by",
        "created_at",
        "decided_at",
    )
    readonly_fields = fields


class TournamentTableInline(_ReadOnlyInline):
    model = TournamentTable
    fields = ("number", "table", "broken_at")
    readonly_fields = fields


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin[Tournament]):
    list_display = (
        "name",
        "format",
        "status",
        "organiser",
        "private",
        "entry_fee",
        "bounties",
        "comebacks_and_breaks",
        "prize_pool",
        "created_at",
        "started_at",
        "finished_at",
    )
    list_filter = ("status", "format", "private", ("satellite_target", admin.EmptyFieldListFilter))
    search_fields = ("name", "organiser__user__username")
    inlines = [EntryInline, DealInline, TournamentTableInline]
    fieldsets = [
        (None, {"fields": ("name", "organiser", "format", "status", "private", "invite_token")}),
        (
            "Game and structure",
            {
                "fields": (
                    "game",
                    "betting",
                    "seats_per_table",
                    "max_entrants",
                    "entry_fee",
                    "bounty_kind",
                    "bounty",
                    "satellite_target",
                    "seat_value",
                    "starting_stack",
                    "structure",
                    "levels",
                    "hands",
                    "action_seconds",
                    "start",
                    "start_at",
                    "payouts",
                    "payout_percentages",
                )
            },
        ),
        (
            "Late registration, rebuys, re-entry and breaks",
            {
                "fields": (
                    "late_registration_levels",
                    "rebuy_levels",
                    "max_rebuys",
                    "addon_chips",
                    "addon_price",
                    "max_reentries",
                    "break_every_levels",
                    "break_minutes",
                )
            },
        ),
        (
            "Running",
            {
                "fields": (
                    "registration_open",
                    "rebuys_open",
                    "hands_dealt",
                    "hand_for_hand",
                    "paused_at",
                    "paused_for",
                    "prize_pool",
                    "created_at",
                    "started_at",
                    "finished_at",
                )
            },
        ),
    ]
    readonly_fields = ("created_at",)
    actions = ["start_tournaments", "cancel_tournaments"]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # The list and its actions only: a tournament's page here is read-only (every change
        # goes through the services: fees, seats and prizes move through the ledger).
        return obj is None and request.user.has_perm("tournaments.change_tournament")

    def add_view(
        self,
        request: HttpRequest,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        """Organise a tournament: the site's form, through the same service."""
        if not self.has_add_permission(request) or not request.user.is_authenticated:
            return redirect("admin:tournaments_tournament_changelist")
        form = TournamentForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            tournament = form.organise(player_get_or_create(user=request.user))
            if tournament is not None:
                self.message_user(request, f"{tournament} organised.", messages.SUCCESS)
                return redirect("admin:tournaments_tournament_changelist")
        context = {
            **self.admin_site.each_context(request),
            "title": "Organise a tournament",
            "opts": self.model._meta,
            "form": form,
            **(extra_context or {}),
        }
        return TemplateResponse(request, "admin/tournaments/tournament/organise.html", context)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # its entries hold the ledger's fees and prizes

    @admin.display(description="Bounty")
    def bounties(self, tournament: Tournament) -> str:
        if tournament.bounty_kind == Tournament.Bounty.NONE:
            return "–"
        return f"{tournament.bounty} ({tournament.get_bounty_kind_display()})"

    @admin.display(description="Rebuys / add-on / re-entry / breaks")
    def comebacks_and_breaks(self, tournament: Tournament) -> str:
        parts = []
        if tournament.rebuy_levels:
            parts.append(f"{tournament.max_rebuys} rebuy(s) in {tournament.rebuy_levels} lvl")
        if tournament.addon_chips:
            parts.append(f"add-on {tournament.addon_chips} for {tournament.addon_price}")
        if tournament.max_reentries:
            parts.append(f"{tournament.max_reentries} re-entry(ies)")
        if tournament.break_every_levels:
            parts.append(
                f"{tournament.break_minutes} min break / {tournament.break_every_levels} lvl"
            )
        return ", ".join(parts) or "freezeout"

    @admin.action(description="Start now (random seating)")
    def start_tournaments(
        self, request: AuthenticatedRequest, queryset: QuerySet[Tournament]
    ) -> None:
        by = player_get_or_create(user=request.user)
        run_on_each(
            self,
            request,
            queryset,
            lambda t: setup.tournament_start(tournament=t, by=by),
            "Tournaments started",
        )

    @admin.action(description="Cancel (before the start: every entry fee refunded)")
    def cancel_tournaments(
        self, request: AuthenticatedRequest, queryset: QuerySet[Tournament]
    ) -> None:
        run_on_each(
            self,
            request,
            queryset,
            lambda t: organise.tournament_cancel(tournament=t, by=request.user),
            "Tournaments cancelled",
        )
