"""Reads of final-table deals: whether a player may propose one now, the prizes a deal would
split, and the deal as the pages and the API show it (``services.deals`` writes them)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from tables.models import Player, Seat
from tables.tournaments import structure
from tables.tournaments.models import Deal, Tournament


def unpaid_prizes(tournament: Tournament, players_left: int) -> list[int]:
    """The prizes of the places still to be given (places 1 .. ``players_left``), first place
    first; the places below them are paid already."""
    prizes = structure.prize_table(
        tournament.prize_pool,
        tournament.entries.count(),
        tournament.payouts,
        tournament.payout_percentages,
        seat_value=tournament.seat_value,
    )
    return [int(prize) for prize in prizes[:players_left]]


def players_left(tournament: Tournament) -> dict[int, tuple[int, int]]:
    """The players still in: player id -> (chips in their seat, their table id)."""
    return {
        player_id: (stack, table_id)
        for player_id, stack, table_id in Seat.objects.filter(
            table__tournament_table__tournament=tournament
        ).values_list("player_id", "stack", "table_id")
    }


def deal_refusal(tournament: Tournament, player_id: int | None) -> str | None:
    """Why ``player_id`` may not propose a deal now, or None (they may): the tournament is
    running, they are still in, every player left sits at one (the final) table, nobody out
    can come back, there is prize money left, and no deal is being decided or was made."""
    name = tournament.name
    if tournament.status != Tournament.Status.RUNNING:
        return f"{name} is not running."
    if tournament.format == Tournament.Format.FIXED_HANDS:
        return "A fixed-hands game is played to its last hand: no deal."
    if tournament.is_satellite:
        return "A satellite's prizes are seats: no deal."
    left = players_left(tournament)
    if player_id not in left:
        return "Only the players still in make a deal."
    deals = tournament.deals.filter(status__in=[Deal.Status.PENDING, Deal.Status.MADE])
    status = deals.values_list("status", flat=True).first()
    if status == Deal.Status.PENDING:
        return "A deal is being decided already."
    if status == Deal.Status.MADE:
        return f"{name} has had its deal."
    if tournament.places_open:
        return "No deal while players out may still come back (late registration or rebuys)."
    tables = {table_id for _, table_id in left.values()}
    if len(tables) > 1:
        return f"A deal is made at the final table: players are still at {len(tables)} tables."
    if len(left) < 2:
        return "A deal needs two players or more."
    if not sum(unpaid_prizes(tournament, len(left))):
        return "There is no prize money left to share."
    return None


@dataclass(frozen=True)
class DealShare:
    player_id: int
    name: str
    chips: int
    share: int
    agreed: bool


@dataclass(frozen=True)
class DealView:
    """A deal as its players see it: ``shares`` empty while the hand being played when it
    was proposed goes on (the stacks are not known yet); ``may_answer``: the viewer is in it
    and has not agreed yet (accepting waits for the shares)."""

    deal_id: int
    status: str
    status_text: str
    method: str
    method_text: str
    keep: int
    pool: int  # the prize money it splits (``keep`` included)
    proposed_by: str
    shares: list[DealShare]
    may_answer: bool
    may_accept: bool

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.deal_id,
            "status": self.status,
            "method": self.method,
            "keep": self.keep,
            "pool": self.pool,
            "proposed_by": self.proposed_by,
            "shares": [asdict(share) for share in self.shares],
            "may_answer": self.may_answer,
            "may_accept": self.may_accept,
        }


def deal_view(tournament: Tournament, player_id: int | None) -> DealView | None:
    """The deal being decided, else the one made, else the last refused or lapsed while the
    tournament runs; None when there is none to show."""
    deal = (
        tournament.deals.filter(status__in=[Deal.Status.PENDING, Deal.Status.MADE]).first()
        or tournament.deals.first()
    )
    if deal is None or (
        deal.status not in (Deal.Status.PENDING, Deal.Status.MADE)
        and tournament.status != Tournament.Status.RUNNING
    ):
        return None
    ids = [row["player_id"] for row in deal.offer]
    names = dict(
        Player.objects.filter(pk__in=[*ids, deal.proposed_by_id]).values_list(
            "pk", "user__username"
        )
    )
    shares = [
        DealShare(
            row["player_id"],
            names.get(row["player_id"], "?"),
            row["chips"],
            row["share"],
            row["player_id"] in deal.agreed,
        )
        for row in deal.offer
    ]
    pending = deal.status == Deal.Status.PENDING
    in_it = player_id is not None and (
        player_id in ids or (not ids and player_id in players_left(tournament))
    )
    may_answer = pending and in_it and player_id not in deal.agreed
    return DealView(
        deal_id=deal.pk,
        status=deal.status,
        status_text=deal.get_status_display(),
        method=deal.method,
        method_text=deal.get_method_display(),
        keep=deal.keep,
        pool=sum(deal.prizes),
        proposed_by=names.get(deal.proposed_by_id, "?"),
        shares=shares,
        may_answer=may_answer,
        may_accept=may_answer and bool(shares),
    )
