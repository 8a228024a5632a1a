"""How the cards and the felt look, the nudge when it is your turn, and the HUD at the tables:
a personal setting.

Saved on the account (``Player`` fields, through ``player_set_preferences``); a visitor who is
not logged in keeps them in a cookie (per browser). Every page carries them as attributes on
``<body>`` (the context processor ``display``), and the CSS and signals.js read them there:
the table's frames, shared by every viewer, never carry them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.utils.functional import SimpleLazyObject
from django.views.decorators.http import require_http_methods

from tables.models import Player
from tables.services import player_get_or_create, player_set_preferences
from tables.services.errors import ServiceError

#: The cookie a visitor who is not logged in keeps their choices in (a year).
COOKIE = "poker_display"
COOKIE_AGE = 365 * 24 * 3600


@dataclass(frozen=True)
class Display:
    """One viewer's choices, as the page's ``<body>`` attributes spell them."""

    deck: str = "four"
    cards: str = "normal"
    felt: str = "green"
    nudge: str = "off"
    hud: str = "on"  # the players' statistics beside the seats (tables.views_hud)

    @classmethod
    def of_player(cls, player: Player) -> Display:
        return cls(
            deck=player.deck_colours,
            cards="large" if player.large_cards else "normal",
            felt=player.felt,
            nudge="on" if player.turn_nudge else "off",
            hud="on" if player.hud else "off",
        )


class PreferencesForm(forms.Form):
    deck_colours = forms.ChoiceField(
        label="Deck",
        choices=Player.DECK_COLOURS,
        widget=forms.RadioSelect,
        error_messages={"invalid_choice": "Pick a deck: four-colour or two-colour."},
    )
    large_cards = forms.BooleanField(label="Larger cards", required=False)
    felt = forms.ChoiceField(
        label="Felt",
        choices=Player.FELTS,
        widget=forms.RadioSelect,
        error_messages={"invalid_choice": "Pick a felt colour: green, blue, red or grey."},
    )
    turn_nudge = forms.BooleanField(
        label="Nudge me when it is my turn: a browser notification while the tab is not in "
        "front, and a vibration on phones",
        required=False,
    )
    hud = forms.BooleanField(
        label="Show the HUD at the tables: each player's statistics beside their seat, on "
        "hover or tap",
        required=False,
    )

    @classmethod
    def for_display(cls, display: Display, data: QueryDict | None = None) -> PreferencesForm:
        initial = {
            "deck_colours": display.deck,
            "large_cards": display.cards == "large",
            "felt": display.felt,
            "turn_nudge": display.nudge == "on",
            "hud": display.hud == "on",
        }
        return cls(data, initial=initial)

    def display(self) -> Display:
        data = self.cleaned_data
        return Display(
            deck=data["deck_colours"],
            cards="large" if data["large_cards"] else "normal",
            felt=data["felt"],
            nudge="on" if data["turn_nudge"] else "off",
            hud="on" if data["hud"] else "off",
        )


def _from_cookie(request: HttpRequest) -> Display:
    """The visitor's cookie, read through the form: anything it does not accept is ignored."""
    form = PreferencesForm(QueryDict(request.COOKIES.get(COOKIE, "")))
    return form.display() if form.is_valid() else Display()


def current_display(request: HttpRequest) -> Display:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        try:
            return Display.of_player(user.player)  # cached on the user: the header reads it too
        except Player.DoesNotExist:
            return Display()
    return _from_cookie(request)


def display(request: HttpRequest) -> dict[str, Any]:
    """Context processor: ``display``, the viewer's choices for ``<body>``'s attributes (read
    only when a page uses it: the partials rendered without ``base.html`` cost nothing)."""
    return {"display": SimpleLazyObject(lambda: current_display(request))}


@require_http_methods(["GET", "POST"])
def preferences(request: HttpRequest) -> HttpResponse:
    """``/accounts/preferences/``: the deck, larger cards, the felt, the turn nudge, the HUD."""
    form = PreferencesForm.for_display(current_display(request), request.POST or None)
    if request.method == "POST" and form.is_valid():
        chosen = form.display()
        response = redirect("preferences")
        if request.user.is_authenticated:
            player = player_get_or_create(user=request.user)
            try:
                player_set_preferences(
                    player=player,
                    deck_colours=chosen.deck,
                    large_cards=chosen.cards == "large",
                    felt=chosen.felt,
                    turn_nudge=chosen.nudge == "on",
                    hud=chosen.hud == "on",
                )
            except ServiceError as error:
                form.add_error(None, str(error))
                return render(request, "accounts/preferences.html", {"form": form}, status=400)
        else:
            values = form.cleaned_data
            response.set_cookie(
                COOKIE,
                urlencode({k: v for k, v in values.items() if v is not False}),
                max_age=COOKIE_AGE,
                samesite="Lax",
                secure=request.is_secure(),
            )
        messages.success(request, "Saved: your cards and felt look like this on every table.")
        return response
    status = 400 if request.method == "POST" else 200
    context = {
        "form": form,
        "chosen": asdict(current_display(request)),
        # Web Push (the turn nudge with no table open): a logged-in player, a site with a key
        "push_key": settings.POKER_VAPID_PUBLIC_KEY if request.user.is_authenticated else "",
    }
    return render(request, "accounts/preferences.html", context, status=status)
