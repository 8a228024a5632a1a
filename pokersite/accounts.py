"""Accounts: sign up (with the starting grant), log in/out, change password, profile.

Log in, log out and password change are Django's auth views with our templates (the
password change checks the old password as a log-in would: ``PasswordChangeForm``); sign-up
creates the user and player through ``tables.services.player_sign_up``, refusing a name that
reads like an existing one (``tables.usernames.lookalike``). Limits: tables/ratelimit.py.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import (
    authenticate,
    forms as auth_forms,
    login,
    update_session_auth_hash,
    views as auth_views,
)
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from pokersite import preferences
from tables.http import AuthenticatedRequest
from tables.imports.selectors import player_ledger_nights
from tables.names import name_problem
from tables.selectors.players import name_like_taken, player_ledger
from tables.selectors.recent import recent_games
from tables.services import player_get_or_create, player_mark_bot, player_sign_up
from tables.services.errors import ServiceError
from tables.services.guests import LOOKALIKE, guest_keep
from tables.text import chips


class SignUpForm(UserCreationForm[User]):
    """Username and password twice, checked by Django's password validators."""

    email = forms.EmailField(required=False, help_text="Optional; only used to reset a password.")

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def clean_username(self) -> str:
        """Django's checks (NFKC, not taken in any case), then the one name check
        (``tables.names``: nothing invisible), then no look-alike of a taken name: ``аlice``
        with a Cyrillic ``а`` beside ``alice`` would pass for her at the table."""
        username = super().clean_username()
        problem = name_problem(username or "", "The username")
        if problem:
            raise forms.ValidationError(problem, code="invisible_character")
        if username and name_like_taken(username):
            raise forms.ValidationError(LOOKALIKE, code="lookalike")
        return username


class PasswordChangeForm(auth_forms.PasswordChangeForm):
    """Django's, with the old password checked through ``authenticate``: a wrong one counts
    toward the log-in lock-out (django-axes, tables/ratelimit.py) like a failed log-in, so
    a stolen session cannot guess it without limit, and a locked-out account is refused."""

    def __init__(
        self, user: User, *args: Any, request: HttpRequest | None = None, **kwargs: Any
    ) -> None:
        self.request = request
        super().__init__(user, *args, **kwargs)

    def clean_old_password(self) -> str:
        old_password = self.cleaned_data["old_password"]
        username = self.user.get_username()
        if authenticate(self.request, username=username, password=old_password) is None:
            raise forms.ValidationError(
                self.error_messages["password_incorrect"], code="password_incorrect"
            )
        return str(old_password)


class PasswordChangeView(auth_views.PasswordChangeView):
    form_class = PasswordChangeForm

    def get_form_kwargs(self) -> dict[str, Any]:
        return {**super().get_form_kwargs(), "request": self.request}


def _safe_next(request: HttpRequest) -> str:
    """The ``next`` page asked for (an invite link, a table), if it is one of this site's."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return ""


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("lobby")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        player = player_sign_up(
            username=form.cleaned_data["username"],
            password=form.cleaned_data["password1"],
            email=form.cleaned_data.get("email") or "",
        )
        login(request, player.user, backend="django.contrib.auth.backends.ModelBackend")
        target = _safe_next(request)
        if not target:  # the banner speaks of the lobby's tables: not over the page they came for
            messages.success(
                request,
                f"Welcome, {player.name}! You have {chips(player.bankroll)} play chips: "
                "pick a table below to watch or sit down.",
            )
        return redirect(target or "lobby")
    return render(request, "accounts/signup.html", {"form": form, "next": _safe_next(request)})


@login_required
def profile(request: AuthenticatedRequest) -> HttpResponse:
    """The player's bankroll, seats and ledger (and their nights imported from PokerNow)."""
    player = player_get_or_create(user=request.user)
    context = {
        "player": player,
        "seats": player.seats.select_related("table").order_by("table__name"),
        "ledger": player_ledger(player),
        "recent_games": recent_games(player),  # closed games too: their result stays reachable
        # nights brought from PokerNow: beside the ledger, never in its play chips
        "pokernow_nights": player_ledger_nights(player),
    }
    return render(request, "accounts/profile.html", context)


@login_required
@require_http_methods(["POST"])
def profile_bot(request: AuthenticatedRequest) -> HttpResponse:
    """Mark your account as a bot account (played by your program through the play API), or
    not: the checkbox on the profile page."""
    player = player_get_or_create(user=request.user)
    player_mark_bot(player=player, bot_account=request.POST.get("bot_account") == "on")
    return redirect("profile")


@login_required
@require_http_methods(["GET", "POST"])
def keep_account(request: AuthenticatedRequest) -> HttpResponse:
    """``/accounts/keep/``: a guest (joined by name from an invite link) chooses a password and
    keeps the account: its chips, ledger and hands stay theirs; they stay logged in."""
    player = player_get_or_create(user=request.user)
    if not player.is_guest:
        return redirect("password_change")
    form = auth_forms.SetPasswordForm(request.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            guest_keep(player=player, password=form.cleaned_data["new_password1"])
        except ServiceError as error:
            form.add_error(None, str(error))
        else:
            request.user.refresh_from_db()
            update_session_auth_hash(request, request.user)
            request.session.set_expiry(None)  # the site's usual session, no longer a night's
            messages.success(
                request, f"The account is yours: log in as {player.name} with your password."
            )
            return redirect("profile")
    return render(request, "accounts/keep.html", {"form": form})


urlpatterns = [
    path("signup/", signup, name="signup"),
    path(
        "login/",
        auth_views.LoginView.as_view(template_name="accounts/login.html"),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "password/",
        PasswordChangeView.as_view(
            template_name="accounts/password_change.html",
            success_url=reverse_lazy("password_change_done"),
        ),
        name="password_change",
    ),
    path(
        "password/done/",
        auth_views.PasswordChangeDoneView.as_view(
            template_name="accounts/password_change_done.html"
        ),
        name="password_change_done",
    ),
    path("keep/", keep_account, name="keep_account"),
    path("profile/", profile, name="profile"),
    path("profile/bot/", profile_bot, name="profile_bot"),
    path("preferences/", preferences.preferences, name="preferences"),
]
