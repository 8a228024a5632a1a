"""HTML views of the tables app: the lobby and the live table page."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone

from engine.variants import variant
from tables.clubs.selectors import upcoming_for
from tables.models import Hand, Table
from tables.presenters.broadcast import broadcast_reveal
from tables.presenters.notes import note_marks
from tables.presenters.render import region_html, render_message
from tables.presenters.screen import table_screen
from tables.selectors.access import can_host, can_see_hand, can_see_table, tables_visible_to
from tables.selectors.held import made_from_table
from tables.selectors.hosting import LeftTable, left_table
from tables.selectors.ledger import table_ledger
from tables.selectors.lobby import lobby_tables
from tables.selectors.notes import notes_by_subject
from tables.selectors.players import viewer_player
from tables.selectors.recent import recent_games
from tables.selectors.snapshot import Snapshot
from tables.stats.ev import ledger_ev
from tables.views_hud import hud_shown
from tables.views_room import room_screen_link


def lobby(request: HttpRequest) -> HttpResponse:
    """``/``: every open table, its variant, stakes, seats, average pot and who sits there."""
    tables = list(tables_visible_to(request.user, lobby_tables()))
    # Where this viewer sits: from the prefetched seats, no further query.
    seated_at = {t.pk for t in tables for s in t.seats.all() if s.player.user_id == request.user.pk}
    player = viewer_player(request.user)
    club_games = upcoming_for(player)  # the viewer's clubs' schedule
    return render(
        request,
        "lobby/lobby.html",
        {
            "tables": tables,
            "seated_at": seated_at,
            "club_games": club_games,
            "recent_games": recent_games(player) if player is not None else [],
        },
    )


def table_detail(request: HttpRequest, table_id: int) -> HttpResponse:
    """``/tables/<id>/``: the live table, rendered for this viewer by the same presenters as
    the websocket updates (a reload shows exactly the live state)."""
    table = get_object_or_404(Table, pk=table_id)
    if not can_see_table(table, request.user):
        raise Http404("No such table.")  # a private game's existence is not revealed
    player = viewer_player(request.user)  # its bankroll: read just now
    left = left_table(table.pk, player) if player else LeftTable(0, None)
    notes = note_marks(notes_by_subject(player.pk if player else None))  # theirs alone
    now = timezone.now()

    def page(snapshot: Snapshot) -> dict[str, Any]:
        screen = table_screen(
            snapshot,
            player,
            player.bankroll if player else None,
            left_with=left.minimum,
            reseat_at_ms=left.wait_until_ms,
            notes=notes,
            # a visitor's, of a hand its players agreed to broadcast (none for a seated player)
            revealed=broadcast_reveal(snapshot, player.pk if player else None, now),
        )
        return {"snapshot": snapshot, "screen": screen}

    # The table as the runtime that owns it here holds it (in its turn: what its sockets
    # were sent), else read.
    made = made_from_table(table.pk, page)
    if made is None:  # the table was deleted since it was read
        raise Http404("No such table.")
    snapshot, screen = made["snapshot"], made["screen"]
    regions = {**region_html(screen, oob=False), "message": render_message("", oob=False)}
    closed = snapshot.table.status == Table.Status.CLOSED
    ledger = table_ledger(snapshot.table) if closed else None  # its result and settle-up
    night, swings = ledger_ev(ledger) if ledger is not None else ([], [])
    is_host = can_host(snapshot.table, request.user)
    return render(
        request,
        "tables/table.html",
        {
            "closed": closed,
            # the draw games' keys, where one may be dealt (a mixed table's games included)
            "draw_keys": any(variant(game).is_draw for game, _ in snapshot.table.choices),
            "is_host": is_host,  # the host drawer's button
            "tv_url": None if closed else room_screen_link(snapshot.table, is_host),
            "ledger": ledger,
            "transfers": ledger.settle_up() if ledger is not None else None,
            "night": night,  # each player's net beside their all-in EV
            "swings": swings,
            "table": snapshot.table,
            "me": screen.viewer,
            # the players' statistics beside the seats: fetched by the page, never in frames
            "hud": not closed and hud_shown(snapshot.table, request),
            "regions": regions,
            "tournament": snapshot.banner,  # a tournament table: its name and level
            "seating_closed": snapshot.seating_closed,  # no ledger: no bankroll chips here
        },
    )


def hand_detail(request: HttpRequest, table_id: int, number: int) -> HttpResponse:
    """``/tables/<id>/hands/<n>/``: the table's name for a hand; its history is the replayer."""
    hand = get_object_or_404(Hand.objects.select_related("table"), table_id=table_id, number=number)
    if not can_see_hand(hand, request.user):
        raise Http404("No such hand.")
    return redirect("stats:hand", hand_id=hand.pk)
