"""The room screen (issue 53): ``/tables/<id>/tv/``, the table for a television or projector.

A spectator's view of the table, drawn large: the same presenters and partials as the table
page (``table_screen`` for a viewer not dealt in: no hole card but those shown), no control,
and a QR code to join. It stays live over the table's socket as a spectator (``?view=tv``:
``tables.live.consumer``), whoever's browser shows it. A private game's needs its host's key
(``tables.selectors.room_screen``).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode

from tables.models import Table
from tables.presenters.broadcast import broadcast_reveal
from tables.presenters.qr import qr_svg
from tables.presenters.render import region_html, render_message
from tables.presenters.screen import table_screen
from tables.selectors.held import made_from_table
from tables.selectors.room_screen import room_screen_allowed, room_screen_key
from tables.selectors.snapshot import Snapshot


def room_screen_url(table: Table) -> str:
    """The room screen's path (a private game's with its host's key: for the host alone)."""
    path = reverse("tables:tv", args=[table.pk])
    key = room_screen_key(table) if table.private else None
    return f"{path}?{urlencode({'key': key})}" if key else path


def room_screen_link(table: Table, is_host: bool) -> str | None:
    """The room screen's link for a viewer of the table page (or the host's panel): a public
    table's for everyone, a private game's for its host alone (None: none to show)."""
    if table.private and not (is_host and room_screen_key(table)):
        return None
    return room_screen_url(table)


def room_screen(request: HttpRequest, table_id: int) -> HttpResponse:
    """``/tables/<id>/tv/``: a public table's for anyone, a private game's with its host's
    key (else 404, as its page is to outsiders)."""
    table = Table.objects.filter(pk=table_id).first()
    key = request.GET.get("key")
    if table is None or not room_screen_allowed(table, key):
        raise Http404("No such table.")
    now = timezone.now()

    def shown(snapshot: Snapshot) -> dict[str, Any]:
        # a spectator's, whoever looks (with the broadcast's cards where its host allows them)
        revealed = broadcast_reveal(snapshot, None, now, room_screen=True)
        return {"snapshot": snapshot, "screen": table_screen(snapshot, None, revealed=revealed)}

    # as the runtime that owns the table here holds it, else read
    made = made_from_table(table.pk, shown)
    if made is None:  # deleted since it was read
        raise Http404("No such table.")
    snapshot, screen = made["snapshot"], made["screen"]
    regions = {**region_html(screen, oob=False), "message": render_message("", oob=False)}
    # The QR code: a private game's invite link (to join it), a public table's page.
    token = table.invite_token if table.private else ""
    join_url = request.build_absolute_uri(
        reverse("join", kwargs={"token": token})
        if token
        else reverse("tables:detail", args=[table.pk])
    )
    socket = f"/ws/tables/{table.pk}/?" + urlencode({"view": "tv", **({"key": key} if key else {})})
    return render(
        request,
        "tables/tv.html",
        {
            "table": snapshot.table,
            "regions": regions,
            "socket": socket,
            "join_url": join_url,
            "qr": qr_svg(join_url, f"QR code: {join_url}"),
            "private": table.private,
            "tournament": snapshot.banner,
        },
    )
