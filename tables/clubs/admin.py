"""Django admin for clubs: staff manage clubs, members, schedules and seasons; events read."""

from __future__ import annotations

from django.contrib import admin

from tables.clubs.models import Club, ClubEvent, Membership, ScheduledGame, Season

# The ignores below: admin classes take no type arguments at run time (no django_stubs_ext).


class MembershipInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Membership
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "owner", "needs_approval", "created_at"]
    search_fields = ["name"]
    raw_id_fields = ["owner"]
    inlines = [MembershipInline]


@admin.register(ScheduledGame)
class ScheduledGameAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "club", "kind", "starts_at", "opened_at"]
    list_filter = ["kind"]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "club", "starts_on", "ends_on", "rule", "closed"]


@admin.register(ClubEvent)
class ClubEventAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["at", "club", "kind", "actor"]
    list_filter = ["kind"]
    readonly_fields = ["club", "kind", "actor", "detail", "at"]
