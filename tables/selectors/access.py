"""Who may see a table and who may run it: the one definition every page, socket and API uses.

A private game is seen only by its host, the players seated at it, the guests who opened its
invite link, and staff; for everyone else it does not exist (404, not 403). A game is run by its
host and by staff; a host's powers stop at their own games.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from django.db.models import Exists, OuterRef, Q, QuerySet

from tables.models import Hand, LedgerEntry, Player, Seat, Table, TableGuest
from tables.selectors.players import viewer_player

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

    #: A request's or socket's user (None: a socket before it has one).
    Viewer = User | AnonymousUser | None

#: Features that let more players see some private tables (a club's members its tables):
#: ``f(player) -> Q`` over ``Table``, OR-ed with the core's own grants.
visibility_grants: list[Callable[[Player], Q]] = []
#: Features that hide some tables from players the core would let in (a club's table from a
#: non-member holding its invite link): ``f(player) -> Q`` over ``Table`` (``None``: a
#: logged-out visitor, whom the invite link would make a guest); a player seated at the table
#: still sees it (a removed member's running hand finishes normally).
visibility_denials: list[Callable[[Player | None], Q]] = []


def tables_visible_to(user: Viewer, tables: QuerySet[Table] | None = None) -> QuerySet[Table]:
    """``tables`` (every table by default) without the private games ``user`` may not see."""
    tables = Table.objects.all() if tables is None else tables
    if user is not None and getattr(user, "is_staff", False):
        return tables
    player = viewer_player(user)
    if player is None:
        return tables.filter(private=False)
    seated = Seat.objects.filter(table=OuterRef("pk"), player=player)
    guest = TableGuest.objects.filter(table=OuterRef("pk"), player=player)
    # A private tournament's tables: as the tournament (its organiser, entrants and guests:
    # ``tables.tournaments.access``), by the relation's name (the tournaments app builds on
    # this one, not the other way round).
    in_tournament = Table.objects.filter(pk=OuterRef("pk")).filter(
        Q(tournament_table__tournament__organiser=player)
        | Q(tournament_table__tournament__entries__player=player)
        | Q(tournament_table__tournament__guests=player)
    )
    # who bought in at a game keeps seeing it (its result and settle-up) once they left it
    played = LedgerEntry.objects.filter(table=OuterRef("pk"), player=player)
    visible = Q(private=False) | Q(host=player) | Q(Exists(seated)) | Q(Exists(guest))
    visible |= Q(Exists(played))
    visible |= Q(Exists(in_tournament))
    for grant in visibility_grants:
        visible |= grant(player)
    tables = tables.filter(visible)
    for denial in visibility_denials:
        tables = tables.exclude(denial(player) & ~Exists(seated))
    return tables


def invite_lets_in(table: Table, player: Player | None) -> bool:
    """Whether ``table``'s invite link lets ``player`` in (``None``: a logged-out visitor, who
    would join as a guest): not when a feature hides the table from them (a club's table from
    anyone but its members, visitors included), unless they sit at it; staff always."""
    if player is not None and (
        player.user.is_staff or Seat.objects.filter(table=table, player=player).exists()
    ):
        return True
    found = Table.objects.filter(pk=table.pk)
    return not any(found.filter(denial(player)).exists() for denial in visibility_denials)


def can_see_table(table: Table, user: Viewer) -> bool:
    """Whether ``user`` may know that ``table`` exists (its page, socket, API and ledger)."""
    if not table.private:
        return True
    return tables_visible_to(user, Table.objects.filter(pk=table.pk)).exists()


def can_see_hand(hand: Hand, user: Viewer) -> bool:
    """Whether ``user`` may see ``hand``: its table is visible to them, or they played it."""
    if can_see_table(hand.table, user):
        return True
    player = viewer_player(user)
    return player is not None and hand.seat_index_of(player.pk) is not None


def can_host(table: Table, user: Viewer) -> bool:
    """Whether ``user`` may use the host controls of ``table``: its host, or staff."""
    if user is not None and getattr(user, "is_staff", False):
        return True
    return hosts(table, user, viewer_player(user))


def hosts(table: Table, user: Viewer, player: Player | None) -> bool:
    """``can_host`` for a caller that knows ``user``'s player already (a socket): reads
    nothing, so it can follow ``table.host_id`` at every version."""
    if user is not None and getattr(user, "is_staff", False):
        return True
    return player is not None and table.host_id == player.pk
