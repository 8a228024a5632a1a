"""Pages for hosted games: start one (``/tables/new/``), the invite link (``/join/<token>/``,
where a friend without an account joins as a guest by name),
and the host's panel on the table page with its controls.

Thin: every change is one service of ``tables.services.hosting`` / ``seat_requests``; a
refusal is shown on the panel (or the form), naming the field where there is one. A private
game is 404 for whoever may not see it, and a host control is 403 for whoever may not run it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Field
from django.forms.models import fields_for_model
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from engine.config import STUD_GAMES
from tables.http import AuthenticatedRequest, HtmxRequest
from tables.models import Player, Table
from tables.operations import in_table_turn
from tables.selectors.access import can_host, can_see_table
from tables.selectors.hosting import (
    invite_table,
    live_requests,
    request_of,
    request_status,
    seated_names,
)
from tables.selectors.players import viewer_player
from tables.services import guests, host_seats, hosting, seat_requests
from tables.services.errors import InvalidSettings, NoSuchInvite, NotSeated, ServiceError
from tables.services.players import player_get_or_create
from tables.text import NumberError, parse_whole_number
from tables.views_broadcast import broadcast_context, host_propose, host_stop, player_answer
from tables.views_room import room_screen_link

#: The settings of the new-game form and of the panel's change form, in the order shown:
#: every setting a host may choose, as the API takes them (``hosting.HOST_FIELDS``).
FORM_FIELDS = hosting.HOST_FIELDS
CHANGE_FIELDS = hosting.HOST_FIELDS

#: Settings a form may leave empty: the game's default, or its setting as it is, stays (no
#: straddles, no bring-in, the bets from the big blind, no bomb pots): the settings of one
#: game need not be typed for another.
OPTIONAL_FIELDS = (
    "straddles",
    "bring_in",
    "small_bet",
    "big_bet",
    "bomb_pot_ante",
    "bomb_pot_every",
    "time_bank_refill_seconds",
    "time_bank_refill_hands",
    "missed_blinds",
    "rotation_hands",
    "choice_games",
    "choice_seconds",
)


def _given(cleaned: dict[str, Any]) -> dict[str, Any]:
    """The settings of a valid form without the optional ones left empty."""
    return {k: v for k, v in cleaned.items() if not (k in OPTIONAL_FIELDS and v is None)}


class GameForm(forms.Form):
    """The new-game form: the model's own fields (labels, choices, help), the defaults of
    ``hosting.GAME_DEFAULTS``; the service checks the whole game (``Table.clean``)."""

    def __init__(self, *args: Any, fields: Sequence[str] = FORM_FIELDS, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields.update(fields_for_model(Table, fields=fields))
        help_texts = {
            "bot_seats": "Bots to keep seated: 0 to seats − 2.",
            "private": "Seen only by you, your players and whoever you invite.",
            "small_blind": "Hold'em and Omaha (stud games have no blinds).",
            "straddle": "Hold'em and Omaha: the first straddle, under the gun (0: none).",
            "straddles": "How many: each re-straddle doubles the last (up to seats − 2).",
            "bring_in": "Stud, stud hi-lo and razz: the lowest up-card (razz: highest) "
            "opens with it; below the small bet.",
            "small_bet": "Fixed limit: stud's 3rd and 4th street bet (required for stud "
            "games and fixed-limit mixed games); empty means the big blind.",
            "rotation_hands": "HORSE, 8-game: hands of each game before the next (0: one orbit).",
        }
        if "choice_games" in self.fields:  # a box per game rather than a JSON text
            self.fields["choice_games"] = forms.MultipleChoiceField(
                choices=Table.PICKS,
                required=False,
                widget=forms.CheckboxSelectMultiple,
                label="Dealer's choice games",
                help_text=str(Table._meta.get_field("choice_games").help_text),
            )
        missed_blinds = self.fields.get("missed_blinds")
        if isinstance(missed_blinds, forms.TypedChoiceField):
            missed_blinds.empty_value = None  # left out: the table's rule stays
        for name, field in self.fields.items():
            field.required = name not in ("name", *OPTIONAL_FIELDS) and not isinstance(
                field, forms.BooleanField
            )
            field.help_text = help_texts.get(name, field.help_text)
        # What a help text says in a stud game (no blinds: its stakes are its bets); the
        # form's script shows it when a stud game is chosen.
        stud_help = {
            "min_buy_in": "Chips; empty means 20 small bets.",
            "max_buy_in": "Chips; empty means 100 small bets.",
            "ante": "Chips each player antes before 3rd street.",
        }
        for name, text in stud_help.items():
            if name in self.fields:
                self.fields[name].widget.attrs["data-stud-help"] = text
        if "name" in self.fields:
            self.fields["name"].required = True
        for name, value in hosting.GAME_DEFAULTS.items():
            if name in self.fields:
                self.fields[name].initial = value


@login_required
@require_http_methods(["GET", "POST"])
def table_new(request: AuthenticatedRequest) -> HttpResponse:
    """``/tables/new/``: start a game; its creator is its host."""
    form = GameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        player = player_get_or_create(user=request.user)
        settings = dict(form.cleaned_data)
        # What the form hid for this game is left at its default (stud's blinds, hold'em's
        # bring-in): a value typed before switching games is not an error the host can't see.
        hidden = Table.settings_not_for(settings["game"], settings["betting"])
        for name, value in list(settings.items()):
            if name in hidden or (value is None and name in hosting.GAME_DEFAULTS):
                settings[name] = hosting.GAME_DEFAULTS[name]
        try:
            table = hosting.table_create(host=player, **settings)
        except InvalidSettings as error:
            for name, message in error.errors.items():
                form.add_error(name if name in form.fields else None, message)
        except ServiceError as error:
            form.add_error(None, str(error))
        else:
            return redirect("tables:detail", table_id=table.pk)
    return render(request, "tables/new.html", {"form": form, "games": game_rules()})


def game_rules() -> dict[str, Any]:
    """For the form's script: each game's bettings and seats, and the settings each game
    and betting leaves out (the script hides them; the view ignores them)."""
    return {
        "bettings": Table.BETTINGS_OF,
        "stud": sorted(STUD_GAMES),
        "seats": {game: Table.MAX_SEATS[game] for game in Table.GAMES},
        "hidden": {
            game: {
                betting: sorted(Table.settings_not_for(game, betting))
                for betting in Table.Betting.values
            }
            for game in Table.GAMES
        },
    }


#: How long a guest's cookie session lasts (a night, with room): the account stays, and its
#: owner keeps it by choosing a password (``accounts/keep/``).
GUEST_SESSION_SECONDS = 24 * 3600


class GuestForm(forms.Form):
    """ "Join as guest": a name alone (checked by ``guests.guest_join``)."""

    name = forms.CharField(
        max_length=150,
        label="Your name",
        help_text="What the table calls you: letters, digits and @ . + - _ (no spaces).",
    )


def join(request: HttpRequest, token: str) -> HttpResponse:
    """``/join/<token>/``: the invite link. Logged in: in, to the table. Logged out: the game
    (name, host, game, stakes, who sits) with "Join as guest" by a name, or log in / sign up
    and come back. A replaced link says so, logged in or out; so does a club's table's link to
    anyone but its members (``invite_lets_in``), a logged-out visitor included."""
    if not request.user.is_authenticated:
        table = invite_table(token)
        if table is None:
            return _invite_gone(request)
        return _join_page(request, table, token, GuestForm())
    player = player_get_or_create(user=request.user)
    try:
        table = hosting.table_guest_join(token=token, player=player)
    except ServiceError:
        return _invite_gone(request)
    return redirect("tables:detail", table_id=table.pk)


@require_POST
def join_guest(request: HttpRequest, token: str) -> HttpResponse:
    """``POST /join/<token>/guest/``: a guest account by the name given, logged in (a cookie
    session) and sent to the table; the name's problem on the page otherwise."""
    if request.user.is_authenticated:
        return redirect("join", token=token)
    form = GuestForm(request.POST)
    table = invite_table(token)
    if table is None:
        return _invite_gone(request)
    if form.is_valid():
        try:
            player = guests.guest_join(name=form.cleaned_data["name"], token=token)
        except NoSuchInvite:
            return _invite_gone(request)
        except ServiceError as error:
            form.add_error("name", str(error))
        else:
            login(request, player.user, backend="django.contrib.auth.backends.ModelBackend")
            request.session.set_expiry(GUEST_SESSION_SECONDS)
            return redirect("tables:detail", table_id=table.pk)
    return _join_page(request, table, token, form, status=400)


def _join_page(
    request: HttpRequest, table: Table, token: str, form: GuestForm, status: int = 200
) -> HttpResponse:
    context = {
        "table": table,
        "seated": seated_names(table),
        "form": form,
        "next": reverse("join", kwargs={"token": token}),
        "token": token,
    }
    return render(request, "tables/join.html", context, status=status)


def _invite_gone(request: HttpRequest) -> HttpResponse:
    return render(request, "tables/join_gone.html", status=404)


def _visible_table(request: HttpRequest, table_id: int) -> Table:
    table = Table.objects.select_related("host__user").filter(pk=table_id).first()
    if table is None or not can_see_table(table, request.user):
        raise Http404("No such table.")
    return table


def invite_url(request: HttpRequest, table: Table) -> str | None:
    """The game's invite link as a full URL (for its host), or None."""
    if not table.invite_token:
        return None
    return str(request.build_absolute_uri(reverse("join", kwargs={"token": table.invite_token})))


def change_form_for(table: Table, data: QueryDict | None = None) -> GameForm:
    """The panel's change form: every setting, as the game will be dealt next (its settings
    with those waiting for the hand's end over them)."""
    waiting = (table.pending_changes or {}).get("settings", {})
    initial = {name: waiting.get(name, getattr(table, name)) for name in CHANGE_FIELDS}
    return GameForm(data, fields=CHANGE_FIELDS, initial=initial)


def settings_hidden(form: GameForm, table: Table) -> frozenset[str]:
    """The settings the change form hides for the game and betting it shows (chosen by the
    host in a sent form, else the game as the next hand deals it)."""
    data = form.cleaned_data if hasattr(form, "cleaned_data") else {}
    initial = form.initial
    game = data.get("game") or initial.get("game", table.game)
    betting = data.get("betting") or initial.get("betting", table.betting)
    return Table.settings_not_for(game, betting)


def hosting_panel(
    request: HttpRequest, table_id: int, change_form: GameForm | None = None
) -> HttpResponse:
    """The table page's hosting part: for the host, the invite link, the requests waiting
    and the controls; for a player, their own request's answer. (The game's notices are in
    the hand log, the rejoining rule in the sit-down form.) Refreshed by htmx when the table
    changes."""
    table = _visible_table(request, table_id)
    player = viewer_player(request.user)
    is_host = can_host(table, request.user)
    mine = request_of(table, player) if player is not None else None
    context = {
        "table": table,
        "is_host": is_host,
        "closed": table.status == Table.Status.CLOSED,
        "my_request": mine,
        "my_request_status": request_status(mine) if mine is not None else None,
        "broadcast": broadcast_context(table, player),
    }
    if is_host:
        context_form = change_form or change_form_for(table)
        context.update(
            {
                "invite_url": invite_url(request, table),
                "tv_url": room_screen_link(table, is_host=True),
                "requests": list(live_requests(table)),
                "seats": list(table.seats.select_related("player__user").order_by("number")),
                "guests": list(table.guests.select_related("player__user")),
                "change_form": context_form,
                # the settings of the table's game only (the form's script follows a change)
                "games": game_rules(),
                "not_for_game": settings_hidden(context_form, table),
                "pending": table.pending_changes or {},
            }
        )
    return render(request, "tables/_host_panel.html", context)


def _player_from(request: HttpRequest) -> Player:
    try:
        pk = parse_whole_number(request.POST.get("player"), what="player", minimum=1)
    except NumberError:
        raise Http404("No such player.") from None
    player = Player.objects.select_related("user").filter(pk=pk).first()
    if player is None:
        raise Http404("No such player.")
    return player


def _number_from(request: HttpRequest, name: str, what: str, minimum: int = 1) -> int:
    return parse_whole_number(request.POST.get(name), what=what, minimum=minimum)


class ChangeRefused(Exception):
    """The change form with its errors by field (nothing changed)."""

    def __init__(self, form: GameForm) -> None:
        super().__init__("Nothing changed: see the settings marked.")
        self.form = form


def _labels(names: Iterable[str]) -> str:
    return ", ".join(str(_field(name).verbose_name) for name in names)


def _field(name: str) -> Field[Any, Any]:
    field = Table._meta.get_field(name)
    assert isinstance(field, Field)  # the table's own settings, no relation
    return field


def _change(request: HttpRequest, table: Table) -> str:
    """The change form: only the settings the host changed go to the service (the same one,
    with the same checks, as ``PATCH /api/tables/<id>/``); the answer says which apply now and
    which wait for the hand being played to end."""
    form = change_form_for(table, request.POST)
    form.is_valid()
    # What the page hides for the game chosen is ignored, as the new-game form ignores it
    # (the service puts it back to its default when the game changes): never an error there.
    hidden = settings_hidden(form, table)
    for name in hidden:
        form.errors.pop(name, None)
    if form.errors:
        raise ChangeRefused(form)
    changes = _given(
        {name: form.cleaned_data[name] for name in form.changed_data if name not in hidden}
    )
    try:
        update = hosting.table_host_update(table=table, by=request.user, changes=changes)
    except InvalidSettings as error:
        for name, message in error.errors.items():
            if name in form.fields and name not in hidden:
                form.add_error(name, message)
            else:  # said above the form, by its name: nothing the host cannot see
                shown = _labels([name]) if name in CHANGE_FIELDS else name
                form.add_error(None, f"{str(shown).capitalize()}: {message}")
        raise ChangeRefused(form) from None
    parts = []
    if update.applied:
        parts.append(f"Changed now: {_labels(update.applied)}.")
    if update.waiting:
        parts.append(f"From the next hand: {_labels(update.waiting)}.")
    return " ".join(parts) or "Nothing to change."


def _answer(request: HttpRequest, table: Table, approve: bool) -> str:
    seat_requests.seat_request_answer(
        table=table,
        by=request.user,
        request_id=_number_from(request, "request", "The request"),
        approve=approve,
    )
    return "Approved." if approve else "Declined."


#: The host controls: name -> what it does (request, table) -> the message shown.
CONTROLS: dict[str, Callable[[HttpRequest, Table], str]] = {
    "pause": lambda r, t: (hosting.table_host_pause(table=t, by=r.user), "Paused.")[1],
    "resume": lambda r, t: (hosting.table_host_resume(table=t, by=r.user), "Resumed.")[1],
    "invite": lambda r, t: (
        hosting.table_invite_replace(table=t, by=r.user),
        "A new invite link: the old one no longer works.",
    )[1],
    "change": _change,
    "correct": lambda r, t: (
        host_seats.table_correct_stack(
            table=t,
            by=r.user,
            player=_player_from(r),
            stack=_number_from(r, "stack", "The stack"),
            # the stack the panel showed: the difference is taken from it
            shown=_number_from(r, "shown", "The stack shown", 0) if "shown" in r.POST else None,
        ).message
    ),
    "remove": lambda r, t: (
        "Removed."
        if host_seats.table_host_remove(table=t, by=r.user, player=_player_from(r))
        else "They play this hand out and are cashed out when it ends."
    ),
    "sit_out": lambda r, t: (
        "Sat out."
        if host_seats.table_host_sit_out(table=t, by=r.user, player=_player_from(r))
        else "They play this hand out and sit out from the next."
    ),
    "transfer": lambda r, t: (
        host_seats.table_host_transfer(table=t, by=r.user, player=_player_from(r)),
        "You handed the game over.",
    )[1],
    "close": lambda r, t: (
        "Closed."
        if hosting.table_host_close(table=t, by=r.user)
        else "The game closes when this hand ends."
    ),
    "bomb_pot": lambda r, t: (
        hosting.table_host_bomb_pot(table=t, by=r.user),
        "Bomb pot called for the next hand.",
    )[1],
    "broadcast": host_propose,
    "broadcast_stop": host_stop,
    "approve": lambda r, t: _answer(r, t, True),
    "decline": lambda r, t: _answer(r, t, False),
}


@require_POST
def host_control(request: HtmxRequest, table_id: int, control: str) -> HttpResponse:
    """``POST /tables/<id>/host/<control>/``: one host control (``CONTROLS``); 404 for a
    game the user may not see, 403 for one they may not run."""
    table = _visible_table(request, table_id)
    action = CONTROLS.get(control)
    if action is None:
        raise Http404("No such control.")
    if not can_host(table, request.user):
        raise PermissionDenied("Only the game's host can do that.")
    change_form = None
    try:  # in the turn of the table's runtime here, where this process runs the table
        text = in_table_turn(table.pk, lambda: action(request, table), f"command host {control}")
    except ChangeRefused as error:
        messages.error(request, str(error))
        change_form = error.form
    except (ServiceError, NumberError) as error:
        messages.error(request, str(error))
    else:
        messages.success(request, text)
    if request.htmx:
        return hosting_panel(request, table_id, change_form)
    return redirect("tables:detail", table_id=table_id)


@require_POST
def broadcast_answer(request: HtmxRequest, table_id: int) -> HttpResponse:
    """``POST /tables/<id>/broadcast/`` (``agree``: 1 or 0): a seated player's own answer to
    the hole-card broadcast; the hosting panel again."""
    table = _visible_table(request, table_id)
    player = viewer_player(request.user)
    try:
        if player is None:
            raise NotSeated("Only a player seated at this table can answer that.")
        agree = request.POST.get("agree") == "1"
        answered = in_table_turn(
            table.pk, lambda: player_answer(table, player, agree), "command broadcast"
        )
        messages.success(request, answered)
    except ServiceError as error:
        messages.error(request, str(error))
    if request.htmx:
        return hosting_panel(request, table_id)
    return redirect("tables:detail", table_id=table_id)
