"""Reads: a player's tournament record (their statistics page and the stats API) and the
tournament leaderboard.

The rules, in one place:

- A tournament counts for a player once their place is decided (out with a place, or the
  winner). A player still in, or out while re-entries or rebuys may bring them back, is not
  counted yet: fees and prizes are summed over the same decided entries, so the return
  compares like with like.
- Entry fees: what the entry cost in all (``Entry.fee_paid``: the fee, plus rebuys,
  re-entries and the add-on). Prizes: ``Entry.prize``. In the money: a prize above 0.
  Bounties: the bounties paid to them (``Entry.bounties_won``, their own head at the end too).
- Profit = prizes + bounties − entry fees (the tournaments' effect on the bankroll).
- ROI % = profit ÷ entry fees × 100, rounded to 2 places; ``None`` when the entry fees are 0
  (only freerolls): a return on nothing is undefined, not infinite. Freerolls still count in
  tournaments played, in the money and prizes.
- The leaderboard ranks players with at least ``min_tournaments`` decided tournaments by
  profit (the default), by ROI (only players who paid entry fees; 5 tournaments at least unless
  asked otherwise, so that one lucky result does not lead it) or by tournaments played; ties
  by name.
- The recent finishes list only tournaments the viewer may see (a private tournament does
  not exist for outsiders); the sums count them all, as hand statistics count private games.
"""

from __future__ import annotations

from datetime import date
from typing import Any, cast

from django.db.models import (
    BigIntegerField,
    Case,
    Count,
    ExpressionWrapper,
    F,
    FloatField,
    Min,
    Q,
    QuerySet,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Round

from tables.http import Viewer
from tables.models import Player
from tables.selectors.players import shown_as_bot
from tables.tournaments.access import tournaments_visible_to
from tables.tournaments.models import Entry

LEADERBOARD_ORDERS = {"profit": "-profit", "roi": "-roi", "played": "-played"}
#: Without an explicit minimum, ROI ranks players with at least this many tournaments.
ROI_MIN_TOURNAMENTS = 5
RECENT_FINISHES = 10


def _sums() -> dict[str, Any]:
    return {
        "played": Count("id"),
        "wins": Count("id", filter=Q(place=1)),
        "in_the_money": Count("id", filter=Q(prize__gt=0)),
        "entry_fees": Sum("fee_paid"),
        "prizes": Sum("prize"),
        "bounties": Sum("bounties_won"),
    }


def roi_percent(prizes: int, entry_fees: int) -> float | None:
    """Return on entry fees in % (``None`` with no fees paid: freerolls only)."""
    return round(100.0 * (prizes - entry_fees) / entry_fees, 2) if entry_fees else None


def _decided(player: Player, since: date | None, until: date | None) -> QuerySet[Entry]:
    entries = Entry.objects.filter(player=player, place__isnull=False)
    if since is not None:
        entries = entries.filter(tournament__started_at__date__gte=since)
    if until is not None:
        entries = entries.filter(tournament__started_at__date__lte=until)
    return entries


def tournament_record(
    player: Player, viewer: Viewer, *, since: date | None = None, until: date | None = None
) -> dict[str, Any]:
    """The player's tournaments (those started between ``since`` and ``until``, UTC days,
    inclusive): the sums, the ratios, the best place and the recent finishes ``viewer`` may
    see. Two queries."""
    decided = _decided(player, since, until)
    sums = decided.order_by().aggregate(**_sums(), best_place=Min("place"))
    played = sums["played"]
    fees = sums["entry_fees"] or 0
    prizes = sums["prizes"] or 0
    bounties = sums["bounties"] or 0
    recent = (
        decided.filter(tournament__in=tournaments_visible_to(viewer))
        .annotate(entrants=Count("tournament__entries"))
        .order_by("-tournament__started_at", "-tournament_id")
        .values(
            "tournament_id",
            "place",
            "entrants",
            "fee_paid",
            "prize",
            "bounties_won",
            name=F("tournament__name"),
            format=F("tournament__format"),
            started_at=F("tournament__started_at"),
        )[:RECENT_FINISHES]
    )
    return {
        "played": played,
        "wins": sums["wins"],
        "best_place": sums["best_place"],
        "in_the_money": sums["in_the_money"],
        "in_the_money_percent": round(100.0 * sums["in_the_money"] / played, 2) if played else None,
        "entry_fees": fees,
        "prizes": prizes,
        "bounties": bounties,
        "profit": prizes + bounties - fees,
        "roi": roi_percent(prizes + bounties, fees),
        "recent": [
            {
                "tournament_id": row["tournament_id"],
                "name": row["name"],
                "format": row["format"],
                "started_at": row["started_at"],
                "entrants": row["entrants"],
                "place": row["place"],
                "entry_fee": row["fee_paid"],
                "prize": row["prize"],
                "bounties": row["bounties_won"],
            }
            for row in recent
        ],
    }


def tournament_leaderboard(
    order: str = "profit", min_tournaments: int | None = None
) -> QuerySet[Any, Any]:
    """Players ranked by ``order`` (``LEADERBOARD_ORDERS``) among those with at least
    ``min_tournaments`` decided tournaments (default: 1; ``ROI_MIN_TOURNAMENTS`` for ROI).

    Rows are dicts: ``player_id``, ``name``, ``is_bot``, ``played``, ``wins``,
    ``in_the_money``, ``entry_fees``, ``prizes``, ``bounties``, ``profit``, ``roi`` (one
    query).
    """
    if order not in LEADERBOARD_ORDERS:
        raise ValueError(f"unknown order {order!r}: one of {', '.join(LEADERBOARD_ORDERS)}")
    if min_tournaments is None:
        min_tournaments = ROI_MIN_TOURNAMENTS if order == "roi" else 1
    won = F("prizes") + F("bounties")
    profit = ExpressionWrapper(won - F("entry_fees"), output_field=BigIntegerField())
    # Any until the end: the rows are filtered on the sums ``_sums()`` annotates, which the
    # type checker's Django plugin cannot see through the ``**``.
    entries: Any = Entry.objects.filter(place__isnull=False)
    rows = (
        entries.order_by()
        .values("player_id")
        .annotate(
            **_sums(),
            profit=profit,
            roi=Case(
                When(
                    entry_fees__gt=0,
                    then=Round(
                        ExpressionWrapper(
                            100.0 * (won - F("entry_fees")) / F("entry_fees"),
                            output_field=FloatField(),
                        ),
                        2,
                    ),
                ),
                default=Value(None),
                output_field=FloatField(),
            ),
            name=F("player__user__username"),
            is_bot=shown_as_bot(),
        )
        .filter(played__gte=min_tournaments)
    )
    if order == "roi":
        rows = rows.filter(entry_fees__gt=0)
    return cast(QuerySet[Any, Any], rows.order_by(LEADERBOARD_ORDERS[order], "name"))
