"""Browser pages: a player's statistics with a chart of net chips and all-in EV, a finished
hand's replayer, the leaderboard. Server-rendered; the chart is inline SVG, the replayer a
small static script."""

from __future__ import annotations

import math
from datetime import timedelta
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from engine.variants import VARIANTS
from tables.http import AuthenticatedRequest
from tables.imports.selectors import amount, player_imported_hands, player_imports
from tables.models import Hand, Player, Table
from tables.presenters.models import NO_NOTES, NoteMarks
from tables.presenters.notes import note_marks
from tables.presenters.replay import replay_felt, replay_label_html
from tables.presenters.replay_odds import odds_panel
from tables.selectors.access import can_see_hand, tables_visible_to
from tables.selectors.notes import note_on, notes_by_subject
from tables.selectors.replay import hand_replay_steps
from tables.selectors.replay_odds import replay_step_odds
from tables.services.errors import ServiceError
from tables.services.notes import LABELS as NOTE_LABELS
from tables.services.sharing import hand_share, hand_share_revoke
from tables.stats.ev import Curves, hand_labels, net_and_ev_curves, player_ev_by_game
from tables.stats.pokernow import player_pokernow_stats, with_amount_texts
from tables.stats.selectors import (
    HandFilter,
    finished_hand,
    hand_downloads,
    hidden_tables_as_missing,
    leaderboard,
    player_hand_rows,
    player_stats,
    player_tables,
    viewer_seat,
)
from tables.stats.shared import hand_shares_of, shared_hand, shared_summary
from tables.text import NumberError, parse_optional_number
from tables.tournaments.records import (
    LEADERBOARD_ORDERS as TOURNAMENT_ORDERS,
    ROI_MIN_TOURNAMENTS,
    tournament_leaderboard,
    tournament_record,
)


@login_required
def my_stats(request: AuthenticatedRequest) -> HttpResponse:
    player = getattr(request.user, "player", None)
    if player is None:
        raise Http404("You have no player profile.")
    return redirect("stats:player", player_id=player.pk)


@login_required
def player_stats_page(request: HttpRequest, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player.objects.select_related("user"), pk=player_id)
    try:
        table = parse_optional_number(request.GET.get("table"), what="table", minimum=1)
    except NumberError as error:
        return HttpResponse(
            f"The {error} Choose a table from the list, or all tables.",
            status=400,
            content_type="text/plain",
        )
    game = request.GET.get("game") or None
    if game is not None and game not in VARIANTS:
        return HttpResponse(
            "There is no such game. Choose a game from the list, or all games.",
            status=400,
            content_type="text/plain",
        )
    filters = hidden_tables_as_missing(HandFilter(table=table, game=game), request.user)
    viewer = getattr(request.user, "player", None)
    stats = player_stats(player, filters)
    curves = net_and_ev_curves(player, filters)
    chart = net_chart(curves.net, curves.ev)
    visible = tables_visible_to(request.user)
    recent = list(player_hand_rows(player, filters).filter(table__in=visible)[:20])
    shown = set(
        visible.filter(pk__in=[t["id"] for t in player_tables(player)]).values_list("pk", flat=True)
    )
    return render(
        request,
        "stats/player.html",
        {
            "player": player,
            "stats": stats,
            "chart": chart,
            "chart_marks": chart_marks(curves, chart),
            "allin_ev": player_ev_by_game(player, filters),
            "recent": recent,
            "filters": filters,
            "tables": [t for t in player_tables(player) if t["id"] in shown],
            "games": Table.HAND_GAMES,
            "tournaments": tournament_record(player, request.user),
            "own": (own := getattr(request.user, "player", None) == player),
            # games brought from PokerNow: listed apart, never in the figures above
            "pokernow_imports": list(player_imports(player)[:10]) if own else [],
            "pokernow_stats": pokernow_figures(player) if own else None,
            "pokernow_hands": [
                (hand, amount(hand.net, hand.pokernow_import.unit))
                for hand in player_imported_hands(player)[:10]
            ]
            if own
            else [],
            # the viewer's own note on this player, and its form (none on their own page)
            "note": note_on(viewer.pk, player.pk) if viewer is not None else None,
            "can_note": viewer is not None and viewer != player,
            "note_labels": NOTE_LABELS,
            "export_since": (timezone.now() - timedelta(days=30)).date(),
            "export_until": timezone.now().date(),
        },
    )


def pokernow_figures(player: Player) -> dict[str, Any] | None:
    """The player's PokerNow figures with their amounts as PokerNow printed them ("–" where
    the imports' units differ)."""
    figures = player_pokernow_stats(player)
    return None if figures is None else with_amount_texts(figures, figures["unit"])


#: The page's minimum of cash hands (the API's is a parameter).
PAGE_MIN_HANDS = 10


def leaderboard_page(request: HttpRequest) -> HttpResponse:
    """``/leaderboard/``: cash games (``?order=net|bb100|hands``), or ``?view=tournaments``
    (``?order=profit|roi|played``); an unknown order shows the default one."""
    if request.GET.get("view") == "tournaments":
        order = request.GET.get("order", "profit")
        if order not in TOURNAMENT_ORDERS:
            order = "profit"
        rows = list(tournament_leaderboard(order)[:50])
        return render(
            request,
            "stats/leaderboard.html",
            {"rows": rows, "order": order, "view": "tournaments", "min_roi": ROI_MIN_TOURNAMENTS},
        )
    order = request.GET.get("order", "net")
    if order not in ("net", "bb100", "hands"):
        order = "net"
    rows = list(leaderboard(order, min_hands=PAGE_MIN_HANDS)[:50])
    return render(
        request,
        "stats/leaderboard.html",
        {"rows": rows, "order": order, "view": "cash", "min_hands": PAGE_MIN_HANDS},
    )


def hand_replayer(request: HttpRequest, hand_id: int) -> HttpResponse:
    """A finished hand step by step, as its viewer may see it: logged out, a public table's
    (what anyone not dealt in saw)."""
    hand = finished_hand(hand_id)
    if hand is None or hand.status == Hand.Status.VOIDED or not can_see_hand(hand, request.user):
        raise Http404("No such finished hand.")
    if hand.status != Hand.Status.FINISHED or hand.in_play:  # its run-out still being dealt
        return HttpResponse(
            "This hand is still being played: its history is shown once it is over.",
            status=409,
            content_type="text/plain",
        )
    player = getattr(request.user, "player", None) if request.user.is_authenticated else None
    notes = note_marks(notes_by_subject(player.pk if player is not None else None))
    return _replayer(
        request,
        hand,
        viewer_seat(hand, request.user),
        {
            "can_share": player is not None,
            "dealt_in": player is not None and hand.seat_index_of(player.pk) is not None,
            "shares": hand_shares_of(hand, player),
            # the viewer's own notes on the others dealt in, each with its form
            "note_rows": [
                (s["player_id"], s["name"], notes.get(s["player_id"]))
                for s in hand.seats
                if player is not None and s["player_id"] != player.pk
            ],
            "note_labels": NOTE_LABELS,
        },
        notes,
    )


def shared_hand_page(request: HttpRequest, token: str) -> HttpResponse:
    """``/shared/<token>/``: a shared hand's replayer, read-only, for anyone (logged out
    too), as a spectator saw it, with the sharer's own cards if they chose so; a revoked or
    unknown link is a 404. Open Graph tags name the hand and its result for chat apps."""
    shared = shared_hand(token)
    if shared is None:
        raise Http404("No such shared hand (the link may have been revoked).")
    hand = shared.hand
    return _replayer(
        request,
        hand,
        shared.seat,
        {
            "shared": True,
            "og_title": f"{hand.table.name} · hand #{hand.number}",
            "og_description": shared_summary(hand),
            "og_url": request.build_absolute_uri(),
        },
    )


@login_required
@require_POST
def hand_share_page(request: AuthenticatedRequest, hand_id: int) -> HttpResponse:
    """Share hand ``hand_id`` (POST ``own_cards=1``: with your own cards): a new link, shown
    on the replayer; a refusal says why (400)."""
    player = getattr(request.user, "player", None)
    if player is None:
        raise Http404("You have no player profile.")
    try:
        hand_share(
            hand_id=hand_id,
            player=player,
            user=request.user,
            own_cards=request.POST.get("own_cards") == "1",
        )
    except ServiceError as error:
        return HttpResponse(str(error), status=400, content_type="text/plain")
    return redirect(reverse("stats:hand", args=[hand_id]) + "#share")


@login_required
@require_POST
def hand_share_revoke_page(request: AuthenticatedRequest, token: str) -> HttpResponse:
    """Revoke one of your links: it shows nothing from now on."""
    player = getattr(request.user, "player", None)
    if player is None:
        raise Http404("You have no player profile.")
    try:
        share = hand_share_revoke(token=token, player=player)
    except ServiceError as error:
        return HttpResponse(str(error), status=400, content_type="text/plain")
    return redirect(reverse("stats:hand", args=[share.hand_id]) + "#share")


def _replayer(
    request: HttpRequest,
    hand: Hand,
    seat: int | None,
    extra: dict[str, Any],
    notes: NoteMarks = NO_NOTES,
) -> HttpResponse:
    """The replayer page of finished ``hand`` as engine seat ``seat`` may see it (None: a
    spectator), with ``extra`` in its context; ``notes``: the viewer's own, on the seats."""
    steps = hand_replay_steps(hand, seat)
    table_seats = [s["seat"] for s in hand.seats]
    player_ids = [s.get("player_id") for s in hand.seats]
    max_seats = max(hand.table.max_seats, *(n + 1 for n in table_seats))
    felts = [
        replay_felt(
            step,
            hand_id=hand.pk,
            hand_number=hand.number,
            table_seats=table_seats,
            max_seats=max_seats,
            notes=notes,
            player_ids=player_ids,
        )
        for step in steps
    ]
    labels = [replay_label_html(step) for step in steps]  # its cards drawn as cards
    odds = [odds_panel(step_odds) for step_odds in replay_step_odds(steps)]
    last = len(steps) - 1
    # ?step=N opens that step (a link to any step; without JavaScript, the controls' links)
    try:
        current = parse_optional_number(request.GET.get("step"), what="step", maximum=last) or 0
    except NumberError:
        current = 0
    return render(
        request,
        "hands/replayer.html",
        {
            "hand": hand,
            "steps": list(zip(steps, felts, labels, odds, strict=True)),
            "current": steps[current],
            "current_label": labels[current],
            "current_felt": felts[current],
            "current_odds": odds[current],
            "last": last,
            "downloads": hand_downloads(hand),
            **extra,
        },
    )


#: Hover targets on the chart at most (evenly spread over the hands): each names its hand.
CHART_MARKS = 120


def net_chart(
    curve: list[int],
    ev: list[float] | None = None,
    width: int = 640,
    height: int = 220,
    pad: int = 48,
) -> dict[str, Any]:
    """Points of SVG polylines for cumulative net chips and, given, the all-in EV beside it
    (hand number on x, chips on y), and how far apart the hands are on x (``step``)."""
    if not curve:
        return {"points": "", "width": width, "height": height, "empty": True}
    values = [0, *curve]
    evs = [0.0, *(ev or [])]
    # whole chips on the axis, the EV's fractions inside the plot
    low = min(min(values), math.floor(min(evs)))
    high = max(max(values), math.ceil(max(evs)))
    span = (high - low) or 1
    count = len(values) - 1 or 1
    inner_w, inner_h = width - 2 * pad, height - 2 * pad

    def x(i: int) -> float:
        return round(pad + inner_w * i / count, 1)

    def y(v: float) -> float:
        return round(pad + inner_h * (high - v) / span, 1)

    def line(points: list[int] | list[float]) -> str:
        return " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(points))

    return {
        "points": line(values),
        "ev_points": line(evs) if ev else "",
        "step": inner_w / count,  # the x of hand i (from 1) is pad + i * step
        "width": width,
        "height": height,
        "pad": pad,
        "zero_y": y(0),
        "label_x": pad - 6,  # the chip labels, right-aligned against the y axis
        "right": width - pad,
        "bottom": height - pad,
        "inner_height": inner_h,
        "high": high,
        "low": low,
        "hands": len(curve),
        "final": curve[-1],
        "final_ev": round(ev[-1]) if ev else None,
        "empty": False,
    }


def chart_marks(curves: Curves, chart: dict[str, Any]) -> list[dict[str, Any]]:
    """Hover targets over the chart, at most ``CHART_MARKS`` evenly spread: a band per
    hand marked, titled with the hand and both figures after it."""
    if chart["empty"]:
        return []
    total = len(curves.net)
    every = max(1, -(-total // CHART_MARKS))
    picks = list(range(total - 1, -1, -every))[::-1]  # the last hand always marked
    labels = hand_labels([curves.hand_ids[i] for i in picks])
    width = chart["step"] * every
    return [
        {
            "x": round(chart["pad"] + (i + 1) * chart["step"] - width / 2, 1),
            "width": round(width, 1),
            "hand_id": curves.hand_ids[i],
            "title": f"{labels.get(curves.hand_ids[i], 'Hand')}: net {curves.net[i]:+,}, "
            f"all-in EV {round(curves.ev[i]):+,}",
        }
        for i in picks
    ]
