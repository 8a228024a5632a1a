"""HTML views of the tables app: the lobby and (until live play replaces it) the table page."""

from __future__ import annotations

from django.shortcuts import get_object_or_404, render

from tables.models import Table
from tables.selectors import lobby_tables


def lobby(request):
    """``/``: every open table, its variant, stakes, seats, average pot and who sits there."""
    return render(request, "lobby/lobby.html", {"tables": lobby_tables()})


def table_detail(request, table_id: int):
    """``/tables/<id>/``: the live table, rendered for this viewer by the same presenters as
    the websocket updates (a reload shows exactly the live state)."""
    from tables.presenters import table_screen, viewer_player

    table = get_object_or_404(Table, pk=table_id)
    screen = table_screen(table, viewer_player(request.user))
    return render(
        request, "tables/table.html", {**screen, "oob": False, "request_path": request.path}
    )


def hand_detail(request, table_id: int, number: int):
    """``/tables/<id>/hands/<n>/``: a finished hand's history, as its players may see it."""
    from django.http import Http404

    from tables.models import Hand
    from tables.presenters import _log_lines, faces, viewer_player
    from tables.selectors import hand_state

    table = get_object_or_404(Table, pk=table_id)
    hand = get_object_or_404(Hand, table=table, number=number)
    if hand.status != Hand.Status.FINISHED:
        raise Http404("That hand is not finished.")
    player = viewer_player(request.user)
    index = hand.seat_index_of(player.pk) if player is not None else None
    view = hand_state(hand).view(index)
    shown = (view["result"] or {}).get("shown", {})
    rows = [
        {
            "seat": start["seat"] + 1,
            "name": start["name"],
            "cards": [c for c in faces(seen["cards"]) if c is not None],
            "start": start["stack"],
            "net": view["result"]["net"][i] if view["result"] else 0,
            "description": shown.get(str(i), {}).get("description", ""),
        }
        for i, (start, seen) in enumerate(zip(hand.seats, view["seats"]))
    ]
    return render(request, "tables/hand.html", {
        "table": table, "hand": hand, "rows": rows, "board": faces(view["board"]),
        "log": _log_lines(view, hand),
    })
