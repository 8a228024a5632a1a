"""HTML views of the tables app: the lobby and (until live play replaces it) the table page."""

from __future__ import annotations

from django.shortcuts import get_object_or_404, render

from tables.models import Table
from tables.selectors import lobby_tables


def lobby(request):
    """``/``: every open table, its variant, stakes, seats, average pot and who sits there."""
    return render(request, "lobby/lobby.html", {"tables": lobby_tables()})


def table_detail(request, table_id: int):
    """``/tables/<id>/``: placeholder, replaced by the live table page (issue 5)."""
    table = get_object_or_404(Table, pk=table_id)
    seats = table.seats.select_related("player__user").order_by("number")
    return render(request, "tables/detail_placeholder.html", {"table": table, "seats": seats})
