"""One tournament as its page and its API show it: the level, the standings (live chips and
ranks, then places and prizes), the payouts, the tables to watch, and what the viewer may do.

Read once per request; the page and the API render the same ``Overview``.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count

from tables.http import Viewer
from tables.selectors.players import viewer_player
from tables.tournaments import structure
from tables.tournaments.access import can_run_tournament
from tables.tournaments.deals import DealView, deal_refusal, deal_view
from tables.tournaments.level import LevelNow, tournament_level
from tables.tournaments.models import Tournament
from tables.tournaments.selectors import Comebacks, Standing, comebacks_for, standings

Status = Tournament.Status


@dataclass(frozen=True)
class TableLink:
    table_id: int
    number: int
    players: int
    open: bool


@dataclass(frozen=True)
class Overview:
    tournament: Tournament
    level: LevelNow | None  # None once finished
    standings: list[Standing]
    table_numbers: dict[int, int]  # table id -> its number in the tournament
    prizes: list[int]  # places 1, 2, 3... with the entrants as they are now
    tables: list[TableLink]
    entrants: int
    registered: bool  # the viewer is entered
    may_register: bool
    may_unregister: bool
    may_start: bool
    comebacks: Comebacks  # the viewer may rebuy now, or re-enter
    deal: DealView | None  # the final-table deal being decided or made
    may_propose_deal: bool


def tournament_overview(tournament: Tournament, user: Viewer) -> Overview:
    player = viewer_player(user)
    player_id = player.pk if player is not None else None
    rows = standings(tournament)
    tables = [
        TableLink(tt.table_id, tt.number, tt.players, tt.broken_at is None)
        for tt in tournament.tables.annotate(players=Count("table__seats")).order_by("number")
    ]
    entrants = len(rows)
    registered = player is not None and any(row.player_id == player.pk for row in rows)
    taking_entries = tournament.registration_open and tournament.status != Status.FINISHED
    room = tournament.max_entrants is None or entrants < tournament.max_entrants
    registering = tournament.status == Status.REGISTERING
    return Overview(
        tournament=tournament,
        level=None if tournament.status == Status.FINISHED else tournament_level(tournament),
        standings=rows,
        table_numbers={link.table_id: link.number for link in tables},
        prizes=structure.prize_table(
            tournament.prize_pool,
            max(entrants, 1),
            tournament.payouts,
            tournament.payout_percentages,
            seat_value=tournament.seat_value,
        ),
        tables=tables,
        entrants=entrants,
        registered=registered,
        may_register=player is not None and not registered and taking_entries and room,
        may_unregister=registered and registering,
        may_start=registering and can_run_tournament(tournament, user),
        comebacks=comebacks_for(tournament, player_id),
        deal=deal_view(tournament, player_id) if tournament.status != Status.REGISTERING else None,
        may_propose_deal=player_id is not None and deal_refusal(tournament, player_id) is None,
    )
