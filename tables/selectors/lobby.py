"""The lobby's read: every open table with who sits there."""

from __future__ import annotations

from django.db.models import Avg, Count, F, IntegerField, OuterRef, Prefetch, QuerySet, Subquery

from tables.models import Hand, Seat, Table


def lobby_tables() -> QuerySet[Table]:
    """Every open table with its seats (players prefetched), seat count and average pot."""
    seats = Seat.objects.select_related("player__user").order_by("number")
    finished = (
        Hand.objects.filter(table=OuterRef("pk"), status=Hand.Status.FINISHED)
        .order_by()
        .values("table")
    )
    return (
        Table.objects.filter(status=Table.Status.OPEN)
        .filter(tournament_table__isnull=True)  # a tournament seats its own tables
        .annotate(
            seats_taken=Count("seats"),
            seats_free=F("max_seats") - Count("seats"),
            average_pot=Subquery(finished.annotate(a=Avg("pot")).values("a")),
            hands_played=Subquery(
                finished.annotate(n=Count("pk")).values("n"), output_field=IntegerField()
            ),
        )
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("name")
    )
