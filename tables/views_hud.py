"""The HUD fragment of the table page (issue 51): ``/tables/<id>/hud/``.

The page fetches it (htmx) when it loads and again when a hand ends or a new one starts
(``static/js/table.js``): the socket's frames never carry it, so no action's frame costs
more. The figures are the table's, computed once per hand and cached
(``tables.stats.hud.table_hud``); only the answer is per viewer, and only in whether it is
shown: the table's setting (``Table.hud``, the host's) and the viewer's (``Player.hud``) each
turn it off, and a visitor not logged in, who may not open the stats pages, gets none.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tables.models import Table
from tables.selectors.access import can_see_table
from tables.selectors.players import viewer_player
from tables.stats.hud import table_hud


def hud_shown(table: Table, request: HttpRequest) -> bool:
    """Whether this viewer sees the HUD at ``table``: the table's and their own setting."""
    if not table.hud or not request.user.is_authenticated:
        return False
    player = viewer_player(request.user)
    return player is not None and player.hud


@require_GET
def table_hud_fragment(request: HttpRequest, table_id: int) -> HttpResponse:
    """The HUD's seats (an empty answer where it is off: the page's HUD empties)."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not can_see_table(table, request.user):
        raise Http404("No such table.")  # a private game's existence is not revealed
    if not hud_shown(table, request):
        return HttpResponse("")
    return render(request, "tables/_hud.html", {"hud": table_hud(table), "table": table})
