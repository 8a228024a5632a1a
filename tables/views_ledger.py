"""``/tables/<id>/ledger/``: the night's ledger of a game, its settle-up and, once a private game
is closed, every hand's seed beside its commitment with its check."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tables.models import Table
from tables.selectors.access import can_see_table
from tables.selectors.deals import revealed_deals
from tables.selectors.ledger import table_ledger
from tables.stats.ev import ledger_ev


def table_ledger_page(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    if not can_see_table(table, request.user):
        raise Http404("No such table.")
    ledger = table_ledger(table)
    night, swings = ledger_ev(ledger)
    return render(
        request,
        "tables/ledger.html",
        {
            "table": table,
            "ledger": ledger,
            "transfers": ledger.settle_up(),
            "night": night,  # each player's net beside their all-in EV
            "swings": swings,
            "deals": revealed_deals(table),
        },
    )
