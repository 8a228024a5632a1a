"""Browser pages: upload a PokerNow log (``/imports/``), an import (``/imports/<id>/``) and
one of its hands (``/imports/hands/<id>/``). Each player sees only their own imports."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from tables.imports import hooks, services
from tables.imports.errors import ImportRefused, ImportTooLarge, NameNotInLog, NotPokerNowLog
from tables.imports.models import ImportedHand
from tables.imports.selectors import (
    amount,
    import_hands,
    import_totals,
    imported_hand_replay,
    player_import,
    player_imported_hand,
    player_imported_hands,
    player_imports,
)
from tables.models import Player
from tables.presenters.replay import replay_felt, replay_label_html
from tables.presenters.replay_odds import odds_panel
from tables.selectors.replay_odds import replay_step_odds
from tables.text import NumberError, parse_optional_number

LIMITS = {
    "log_mib": services.MAX_LOG_BYTES // (1024 * 1024),
    "log_rows": services.MAX_LOG_ROWS,
    "ledger_kib": services.MAX_LEDGER_BYTES // 1024,
    "ledger_rows": services.MAX_LEDGER_ROWS,
}


def _player(request: HttpRequest) -> Player:
    player = getattr(request.user, "player", None)
    if not isinstance(player, Player):
        raise Http404("You have no player profile.")
    return player


def _upload_text(request: HttpRequest, field: str, limit: int) -> str:
    """An uploaded file's text (or the text the name-picking step sent back)."""
    upload = request.FILES.get(field)
    if upload is None:
        return str(request.POST.get(field + "_text", ""))
    if upload.size is not None and upload.size > limit:
        raise ImportTooLarge(f"the file is {upload.size} bytes: at most {limit} are read")
    try:
        return str(upload.read().decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise NotPokerNowLog("the file is not text (UTF-8)") from None


@login_required
def imports_page(request: HttpRequest) -> HttpResponse:
    player = _player(request)
    context: dict[str, object] = {"limits": LIMITS, "imports": player_imports(player)}
    if request.method == "POST":
        try:
            log_text = _upload_text(request, "log", services.MAX_LOG_BYTES)
            ledger_text = _upload_text(request, "ledger", services.MAX_LEDGER_BYTES)
            name = str(request.POST.get("pokernow_name", "")).strip()
            names = services.log_players(log_text)
            if name not in names:
                # the name is picked from those found in the log; the texts come back with it
                context.update(
                    names=names,
                    log_text=log_text,
                    ledger_text=ledger_text,
                    picked=name,
                    filename=request.POST.get("filename")
                    or getattr(request.FILES.get("log"), "name", ""),
                )
                if name:
                    context["error"] = str(NameNotInLog(f"{name!r} is not seated in this log"))
                return render(
                    request, "imports/imports.html", context, status=200 if not name else 400
                )
            upload = services.pokernow_import(
                player=player,
                log_text=log_text,
                pokernow_name=name,
                ledger_text=ledger_text,
                filename=str(request.POST.get("filename", "")),
            )
        except ImportRefused as error:
            context["error"] = str(error)
            return render(request, "imports/imports.html", context, status=400)
        return redirect("imports:detail", import_id=upload.pk)
    return render(request, "imports/imports.html", context)


@login_required
def import_page(request: HttpRequest, import_id: int) -> HttpResponse:
    upload = player_import(_player(request), import_id)
    if upload is None:
        raise Http404("No such import.")
    totals = import_totals(upload)
    hands = [(hand, amount(hand.net, upload.unit)) for hand in import_hands(upload)]
    # the statistics page's figures, when the statistics app is there to give them
    figures = [give(upload) for give in hooks.import_figures]
    context = {
        "upload": upload,
        "totals": totals,
        "net": amount(totals.net, upload.unit),
        "ev": amount(round(totals.ev), upload.unit),
        "luck": ("+" if totals.luck > 0 else "") + amount(totals.luck, upload.unit),
        "hands": hands,
        "figures": figures[0] if figures else None,
    }
    return render(request, "imports/import.html", context)


VERBS = {"f": "folds", "cc": "checks or calls", "cbr": "bets or raises to", "sm": "shows"}


def _lines(hand: ImportedHand, unit: str) -> list[str]:
    """The hand's PHH actions, in words: who did what, the cards dealt and shown."""
    history = hand.history()
    names = {f"p{k + 1}": name for k, name in enumerate(history.players or [])}
    lines = []
    for action in history.actions:
        words = action.split()
        if words[:2] == ["d", "dh"]:
            lines.append(f"{names.get(words[2], words[2])} is dealt {words[3]}")
        elif words[:2] == ["d", "db"]:
            lines.append(f"Board: {words[2]}")
        else:
            who, verb, rest = names.get(words[0], words[0]), words[1], words[2:]
            if verb == "cbr" and rest:
                rest = [amount(int(rest[0]), unit)]
            lines.append(" ".join([who, VERBS.get(verb, verb), *rest]))
    return lines


@login_required
def imported_hand_page(request: HttpRequest, hand_id: int) -> HttpResponse:
    hand = player_imported_hand(_player(request), hand_id)
    if hand is None:
        raise Http404("No such hand.")
    if request.GET.get("format") == "phh":
        response = HttpResponse(hand.phh, content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="pokernow-{hand.number}.phh"'
        return response
    upload = hand.pokernow_import
    context = {
        "hand": hand,
        "upload": upload,
        "net": amount(hand.net, upload.unit),
        "lines": _lines(hand, upload.unit),
    }
    return render(request, "imports/hand.html", context)


@login_required
def imported_hand_replayer(request: HttpRequest, hand_id: int) -> HttpResponse:
    """``/imports/hands/<id>/replay/``: the site's replayer (its template and script) playing
    an imported hand, marked as PokerNow's, as its uploader saw it."""
    hand = player_imported_hand(_player(request), hand_id)
    if hand is None:
        raise Http404("No such hand.")
    steps = imported_hand_replay(hand)
    seats = len(steps[0].view.seats)
    felts = [
        replay_felt(
            step,
            hand_id=hand.pk,
            hand_number=hand.number,
            table_seats=list(range(seats)),
            max_seats=seats,
        )
        for step in steps
    ]
    labels = [replay_label_html(step) for step in steps]  # its cards drawn as cards
    odds = [odds_panel(step_odds) for step_odds in replay_step_odds(steps)]
    last = len(steps) - 1
    try:
        current = parse_optional_number(request.GET.get("step"), what="step", maximum=last) or 0
    except NumberError:
        current = 0
    upload = hand.pokernow_import
    return render(
        request,
        "hands/replayer.html",
        {
            "hand": hand,
            "imported": {"upload": upload, "net": amount(hand.net, upload.unit)},
            "steps": list(zip(steps, felts, labels, odds, strict=True)),
            "current": steps[current],
            "current_label": labels[current],
            "current_felt": felts[current],
            "current_odds": odds[current],
            "last": last,
        },
    )


@login_required
def imported_hands_page(request: HttpRequest) -> HttpResponse:
    """``/imports/hands/``: every hand the player imported, across imports, each marked as
    PokerNow's (apart from the play-chip hands of ``/api/hands/`` and the stats page)."""
    hands = [
        (hand, amount(hand.net, hand.pokernow_import.unit))
        for hand in player_imported_hands(_player(request))[:HANDS_PAGE]
    ]
    return render(request, "imports/hands.html", {"hands": hands, "most": HANDS_PAGE})


#: The most hands ``/imports/hands/`` lists (the API pages through all of them).
HANDS_PAGE = 500
