"""Django admin: run tables, grant chips, remove players, read hands.

Every change goes through ``tables.services`` (locks, ledger, version bump). Hands and
actions are read-only, and a hand still being played never shows its deck, seed or result
(hole cards) anywhere in admin: those appear once it is finished. The deck and the seed are
not fields of ``Hand`` (they are its ``HandSecret``, which has no admin and no relation from
``Hand``), so no list filter, ordering or search can ask about them; a hand that is over shows
them as computed read-only values.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.admin import helpers
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.timezone import localtime

from engine.cards import Card
from tables import services
from tables.admin_helpers import ReadOnlyAdminMixin, report, run_on_each
from tables.models import Hand, HandAction, LedgerEntry, Player, Seat, Table
from tables.selectors.hands import hand_secret

HIDDEN = "hidden until the hand is over"


# --- Tables and seats ------------------------------------------------------------------------
class SeatInline(ReadOnlyAdminMixin, admin.TabularInline[Seat, Table]):
    model = Seat
    fields = ("number_shown", "player", "stack", "sitting_out", "leave_after_hand", "joined_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    @admin.display(description="seat")
    def number_shown(self, seat: Seat) -> int:
        return seat.number + 1


@admin.register(Table)
class TableAdmin(admin.ModelAdmin[Table]):
    list_display = (
        "name",
        "variant",
        "stakes",
        "buy_in_range",
        "seats_taken",
        "max_seats",
        "status",
        "bots_allowed",
        "bot_seats",
        "version",
    )
    list_filter = ("status", "game", "betting")
    search_fields = ("name",)
    readonly_fields = (
        "status",
        "version",
        "button_seat",
        "action_deadline",
        "next_hand_at",
        "created_at",
    )
    fieldsets = (
        (None, {"fields": ("name", "status")}),
        (
            "Game and stakes (changes apply from the next hand)",
            {
                "fields": (
                    "game",
                    "betting",
                    ("small_blind", "big_blind"),
                    ("ante", "ante_mode"),
                    ("straddle", "straddles", "button_straddle"),
                ),
                "description": "Stud, stud hi-lo and razz have no blinds or straddles "
                "(their blinds are set to 0): they take an ante, a bring-in and a small bet.",
            },
        ),
        (
            "Fixed limit and stud games",
            {"fields": (("small_bet", "big_bet"), "bring_in")},
        ),
        (
            "All-in run-outs and bomb pots",
            {
                "fields": (
                    "run_it_twice",
                    ("bomb_pot_ante", "bomb_pot_every", "bomb_pot_next", "bomb_pot_double_board"),
                )
            },
        ),
        ("Seats and buy-in", {"fields": ("max_seats", ("min_buy_in", "max_buy_in"))}),
        (
            "Clock and bots",
            {
                "fields": (("action_seconds", "time_bank_seconds"), ("bots_allowed", "bot_seats")),
            },
        ),
        (
            "Live state",
            {
                "classes": ("collapse",),
                "fields": (
                    "version",
                    "button_seat",
                    "action_deadline",
                    "next_hand_at",
                    "created_at",
                ),
            },
        ),
    )
    inlines = [SeatInline]
    actions = ["pause_tables", "resume_tables", "close_tables"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Table]:
        return super().get_queryset(request).annotate(_seats_taken=Count("seats"))

    @admin.display(description="seats taken", ordering="_seats_taken")
    def seats_taken(self, table: Table) -> int:
        return int(table._seats_taken)  # type: ignore[attr-defined]  # get_queryset's annotation

    @admin.display(description="buy-in")
    def buy_in_range(self, table: Table) -> str:
        return f"{table.effective_min_buy_in}–{table.effective_max_buy_in}"

    def save_model(self, request: HttpRequest, obj: Table, form: Any, change: bool) -> None:
        services.table_save(table=obj)

    def _each(
        self,
        request: HttpRequest,
        queryset: QuerySet[Table],
        service: Callable[..., Any],
        what: str,
    ) -> None:
        run_on_each(self, request, queryset, lambda table: service(table=table), what)

    @admin.action(description="Pause (the current hand finishes, no new hands)")
    def pause_tables(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        self._each(request, queryset, services.table_pause, "Tables paused")

    @admin.action(description="Open again")
    def resume_tables(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        self._each(request, queryset, services.table_resume, "Tables opened")

    @admin.action(description="Close (cash everyone out; a running hand is voided)")
    def close_tables(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        self._each(request, queryset, services.table_close, "Tables closed")


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[Seat]):
    list_display = ("table", "seat_shown", "player", "stack", "sitting_out", "leave_after_hand")
    list_filter = ("table",)
    search_fields = ("player__user__username", "table__name")
    actions = ["remove_players"]

    @admin.display(description="seat", ordering="number")
    def seat_shown(self, seat: Seat) -> int:
        return seat.number + 1

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Needed for admin actions to show; the change form itself stays read-only.
        return obj is None and request.user.has_perm("tables.change_seat")

    @admin.action(description="Remove from the table (chips back to the bankroll)")
    def remove_players(self, request: HttpRequest, queryset: QuerySet[Seat]) -> None:
        done, errors = 0, []
        for seat in queryset.select_related("table", "player__user"):
            try:
                if services.table_remove_player(table=seat.table, player=seat.player):
                    done += 1
                else:
                    errors.append(
                        f"{seat.player} is in the hand being played at {seat.table}: sat out, "
                        "and cashed out when the hand ends."
                    )
            except services.ServiceError as error:
                errors.append(str(error))
        report(self, request, done, errors, "Players removed")


# --- Players and the ledger ---------------------------------------------------------------
class GrantForm(forms.Form):
    amount = forms.IntegerField(min_value=1, max_value=10**9, help_text="Play chips to add.")
    reason = forms.CharField(max_length=200, help_text="Goes in each player's ledger.")


class LedgerInline(ReadOnlyAdminMixin, admin.TabularInline[LedgerEntry, Player]):
    model = LedgerEntry
    fields = ("created_at", "kind", "amount", "balance_after", "reason", "table")
    readonly_fields = fields
    extra = 0
    ordering = ("-created_at", "-id")
    max_num = 0


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = ("name", "bankroll", "is_bot", "bot_account", "created_at")
    list_filter = ("is_bot", "bot_account")
    search_fields = ("user__username",)
    readonly_fields = ("user", "bankroll", "is_bot", "bot_account", "created_at")
    inlines = [LedgerInline]
    actions = ["grant_chips", "mark_bot_accounts", "unmark_bot_accounts"]

    @admin.action(description="Mark as bot accounts (a bot badge)")
    def mark_bot_accounts(self, request: HttpRequest, queryset: QuerySet[Player]) -> None:
        for player in queryset:
            services.player_mark_bot(player=player, bot_account=True)
        self.message_user(request, f"{queryset.count()} marked as bot accounts.")

    @admin.action(description="Unmark as bot accounts")
    def unmark_bot_accounts(self, request: HttpRequest, queryset: QuerySet[Player]) -> None:
        for player in queryset:
            services.player_mark_bot(player=player, bot_account=False)
        self.message_user(request, f"{queryset.count()} no longer marked as bot accounts.")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # players are created by sign-up (with their starting grant)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.action(description="Grant play chips (with a reason)")
    def grant_chips(
        self, request: HttpRequest, queryset: QuerySet[Player]
    ) -> TemplateResponse | None:
        form = GrantForm(request.POST if "apply" in request.POST else None)
        if form.is_bound and form.is_valid():
            chips, reason = form.cleaned_data["amount"], form.cleaned_data["reason"]
            run_on_each(
                self,
                request,
                queryset,
                lambda player: services.player_grant(player=player, amount=chips, reason=reason),
                f"Granted {chips} chips",
            )
            return None
        return TemplateResponse(
            request,
            "admin/tables/player/grant.html",
            {
                **self.admin_site.each_context(request),
                "title": "Grant play chips",
                "opts": self.model._meta,
                "form": form,
                "players": queryset,
                "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            },
        )


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[LedgerEntry]):
    list_display = ("created_at", "player", "kind", "amount", "balance_after", "table", "reason")
    list_filter = ("kind",)
    search_fields = ("player__user__username", "reason")
    list_select_related = ("player__user", "table")


# --- Hands (read-only; secrets only once finished) --------------------------------------------
class HandActionInline(ReadOnlyAdminMixin, admin.TabularInline[HandAction, Hand]):
    model = HandAction
    fields = ("index", "seat", "kind", "amount", "source", "created_at")
    readonly_fields = fields
    extra = 0
    max_num = 0


def _short_time(moment: datetime | None) -> str:
    return date_format(localtime(moment), "Y-m-d H:i:s") if moment else "–"


@admin.register(Hand)
class HandAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[Hand]):
    # Short columns that stay on one line: the hand as "#45" (the table has its own column),
    # the times without the seconds' fraction and the time zone's words.
    list_display = ("hand", "table", "status", "pot", "started", "finished")
    list_display_links = ("hand",)
    list_filter = ("status", "table")
    list_select_related = ("table",)
    # The result is never listed raw, nor the seed and deck: only the *_shown methods, which
    # hide them while the hand is in play (running, or its run-out still on its way).
    fields = (
        "table",
        "number",
        "status",
        "config",
        "seats",
        "button_seat",
        "commitment",
        "seed_shown",
        "deck_shown",
        "result_shown",
        "pot",
        "started_at",
        "finished_at",
    )
    readonly_fields = fields
    inlines = [HandActionInline]

    class Media:
        css = {"all": ("css/admin.css",)}

    @admin.display(description="hand", ordering="number")
    def hand(self, hand: Hand) -> str:
        return f"#{hand.number}"

    @admin.display(description="started", ordering="started_at")
    def started(self, hand: Hand) -> str:
        return _short_time(hand.started_at)

    @admin.display(description="finished", ordering="finished_at")
    def finished(self, hand: Hand) -> str:
        return _short_time(hand.finished_at)

    @admin.display(description="seed")
    def seed_shown(self, hand: Hand) -> str:
        return hand_secret(hand).seed if not hand.in_play else HIDDEN

    @admin.display(description="deck")
    def deck_shown(self, hand: Hand) -> str:
        if hand.in_play:  # running, or its run-out still being dealt on screen
            return HIDDEN
        return " ".join(str(Card(c)) for c in hand_secret(hand).deck)

    @admin.display(description="result")
    def result_shown(self, hand: Hand) -> str:
        if hand.in_play:  # running, or its run-out still being dealt on screen
            return HIDDEN
        return format_html("<pre>{}</pre>", _pretty(hand.result))


def _pretty(value: Any) -> str:
    return json.dumps(value, indent=2, sort_keys=True)
